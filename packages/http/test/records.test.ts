/**
 * Records of the six kinds over HTTP: CRUD, REST shapes, validation, permissions, account
 * isolation and the outbox events each write queues (`<kind>-created` and the others, with the
 * record under its object key).
 */
import { BUILTIN_GROUPS, KIND_OF_PATH } from "@wasl/core/Records"
import { Schema } from "effect"
import { DataAnswer, DataMessageAnswer } from "../src/endpoint-types.ts"
import { RecordView } from "../src/records-api.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const RECORD_ID = /^[0-9a-f]{24}$/

/** A valid create body and its name property for each path. */
const KINDS = [
  { path: "contacts", kind: "contact", body: { firstname: "Amal", lastname: "Haddad", email: "amal@example.test" } },
  { path: "companies", kind: "company", body: { name: "Acme", domain: "acme.test", annual_revenue: 10 } },
  { path: "deals", kind: "deal", body: { deal_name: "Big deal", amount: 1200.5, deal_stage: "closed_lost" } },
  { path: "tickets", kind: "ticket", body: { ticket_name: "Broken", category: "general_inquiry", source: "source_manual" } },
  { path: "invoices", kind: "invoice", body: { invoice_number: "INV-1", amount: 99, status: "draft" } },
  { path: "products", kind: "product", body: { name: "Widget", price: 5, sku: "W-1" } }
] as const

const BUILTIN_GROUP_IDS = Object.fromEntries(KINDS.map(({ path }) => [path, BUILTIN_GROUPS[KIND_OF_PATH[path]]._id]))

describe.each(DATABASES)("records over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "records-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "records-other@example.test", password: "pw-other" })
  })
  afterAll(async () => {
    await server?.close()
  })

  /** The events queued for the account since `afterSeq`, oldest first. */
  const eventsSince = async (accountId: number, afterSeq: number) =>
    (await server.query(
      "SELECT seq, name, payload FROM outbox_events WHERE account_id = $1 AND seq > $2 ORDER BY seq",
      [accountId, afterSeq]
    )).map((row) => ({ name: row.name as string, payload: typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload }))
  const lastSeq = async () => Number((await server.query("SELECT coalesce(max(seq), 0) AS seq FROM outbox_events"))[0].seq)

  const tokenWith = async (abilities: ReadonlyArray<string>) =>
    (await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "limited", abilities } })).body
      .token as string

  it.each(KINDS)("$path: create, read and update answer the bytes of the endpoints' schemas (the union of the kinds)", async ({ path, body }) => {
    // A custom property too, so that custom values follow the fixed keys as the schema orders them.
    const property = await server.request("POST", `/api/${path}/properties`, {
      token: owner.token,
      body: { name: { en: "Bytes note" }, internal_name: "bytes_note", type: "string", group_id: BUILTIN_GROUP_IDS[path] }
    })
    expect(property.status).toBe(201)
    const encodedBy = (schema: Schema.Codec<unknown, unknown>, text: string) =>
      JSON.stringify(Schema.encodeUnknownSync(schema)(Schema.decodeUnknownSync(schema)(JSON.parse(text))))
    const created = await server.request("POST", `/api/${path}`, { token: owner.token, body: { bytes_note: "n", ...body } })
    expect(created.status).toBe(201)
    expect(created.text).toBe(encodedBy(DataMessageAnswer(RecordView), created.text))
    const id = created.body.data.properties._id
    const shown = await server.request("GET", `/api/${path}/${id}`, { token: owner.token })
    expect(shown.text).toBe(encodedBy(DataAnswer(RecordView), shown.text))
    const updated = await server.request("PUT", `/api/${path}/${id}`, { token: owner.token, body: { bytes_note: "m" } })
    expect(updated.status).toBe(200)
    expect(updated.text).toBe(encodedBy(DataMessageAnswer(RecordView), updated.text))
  })

  it.each(KINDS)("$path: create, read, update, delete with their events", async ({ path, kind, body }) => {
    const before = await lastSeq()
    const created = await server.request("POST", `/api/${path}`, { token: owner.token, body })
    expect(created.status).toBe(201)
    expect(created.body.message).toBe("Entity was created Successfully")
    const record = created.body.data
    expect(record.properties._id).toMatch(RECORD_ID)
    expect(record.properties.account_id).toBe(owner.account_id)
    expect(record.properties.created_at).toMatch(WIRE_TIME)
    expect(record.properties.updated_at).toMatch(WIRE_TIME)
    for (const [key, value] of Object.entries(body)) expect(record.properties[key]).toEqual(value)
    const shapeKeys = kind === "deal" ? ["properties", "contacts"] : kind === "contact" ? ["properties", "channels"] : ["properties"]
    expect(Object.keys(record)).toEqual(shapeKeys)
    const id = record.properties._id

    const shown = await server.request("GET", `/api/${path}/${id}`, { token: owner.token })
    expect(shown.status).toBe(200)
    expect(shown.body).toEqual({ data: record })

    const updated = await server.request("PUT", `/api/${path}/${id}`, { token: owner.token, body: {} })
    expect(updated.status).toBe(200)
    expect(updated.body.message).toBe("Entity was modified Successfully")

    const deleted = await server.request("DELETE", `/api/${path}/${id}`, { token: owner.token })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ message: "Entity was deleted Successfully", data: [] })
    expect((await server.request("GET", `/api/${path}/${id}`, { token: owner.token })).status).toBe(404)

    const events = await eventsSince(owner.account_id, before)
    expect(events.map((e) => e.name)).toEqual([`${kind}-created`, `${kind}-updated`, `${kind}-deleted`])
    expect(events[0]!.payload).toEqual(record)
    expect(events[1]!.payload).toEqual(updated.body.data)
    expect(events[2]!.payload).toEqual(updated.body.data)
  })

  it("shapes a deal: $date close_date, forcast_amount beside forecast_amount, custom values by internal_name", async () => {
    const property = await server.request("POST", "/api/deals/properties", {
      token: owner.token,
      body: { type: "number", name: { en: "Score" }, internal_name: "score", group_id: BUILTIN_GROUPS.deal._id }
    })
    expect(property.status).toBe(201)
    const created = await server.request("POST", "/api/deals", {
      token: owner.token,
      body: { deal_name: "Dated", close_date: "2026-12-01T10:00:00Z", forcast_amount: 7, score: 3 }
    })
    expect(created.status).toBe(201)
    const p = created.body.data.properties
    expect(p.close_date).toEqual({ $date: { $numberLong: String(Date.UTC(2026, 11, 1, 10)) } })
    expect(p.forecast_amount).toBe(7)
    expect(p.forcast_amount).toBe(7)
    expect(p.score).toBe(3)
    expect(created.body.data.contacts).toEqual([])

    // PUT is partial; null clears a custom value (then it is omitted).
    const updated = await server.request("PUT", `/api/deals/${p._id}`, {
      token: owner.token,
      body: { amount: 10, score: null, close_date: { $date: { $numberLong: "1767225600000" } } }
    })
    expect(updated.status).toBe(200)
    expect(updated.body.data.properties).toMatchObject({ deal_name: "Dated", amount: 10 })
    expect(updated.body.data.properties.close_date).toEqual({ $date: { $numberLong: "1767225600000" } })
    expect(Object.hasOwn(updated.body.data.properties, "score")).toBe(false)
  })

  it("a property's type change converts its values (or is refused); deleting it removes them", async () => {
    const property = (await server.request("POST", "/api/products/properties", {
      token: owner.token,
      body: { type: "string", name: { en: "Weight" }, internal_name: "weight", group_id: BUILTIN_GROUPS.product._id }
    })).body.data
    const heavy = (await server.request("POST", "/api/products", { token: owner.token, body: { name: "H", weight: "12" } }))
      .body.data.properties._id
    await server.request("POST", "/api/products", { token: owner.token, body: { name: "L", weight: "3" } })
    const change = (type: string) =>
      server.request("PUT", `/api/products/properties/${property._id}`, {
        token: owner.token,
        body: { type, name: { en: "Weight" }, group_id: BUILTIN_GROUPS.product._id }
      })
    expect((await change("boolean")).status).toBe(422)
    expect((await change("number")).status).toBe(200)
    const filters = encodeURIComponent(JSON.stringify([{ property: "weight", operator: "gt", value: 10 }]))
    const heavyOnes = await server.request("GET", `/api/products?complex_filters=${filters}`, { token: owner.token })
    expect(heavyOnes.body.data.map((p: { properties: { _id: string; weight: number } }) => p.properties))
      .toMatchObject([{ _id: heavy, weight: 12 }])

    expect((await server.request("DELETE", `/api/products/properties/${property._id}`, { token: owner.token })).status)
      .toBe(200)
    const after = await server.request("GET", `/api/products/${heavy}`, { token: owner.token })
    expect(Object.hasOwn(after.body.data.properties, "weight")).toBe(false)
  })

  it("derives a contact's fullname, and refuses read-only and unknown names with 422 on their key", async () => {
    const created = await server.request("POST", "/api/contacts", {
      token: owner.token,
      body: { firstname: "Sara", middlename: "N.", lastname: "Ali" }
    })
    expect(created.body.data.properties.fullname).toBe("Sara N. Ali")
    expect(created.body.data.properties.deal_ids).toEqual([])
    expect(created.body.data.channels).toEqual([])

    const readOnly = await server.request("POST", "/api/contacts", { token: owner.token, body: { fullname: "X" } })
    expect(readOnly.status).toBe(422)
    expect(Object.keys(readOnly.body.errors)).toEqual(["fullname"])
    expect(readOnly.body.message).toBe(readOnly.body.errors.fullname[0])

    // Contact-style names in a deal's body are unknown deal properties: a 422 like any other.
    const deal = await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "D" } })
    const contactStyle = await server.request("PUT", `/api/deals/${deal.body.data.properties._id}`, {
      token: owner.token,
      body: { firstname: "A", amount: "many" }
    })
    expect(contactStyle.status).toBe(422)
    expect(Object.keys(contactStyle.body.errors).sort()).toEqual(["amount", "firstname"])
  })

  it("validation failures leave no record and no event", async () => {
    const before = await lastSeq()
    const countBefore = (await server.query("SELECT count(*)::int AS n FROM deals WHERE account_id = $1", [owner.account_id]))[0].n
    const missing = await server.request("POST", "/api/deals", { token: owner.token, body: { amount: 3 } })
    expect(missing.status).toBe(422)
    expect(missing.body).toEqual({
      message: "The deal name field is required.",
      errors: { deal_name: ["The deal name field is required."] }
    })
    const badStage = await server.request("POST", "/api/deals", {
      token: owner.token,
      body: { deal_name: "D", deal_stage: "won_somehow" }
    })
    expect(badStage.status).toBe(422)
    expect(Object.keys(badStage.body.errors)).toEqual(["deal_stage"])
    const countAfter = (await server.query("SELECT count(*)::int AS n FROM deals WHERE account_id = $1", [owner.account_id]))[0].n
    expect(countAfter).toBe(countBefore)
    expect(await eventsSince(owner.account_id, before)).toEqual([])
  })

  it("malformed input: bad JSON 400, a non-object body 422, unknown kinds and malformed ids 404", async () => {
    const malformed = await server.request("POST", "/api/deals", { token: owner.token, raw: "{\"deal_name\":" })
    expect(malformed.status).toBe(400)
    expect(malformed.body).toEqual({ message: "Malformed JSON body." })
    const array = await server.request("POST", "/api/deals", { token: owner.token, raw: "[1,2]" })
    expect(array.status).toBe(422)
    expect((await server.request("GET", "/api/widgets", { token: owner.token })).status).toBe(404)
    expect((await server.request("GET", "/api/deals/not-an-id", { token: owner.token })).body).toEqual({
      message: "Not found."
    })
    expect((await server.request("PATCH", "/api/deals", { token: owner.token })).status).toBe(405)
    // `:kind` is one of six paths: other first segments are no route (404), or a known path with the wrong method (405).
    expect((await server.request("DELETE", "/api/widgets", { token: owner.token })).status).toBe(404)
    const wrongMethod = await server.request("POST", "/api/me", { token: owner.token, body: {} })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get("allow")).toBe("GET, PUT, HEAD")
  })

  it("permissions: <kind>-index|show|create|update|delete each guard their action", async () => {
    const deal = (await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "P" } })).body.data
    const id = deal.properties._id
    const onlyIndex = await tokenWith(["deal-index"])
    expect((await server.request("GET", "/api/deals", { token: onlyIndex })).status).toBe(200)
    expect((await server.request("GET", `/api/deals/${id}`, { token: onlyIndex })).status).toBe(403)
    expect((await server.request("POST", "/api/deals", { token: onlyIndex, body: { deal_name: "x" } })).status).toBe(403)
    expect((await server.request("PUT", `/api/deals/${id}`, { token: onlyIndex, body: {} })).status).toBe(403)
    const denied = await server.request("DELETE", `/api/deals/${id}`, { token: onlyIndex })
    expect(denied.status).toBe(403)
    expect(typeof denied.body.message).toBe("string")
    expect((await server.request("GET", "/api/contacts", { token: onlyIndex })).status).toBe(403)
    const showOnly = await tokenWith(["deal-show"])
    expect((await server.request("GET", `/api/deals/${id}`, { token: showOnly })).status).toBe(200)
    expect((await server.request("GET", "/api/deals")).status).toBe(401)
  })

  it("another account's records answer 404 for every action, and are left alone", async () => {
    const theirs = (await server.request("POST", "/api/deals", { token: other.token, body: { deal_name: "Theirs" } })).body
      .data.properties._id
    for (
      const [method, body] of [["GET", undefined], ["PUT", { deal_name: "Mine now" }], ["DELETE", undefined]] as const
    ) {
      const reply = await server.request(method, `/api/deals/${theirs}`, { token: owner.token, body })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({ message: "Not found." })
    }
    const still = await server.request("GET", `/api/deals/${theirs}`, { token: other.token })
    expect(still.body.data.properties.deal_name).toBe("Theirs")
  })

  it("an update of a record the account does not have is a 404 whatever its body; of one it has, a refused body is a 422", async () => {
    const theirs = (await server.request("POST", "/api/deals", { token: other.token, body: { deal_name: "Theirs" } })).body
      .data.properties._id
    const mine = (await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "Mine" } })).body
      .data.properties._id
    const refused = { amount: "not a number" }
    for (const id of [theirs, "0123456789abcdef01234567", "not-an-id"]) {
      const reply = await server.request("PUT", `/api/deals/${id}`, { token: owner.token, body: refused })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({ message: "Not found." })
    }
    const invalid = await server.request("PUT", `/api/deals/${mine}`, { token: owner.token, body: refused })
    expect(invalid.status).toBe(422)
    expect(Object.keys(invalid.body.errors)).toEqual(["amount"])
    const still = await server.request("GET", `/api/deals/${mine}`, { token: owner.token })
    expect(still.body.data.properties.amount).toBe(null)
  })

  it("session requests that change state need X-Requested-With", async () => {
    const login = await server.request("POST", "/api/auth/login", {
      body: { email: "records-owner@example.test", password: "pw-owner" }
    })
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!
    const refused = await server.request("POST", "/api/deals", { cookie, body: { deal_name: "S" } })
    expect(refused.status).toBe(403)
    const allowed = await server.request("POST", "/api/deals", {
      cookie,
      body: { deal_name: "S" },
      headers: { "x-requested-with": "XMLHttpRequest" }
    })
    expect(allowed.status).toBe(201)
  })
})
