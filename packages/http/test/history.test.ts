/**
 * Property history over HTTP on both databases: a create's initial values and an update's changed
 * ones (a value set to what it was is no change, a cleared one has a null value), built-in and
 * custom, each with its user, source and time; the sources of batches and imports; newest first,
 * paginated, one property when asked; concurrent updates measured each from the other; the
 * permission, another account's record, a bad query; and the retention's pruning.
 */
import { processNextImport } from "@wasl/core/Imports"
import { BUILTIN_GROUPS } from "@wasl/core/Records"
import { pruneExpired, RetentionPolicy, DEFAULT_RETENTION } from "@wasl/core/Retention"
import { Duration, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const RECORD_ID = /^[0-9a-f]{24}$/
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/

interface Entry {
  readonly _id: string
  readonly property: string
  readonly value: unknown
  readonly previous_value: unknown
  readonly source: string
  readonly user_id: number | null
  readonly changed_at: string
}

describe.each(DATABASES)("property history over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "history-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "history-other@example.test", password: "pw-other" })
    const memo = await server.request("POST", "/api/deals/properties", {
      token: owner.token,
      body: { type: "string", name: { en: "Memo" }, internal_name: "memo", group_id: BUILTIN_GROUPS.deal._id }
    })
    expect(memo.status).toBe(201)
  })
  afterAll(async () => {
    await server?.close()
  })

  const history = async (path: string, token = owner.token) => {
    const reply = await server.request("GET", path, { token })
    expect(reply.status).toBe(200)
    return reply.body as { data: ReadonlyArray<Entry>; meta: { total: number; current_page: number; per_page: number } }
  }
  const changes = (entries: ReadonlyArray<Entry>) =>
    Object.fromEntries(entries.map((e) => [e.property, [e.previous_value, e.value]]))

  it("keeps a create's initial values and an update's changed ones, built-in and custom, with the user, the source and the time", async () => {
    const created = await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "Acme", amount: 100, memo: "first" } })
    expect(created.status).toBe(201)
    const id = created.body.data.properties._id
    const first = await history(`/api/deals/${id}/history`)
    expect(changes(first.data)).toMatchObject({ deal_name: [null, "Acme"], amount: [null, 100], memo: [null, "first"] })
    for (const entry of first.data) {
      expect(entry).toEqual({
        _id: expect.stringMatching(RECORD_ID),
        property: entry.property,
        value: entry.value,
        previous_value: null,
        source: "api",
        user_id: owner.user_id,
        changed_at: expect.stringMatching(TIMESTAMP)
      })
    }

    // The name is set to what it was: no change. The memo is cleared.
    const updated = await server.request("PUT", `/api/deals/${id}`, { token: owner.token, body: { deal_name: "Acme", amount: 250.5, memo: null } })
    expect(updated.status).toBe(200)
    const after = await history(`/api/deals/${id}/history`)
    expect(after.meta.total).toBe(first.meta.total + 2)
    expect(changes(after.data.slice(0, 2))).toEqual({ amount: [100, 250.5], memo: ["first", null] })
    expect(after.data.slice(2).map((e) => e._id)).toEqual(first.data.map((e) => e._id))
    expect(after.data[0]!.changed_at >= first.data[0]!.changed_at).toBe(true)
  })

  it("newest first, paginated as the lists, one property when asked", async () => {
    const id = (await server.request("POST", "/api/contacts", { token: owner.token, body: { firstname: "A" } })).body.data.properties._id
    for (const name of ["B", "C", "D"]) {
      expect((await server.request("PUT", `/api/contacts/${id}`, { token: owner.token, body: { firstname: name, lastname: name } })).status).toBe(200)
    }
    const names = await history(`/api/contacts/${id}/history?property=firstname&per_page=2`)
    expect(names.meta).toMatchObject({ total: 4, current_page: 1, per_page: 2 })
    expect(names.data.map((e) => [e.previous_value, e.value])).toEqual([["C", "D"], ["B", "C"]])
    const second = await history(`/api/contacts/${id}/history?property=firstname&per_page=2&page=2`)
    expect(second.data.map((e) => [e.previous_value, e.value])).toEqual([["A", "B"], [null, "A"]])
    expect((await history(`/api/contacts/${id}/history?property=nothing`)).meta.total).toBe(0)
    expect((await history(`/api/contacts/${id}/history?property=`)).meta.total).toBeGreaterThan(4)
  })

  it("a batch's and an import's changes carry their source", async () => {
    const batch = await server.request("POST", "/api/contacts/batch/create", {
      token: owner.token,
      body: { inputs: [{ properties: { firstname: "Batch", email: "batch@history.test" } }] }
    })
    expect(batch.status).toBe(201)
    const id = batch.body.data[0].properties._id
    await server.request("POST", "/api/contacts/batch/update", { token: owner.token, body: { inputs: [{ id, properties: { lastname: "One" } }] } })
    await server.request("POST", "/api/contacts/batch/upsert", {
      token: owner.token,
      body: { id_property: "email", inputs: [{ id: "batch@history.test", properties: { lastname: "Two" } }] }
    })
    const body = new FormData()
    body.append("match_on", "email")
    body.append("file", new Blob(["email,lastname\r\nbatch@history.test,Three\r\n"], { type: "text/csv" }), "people.csv")
    const upload = await fetch(`${server.url}/api/contacts/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}`, accept: "application/json" },
      body
    })
    expect(upload.status).toBe(202)
    while (await server.run(processNextImport())) {
      // next import
    }
    const lastnames = await history(`/api/contacts/${id}/history?property=lastname`)
    expect(lastnames.data.map((e) => [e.source, e.previous_value, e.value, e.user_id])).toEqual([
      ["import", "Two", "Three", owner.user_id],
      ["batch", "One", "Two", owner.user_id],
      ["batch", null, "One", owner.user_id]
    ])
    expect((await history(`/api/contacts/${id}/history?property=firstname`)).data[0]).toMatchObject({ source: "batch", value: "Batch" })
  })

  it("concurrent updates of one record are each measured from the value the other left", async () => {
    const id = (await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "Race", amount: 1 } })).body.data.properties._id
    const replies = await Promise.all(
      [2, 3, 4, 5].map((amount) => server.request("PUT", `/api/deals/${id}`, { token: owner.token, body: { amount } }))
    )
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200])
    const amounts = (await history(`/api/deals/${id}/history?property=amount`)).data
    expect(amounts).toHaveLength(5)
    // Oldest to newest, each change starts where the one before it ended.
    const chain = [...amounts].reverse()
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.previous_value).toBe(chain[i - 1]!.value)
    const current = (await server.request("GET", `/api/deals/${id}`, { token: owner.token })).body.data.properties.amount
    expect(chain.at(-1)!.value).toBe(current)
  })

  it("needs the kind's show permission; another account's record and an id of no record are 404; a bad query is 422", async () => {
    const id = (await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "Private" } })).body.data.properties._id
    const contactsOnly = (await server.request("POST", "/api/tokens", {
      token: owner.token,
      body: { name: "contacts", abilities: ["contact-show"] }
    })).body.token
    expect((await server.request("GET", `/api/deals/${id}/history`, { token: contactsOnly })).status).toBe(403)
    const dealsToken = (await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "deals", abilities: ["deal-show"] } })).body.token
    expect((await server.request("GET", `/api/deals/${id}/history`, { token: dealsToken })).status).toBe(200)
    expect((await server.request("GET", `/api/deals/${id}/history`, { token: other.token })).status).toBe(404)
    expect((await server.request("GET", `/api/tickets/${id}/history`, { token: owner.token })).status).toBe(404)
    expect((await server.request("GET", "/api/deals/ffffffffffffffffffffffff/history", { token: owner.token })).status).toBe(404)
    expect((await server.request("GET", "/api/deals/not-an-id/history", { token: owner.token })).status).toBe(404)
    const bad = await server.request("GET", `/api/deals/${id}/history?per_page=500&property[]=amount`, { token: owner.token })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors).sort()).toEqual(["per_page", "property"])
    expect((await server.request("GET", `/api/deals/${id}/history`)).status).toBe(401)
  })

  it("the worker's pruning deletes the entries older than WASL_RETENTION_HISTORY", async () => {
    const id = (await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "Old" } })).body.data.properties._id
    expect((await history(`/api/deals/${id}/history`)).meta.total).toBeGreaterThan(0)
    await server.run(pruneExpired(1000).pipe(Effect.provideService(RetentionPolicy, DEFAULT_RETENTION)))
    expect((await history(`/api/deals/${id}/history`)).meta.total).toBeGreaterThan(0)
    await server.run(pruneExpired(1000).pipe(Effect.provideService(RetentionPolicy, { ...DEFAULT_RETENTION, history: Duration.zero })))
    expect((await history(`/api/deals/${id}/history`)).meta.total).toBe(0)
  })
})
