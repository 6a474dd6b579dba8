/**
 * Lists over HTTP: the Laravel pagination body, page and
 * per_page bounds, search, order and direction, complex_filters in JSON and bracket notation with
 * `or` groups and errors keyed by their path, the deals' contact_ids link filter, isolation.
 */
import { BUILTIN_GROUPS } from "@wasl/core/Records"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

describe.each(DATABASES)("record lists over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; token: string }
  let other: { account_id: number; token: string }
  const dealIds: Array<string> = []
  let contactId: string

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "lists-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "lists-other@example.test", password: "pw-other" })
    await server.request("POST", "/api/deals/properties", {
      token: owner.token,
      body: { type: "number", name: { en: "Priority" }, internal_name: "priority", group_id: BUILTIN_GROUPS.deal._id }
    })
    // 23 deals: amounts 10..230, priority on the even ones only, two names containing "Alpha".
    for (let i = 1; i <= 23; i++) {
      const body: Record<string, unknown> = {
        deal_name: i === 3 ? "alpha one" : i === 17 ? "The ALPHA two" : `Deal ${String(i).padStart(2, "0")}`,
        amount: i * 10,
        deal_stage: i % 2 === 0 ? "closed_won" : "qualified_to_buy"
      }
      if (i % 2 === 0) body.priority = 100 - i
      const reply = await server.request("POST", "/api/deals", { token: owner.token, body })
      dealIds.push(reply.body.data.properties._id)
    }
    contactId = (await server.request("POST", "/api/contacts", { token: owner.token, body: { firstname: "Linked" } }))
      .body.data.properties._id
    await server.request("POST", `/api/deals/${dealIds[4]}/attach-contacts`, {
      token: owner.token,
      body: { contact_ids: [contactId] }
    })
    await server.request("POST", "/api/deals", { token: other.token, body: { deal_name: "alpha of another account" } })
  })
  afterAll(async () => {
    await server?.close()
  })

  const list = (query: string, token = owner.token) => server.request("GET", `/api/deals${query}`, { token })
  const names = (reply: { body: { data: Array<{ properties: { deal_name: string } }> } }) =>
    reply.body.data.map((d) => d.properties.deal_name)

  it("writes the Laravel paginator body: 15 per page by default, links and meta.links", async () => {
    const reply = await list("")
    expect(reply.status).toBe(200)
    expect(reply.body.data).toHaveLength(15)
    expect(reply.body.data[0].properties._id).toBe(dealIds[22]) // newest first
    expect(reply.body.data[0].contacts).toEqual([])
    const base = `${server.url}/api/deals`
    expect(reply.body.links).toEqual({ first: `${base}?page=1`, last: `${base}?page=2`, prev: null, next: `${base}?page=2` })
    expect(reply.body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 2,
      links: [
        { url: null, label: "&laquo; Previous", active: false },
        { url: `${base}?page=1`, label: "1", active: true },
        { url: `${base}?page=2`, label: "2", active: false },
        { url: `${base}?page=2`, label: "Next &raquo;", active: false }
      ],
      path: base,
      per_page: 15,
      to: 15,
      total: 23
    })
  })

  it("carries the query into page links; an empty page past the end has null from/to", async () => {
    const reply = await list("?per_page=5&page=2&direction=asc")
    expect(reply.body.meta).toMatchObject({ current_page: 2, from: 6, to: 10, last_page: 5, total: 23, per_page: 5 })
    expect(reply.body.links.next).toBe(`${server.url}/api/deals?per_page=5&direction=asc&page=3`)
    expect(reply.body.meta.links.map((l: { label: string }) => l.label)).toEqual([
      "&laquo; Previous",
      "1",
      "2",
      "3",
      "4",
      "5",
      "Next &raquo;"
    ])
    const many = await list("?per_page=1&page=12")
    expect(many.body.meta.links.map((l: { label: string }) => l.label)).toContain("...")
    const past = await list("?page=9")
    expect(past.body.data).toEqual([])
    expect(past.body.meta).toMatchObject({ from: null, to: null, current_page: 9, total: 23 })
  })

  it("pages partition the list: no repeats, no gaps", async () => {
    const seen: Array<string> = []
    for (let page = 1; page <= 4; page++) {
      const reply = await list(`?per_page=7&page=${page}&order=deal_stage`)
      seen.push(...reply.body.data.map((d: { properties: { _id: string } }) => d.properties._id))
    }
    expect(seen).toHaveLength(23)
    expect(new Set(seen)).toEqual(new Set(dealIds))
  })

  it("bounds page and per_page with Laravel's messages", async () => {
    const reply = await list("?per_page=101&page=0")
    expect(reply.status).toBe(422)
    expect(reply.body.errors).toEqual({
      page: ["The page field must be at least 1."],
      per_page: ["The per page field must not be greater than 100."]
    })
    expect((await list("?per_page=100")).body.data).toHaveLength(23)
  })

  it("searches the name case-insensitively within the account", async () => {
    const reply = await list("?search=ALPHA")
    expect(names(reply).sort()).toEqual(["The ALPHA two", "alpha one"])
    expect(reply.body.meta.total).toBe(2)
  })

  it("orders by a custom property, values first in both directions, ties by _id", async () => {
    const asc = await list("?order=priority&direction=asc&per_page=100")
    const priorities = asc.body.data.map((d: { properties: { priority?: number } }) => d.properties.priority ?? null)
    expect(priorities.slice(0, 11)).toEqual([78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98])
    expect(priorities.slice(11).every((p: number | null) => p === null)).toBe(true)
    const desc = await list("?order=priority&direction=desc&per_page=100")
    const descPriorities = desc.body.data.map((d: { properties: { priority?: number } }) => d.properties.priority ?? null)
    expect(descPriorities.slice(0, 11)).toEqual([98, 96, 94, 92, 90, 88, 86, 84, 82, 80, 78])
    expect(descPriorities.slice(11).every((p: number | null) => p === null)).toBe(true)
  })

  it("refuses an unknown order or direction", async () => {
    const reply = await list("?order=colour&direction=sideways")
    expect(reply.status).toBe(422)
    expect(reply.body.errors).toEqual({
      order: ["The selected order is invalid."],
      direction: ["The selected direction is invalid."]
    })
  })

  it("filters with complex_filters as JSON, with an or group", async () => {
    const filters = [
      { property: "amount", operator: "between", value: [50, 150] },
      { or: [{ property: "deal_stage", operator: "eq", value: "closed_won" }, { property: "deal_name", operator: "contains", value: "alpha" }] }
    ]
    const reply = await list(`?per_page=100&complex_filters=${encodeURIComponent(JSON.stringify(filters))}`)
    expect(reply.status).toBe(200)
    const amounts = reply.body.data.map((d: { properties: { amount: number } }) => d.properties.amount).sort((a: number, b: number) => a - b)
    expect(amounts).toEqual([60, 80, 100, 120, 140])
  })

  it("filters with bracket notation, values coerced to the property's type", async () => {
    const reply = await list(
      "?per_page=100&complex_filters[0][property]=amount&complex_filters[0][operator]=gt&complex_filters[0][value]=200" +
        "&complex_filters[1][property]=priority&complex_filters[1][operator]=is_not_empty"
    )
    expect(reply.status).toBe(200)
    expect(reply.body.data.map((d: { properties: { amount: number } }) => d.properties.amount)).toEqual([220])
  })

  it("filters deals by their linked contacts (contact_ids in)", async () => {
    const filters = [{ property: "contact_ids", operator: "in", value: [contactId] }]
    const reply = await list(`?complex_filters=${encodeURIComponent(JSON.stringify(filters))}`)
    expect(reply.body.data.map((d: { properties: { _id: string } }) => d.properties._id)).toEqual([dealIds[4]])
    expect(reply.body.data[0].contacts).toEqual([
      { _id: contactId, account_id: owner.account_id, firstname: "Linked", lastname: null }
    ])
  })

  it("keys filter errors by their path", async () => {
    const filters = [
      { property: "amount", operator: "gt", value: 1 },
      { property: "amount", operator: "sounds_like", value: 1 },
      { or: [{ property: "nope", operator: "eq", value: 1 }] }
    ]
    const reply = await list(`?complex_filters=${encodeURIComponent(JSON.stringify(filters))}`)
    expect(reply.status).toBe(422)
    expect(Object.keys(reply.body.errors).sort()).toEqual(["complex_filters.1.operator", "complex_filters.2.or.0.property"])
    const bad = await list("?complex_filters=%5B%7B")
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors)).toEqual(["complex_filters"])
    const tooMany = Array.from({ length: 21 }, () => ({ property: "amount", operator: "gt", value: 1 }))
    expect((await list(`?complex_filters=${encodeURIComponent(JSON.stringify(tooMany))}`)).status).toBe(422)
  })

  it("lists only the account's records", async () => {
    const theirs = await list("?search=alpha", other.token)
    expect(names(theirs)).toEqual(["alpha of another account"])
    expect(theirs.body.meta.total).toBe(1)
  })

  it("lists every kind", async () => {
    for (const path of ["contacts", "companies", "tickets", "invoices", "products"]) {
      const reply = await server.request("GET", `/api/${path}?per_page=2`, { token: owner.token })
      expect(reply.status).toBe(200)
      expect(reply.body.meta.per_page).toBe(2)
    }
  })
})
