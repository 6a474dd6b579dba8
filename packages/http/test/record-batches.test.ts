/**
 * Records batches over HTTP: all or nothing, the single calls' messages under `inputs.N`, at
 * most 100 inputs, one outbox event per record, upserts creating and updating in one call,
 * permissions, another account's ids, and Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

describe.each(DATABASES)("records batches over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; token: string }
  let other: { account_id: number; token: string }

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "batches-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "batches-other@example.test", password: "pw-other" })
  })
  afterAll(async () => {
    await server?.close()
  })

  const events = async (accountId: number) =>
    (await server.query("SELECT name, payload FROM outbox_events WHERE account_id = $1 ORDER BY seq", [accountId]))
      .map((row) => ({ name: row.name as string, payload: typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload }))
  const count = async (path: string) =>
    (await server.request("GET", `/api/${path}`, { token: owner.token })).body.meta.total as number
  const post = (path: string, body: unknown, token = owner.token, headers?: Record<string, string>) =>
    server.request("POST", path, { token, body, ...(headers === undefined ? {} : { headers }) })
  const contact = (n: number, tag = "c") => ({ properties: { firstname: `${tag}${n}`, email: `${tag}${n}@example.test` } })

  it("one bad input is a 422 on inputs.3.email with the single create's message: nothing stored, no event", async () => {
    const before = { events: (await events(owner.account_id)).length, records: await count("contacts") }
    const single = await post("/api/contacts", { firstname: "X", email: "not an email" })
    expect(single.status).toBe(422)
    const inputs = [contact(0, "bad"), contact(1, "bad"), contact(2, "bad"), { properties: { firstname: "X", email: "not an email" } }]
    const refused = await post("/api/contacts/batch/create", { inputs })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual({ "inputs.3.email": single.body.errors.email })
    expect(refused.body.message).toBe(single.body.errors.email[0])
    expect(await count("contacts")).toBe(before.records)
    expect((await events(owner.account_id)).length).toBe(before.events)
  })

  it("creates 100 contacts at once with one contact-created event each; 101 is a 422 on inputs", async () => {
    const many = (n: number) => ({ inputs: Array.from({ length: n }, (_, i) => contact(i, "many")) })
    const refused = await post("/api/contacts/batch/create", many(101))
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual({ inputs: ["The inputs field must not have more than 100 items."] })

    const before = (await events(owner.account_id)).length
    const created = await post("/api/contacts/batch/create", many(100))
    expect(created.status).toBe(201)
    expect(created.body.message).toBe("Entity was created Successfully")
    expect(created.body.data).toHaveLength(100)
    expect(created.body.data[99].properties.email).toBe("many99@example.test")
    const fired = (await events(owner.account_id)).slice(before)
    expect(fired.map((e) => e.name)).toEqual(Array(100).fill("contact-created"))
    expect(fired.map((e) => e.payload)).toEqual(created.body.data)
  })

  it("concurrent upserts of one new id_property value make one record: the first creates it, the rest update it", async () => {
    // Three races of 10 requests each, so that one without the lock would interleave at least once.
    for (const round of [1, 2, 3]) {
      const email = `racing${round}@example.test`
      const upsert = (n: number) =>
        post("/api/contacts/batch/upsert", { id_property: "email", inputs: [{ id: email, properties: { lastname: `Racer ${n}` } }] })
      const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => upsert(n)))
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
      expect(new Set(answers.map((a) => a.body.data[0].properties._id)).size).toBe(1)
      const fired = (await events(owner.account_id)).filter((e) => e.payload.properties?.email === email)
      expect(fired.map((e) => e.name)).toEqual(["contact-created", ...Array(9).fill("contact-updated")])
    }
  })

  it("updates, upserts and deletes, one event per record; the delete answers the ids", async () => {
    const [a, b] = (await post("/api/deals/batch/create", { inputs: [{ properties: { deal_name: "A" } }, { properties: { deal_name: "B" } }] }))
      .body.data.map((d: { properties: { _id: string } }) => d.properties._id)
    const before = (await events(owner.account_id)).length
    const updated = await post("/api/deals/batch/update", { inputs: [{ id: a, properties: { amount: 5 } }, { id: b, properties: { amount: 7 } }] })
    expect(updated.status).toBe(200)
    expect(updated.body.data.map((d: { properties: { amount: number } }) => d.properties.amount)).toEqual([5, 7])

    await post("/api/contacts", { firstname: "Known", email: "known@example.test" })
    const upserted = await post("/api/contacts/batch/upsert", {
      id_property: "email",
      inputs: [{ id: "known@example.test", properties: { lastname: "Again" } }, { id: "fresh@example.test", properties: { firstname: "Fresh" } }]
    })
    expect(upserted.status).toBe(200)
    expect(upserted.body.data.map((c: { properties: Record<string, unknown> }) => [c.properties.firstname, c.properties.email]))
      .toEqual([["Known", "known@example.test"], ["Fresh", "fresh@example.test"]])

    const deleted = await post("/api/deals/batch/delete", { inputs: [{ id: a }, { id: b }] })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ data: [a, b], message: "Entity was deleted Successfully" })
    expect((await server.request("GET", `/api/deals/${a}`, { token: owner.token })).status).toBe(404)
    expect((await events(owner.account_id)).slice(before).map((e) => e.name)).toEqual([
      "deal-updated",
      "deal-updated",
      "contact-created",
      "contact-updated",
      "contact-created",
      "deal-deleted",
      "deal-deleted"
    ])
  })

  it("another account's id is a 422 on inputs.N.id, and its record is left alone", async () => {
    const theirs = (await post("/api/deals", { deal_name: "Theirs" }, other.token)).body.data.properties._id
    const mine = (await post("/api/deals", { deal_name: "Mine" })).body.data.properties._id
    const update = await post("/api/deals/batch/update", { inputs: [{ id: mine, properties: { amount: 1 } }, { id: theirs, properties: { amount: 1 } }] })
    expect(update.status).toBe(422)
    expect(update.body.errors).toEqual({ "inputs.1.id": ["The selected inputs.1.id is invalid."] })
    const remove = await post("/api/deals/batch/delete", { inputs: [{ id: theirs }] })
    expect(remove.status).toBe(422)
    expect((await server.request("GET", `/api/deals/${theirs}`, { token: other.token })).body.data.properties.amount).toBeNull()
    expect((await server.request("GET", `/api/deals/${mine}`, { token: owner.token })).body.data.properties.amount).toBeNull()
  })

  it("needs the single calls' abilities: a token without them is a 403", async () => {
    const limited = (await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "limited", abilities: ["contact-create"] } }))
      .body.token as string
    expect((await post("/api/contacts/batch/create", { inputs: [contact(1, "limited")] }, limited)).status).toBe(201)
    for (const operation of ["update", "delete", "upsert"]) {
      const refused = await post(`/api/contacts/batch/${operation}`, { id_property: "email", inputs: [{ id: "x", properties: {} }] }, limited)
      expect(refused.status).toBe(403)
    }
    expect((await post("/api/deals/batch/create", { inputs: [{ properties: { deal_name: "x" } }] }, limited)).status).toBe(403)
  })

  it("an Idempotency-Key replays the batch's answer without a second write", async () => {
    const body = { inputs: [contact(1, "idem"), contact(2, "idem")] }
    const headers = { "idempotency-key": "batch-create-1" }
    const first = await post("/api/contacts/batch/create", body, owner.token, headers)
    const again = await post("/api/contacts/batch/create", body, owner.token, headers)
    expect(first.status).toBe(201)
    expect(again.status).toBe(201)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    const stored = await server.query(
      "SELECT count(*) AS n FROM outbox_events WHERE account_id = $1 AND name = 'contact-created' AND payload::text LIKE '%idem%'",
      [owner.account_id]
    )
    expect(Number(stored[0].n)).toBe(2)
  })
})
