/**
 * Saved views over HTTP on both databases: the endpoints' shapes and messages, a view's 422 body
 * the same as the list's for the same parameters, listing with `view=` (its page links keeping
 * it), the chosen views on `PUT /api/me` and `GET /api/me`, permissions, another member's private
 * view and another account's.
 */
import { UserRepository } from "@wasl/core/Accounts"
import { PERMISSIONS, type Principal } from "@wasl/core/Auth"
import { createView } from "@wasl/core/Records"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const RECORD_ID = /^[0-9a-f]{24}$/
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/

describe.each(DATABASES)("saved views over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let dealsOnly: string

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "views-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "views-other@example.test", password: "pw-other" })
    const created = await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "deals", abilities: ["deal-index"] } })
    dealsOnly = created.body.token
  })
  afterAll(async () => {
    await server?.close()
  })

  const ownerGet = (path: string) => server.request("GET", path, { token: owner.token })

  it("saves, shows, lists, changes and deletes a view", async () => {
    const created = await server.request("POST", "/api/deals/views", {
      token: owner.token,
      body: { name: "Big deals", search: "acme", order: "amount", direction: "desc", columns: ["deal_name", "amount"],
        complex_filters: JSON.stringify([{ property: "amount", operator: "gte", value: "100" }]) }
    })
    expect(created.status).toBe(201)
    expect(created.body.message).toBe("Entity was created Successfully")
    const view = created.body.data
    expect(view).toEqual({
      _id: expect.stringMatching(RECORD_ID),
      account_id: owner.account_id,
      user_id: owner.user_id,
      name: "Big deals",
      search: "acme",
      order: "amount",
      direction: "desc",
      complex_filters: [{ property: "amount", operator: "gte", value: 100 }],
      columns: ["deal_name", "amount"],
      shared: false,
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP)
    })
    expect((await ownerGet(`/api/deals/views/${view._id}`)).body).toEqual({ data: view })
    expect((await ownerGet("/api/deals/views")).body.data.map((v: { _id: string }) => v._id)).toContain(view._id)
    const updated = await server.request("PUT", `/api/deals/views/${view._id}`, { token: owner.token, body: { shared: true } })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ message: "Entity was modified Successfully", data: { name: "Big deals", shared: true } })
    const deleted = await server.request("DELETE", `/api/deals/views/${view._id}`, { token: owner.token })
    expect(deleted.body).toEqual({ message: "Entity was deleted Successfully", data: [] })
    expect((await ownerGet(`/api/deals/views/${view._id}`)).status).toBe(404)
    expect((await ownerGet("/api/deals/views/not-an-id")).status).toBe(404)
  })

  it("answers a view's bad list parameters with the list's own 422 body", async () => {
    const listed = await ownerGet(
      "/api/deals?order=nope&direction=up&complex_filters[0][property]=amount&complex_filters[0][operator]=gt&complex_filters[0][value]=many"
    )
    expect(listed.status).toBe(422)
    const saved = await server.request("POST", "/api/deals/views", {
      token: owner.token,
      body: { name: "Bad", order: "nope", direction: "up", complex_filters: [{ property: "amount", operator: "gt", value: "many" }] }
    })
    expect(saved.status).toBe(422)
    expect(saved.body).toEqual(listed.body)
    const unnamed = await server.request("POST", "/api/deals/views", { token: owner.token, body: { columns: ["nope"] } })
    expect(unnamed.body).toEqual({
      message: "The name field is required.",
      errors: { name: ["The name field is required."], "columns.0": ["The selected columns.0 is invalid."] }
    })
  })

  it("lists with view=, the query's own keys over the view's, its page links keeping it; a view not seen is a 422", async () => {
    for (const [deal_name, amount] of [["Acme one", 10], ["Acme two", 200], ["Acme three", 300], ["Globex", 400]] as const) {
      await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name, amount } })
    }
    const view = (await server.request("POST", "/api/deals/views", {
      token: owner.token,
      body: { name: "Acme over 100", search: "acme", order: "amount", direction: "asc",
        complex_filters: [{ property: "amount", operator: "gt", value: 100 }] }
    })).body.data
    const names = (reply: { body: { data: ReadonlyArray<{ properties: { deal_name: string } }> } }) =>
      reply.body.data.map((d) => d.properties.deal_name)
    const page = await ownerGet(`/api/deals?view=${view._id}&per_page=1`)
    expect(names(page)).toEqual(["Acme two"])
    expect(page.body.meta.total).toBe(2)
    expect(page.body.links.next).toContain(`view=${view._id}`)
    expect(names(await ownerGet(`/api/deals?view=${view._id}&direction=desc&search=`))).toEqual(["Globex", "Acme three", "Acme two"])

    const refused = await server.request("GET", `/api/deals?view=${view._id}`, { token: other.token })
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({ message: "The selected view is invalid.", errors: { view: ["The selected view is invalid."] } })
  })

  it("PUT /api/me chooses the views GET /api/me shows; a deleted view reads as null", async () => {
    const view = (name: string, path: string) =>
      server.request("POST", `/api/${path}/views`, { token: owner.token, body: { name } }).then((r) => r.body.data._id as string)
    const contacts = await view("People", "contacts")
    const deals = await view("Pipeline", "deals")
    const tickets = await view("Queue", "tickets")
    const me = await server.request("PUT", "/api/me", {
      token: owner.token,
      body: { contacts_view_id: contacts, deals_view_id: deals, tickets_view_id: tickets }
    })
    expect(me.status).toBe(200)
    expect(me.body.data).toMatchObject({ contacts_view_id: contacts, deals_view_id: deals, tickets_view_id: tickets })
    expect((await ownerGet("/api/me")).body).toMatchObject({ contacts_view_id: contacts, deals_view_id: deals, tickets_view_id: tickets })

    const wrongKind = await server.request("PUT", "/api/me", { token: owner.token, body: { contacts_view_id: deals, deals_view_id: "x" } })
    expect(wrongKind.status).toBe(422)
    expect(wrongKind.body.errors).toEqual({
      contacts_view_id: ["The selected contacts view id is invalid."],
      deals_view_id: ["The selected deals view id is invalid."]
    })
    const foreign = await server.request("PUT", "/api/me", { token: other.token, body: { tickets_view_id: tickets } })
    expect(foreign.body.errors).toEqual({ tickets_view_id: ["The selected tickets view id is invalid."] })

    await server.request("DELETE", `/api/deals/views/${deals}`, { token: owner.token })
    await server.request("PUT", "/api/me", { token: owner.token, body: { tickets_view_id: null } })
    expect((await ownerGet("/api/me")).body).toMatchObject({ contacts_view_id: contacts, deals_view_id: null, tickets_view_id: null })
  })

  it("needs the kind's index permission; another member's private view and another account's are not found", async () => {
    expect((await server.request("GET", "/api/deals/views", { token: dealsOnly })).status).toBe(200)
    expect((await server.request("GET", "/api/contacts/views", { token: dealsOnly })).status).toBe(403)
    expect((await server.request("POST", "/api/contacts/views", { token: dealsOnly, body: { name: "X" } })).status).toBe(403)

    const memberView = await server.run(Effect.gen(function*() {
      const users = yield* UserRepository
      const user = yield* Effect.orDie(users.create({ email: "views-member@example.test", passwordHash: "x", firstname: "M", lastname: "N" }))
      yield* users.addMembership(owner.account_id, user.id)
      const member: Principal = {
        kind: "session",
        accountId: owner.account_id,
        userId: user.id,
        permissions: new Set(PERMISSIONS),
        abilities: null,
        tokenId: null,
        sessionId: null
      }
      return yield* createView(member, "deal", { name: "Private" })
    }))
    expect((await ownerGet(`/api/deals/views/${memberView._id}`)).status).toBe(404)
    expect((await ownerGet("/api/deals/views")).body.data.map((v: { _id: string }) => v._id)).not.toContain(memberView._id)
    const shared = (await server.request("POST", "/api/deals/views", { token: owner.token, body: { name: "Ours", shared: true } })).body.data
    expect((await server.request("GET", `/api/deals/views/${shared._id}`, { token: other.token })).status).toBe(404)
    expect((await server.request("DELETE", `/api/deals/views/${shared._id}`, { token: other.token })).status).toBe(404)
  })
})
