/**
 * Companies linked, the trash and merges over HTTP on the embedded database and PostgreSQL: the
 * link endpoints from either side and the company's derived ids and counts, the `company_ids`
 * filter, a delete moving the record to `GET /api/{kind}/trash`, its restore and purge, a merge,
 * and the spec's error bodies for bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

describe.each(DATABASES)("companies, trash and merge over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "trash-owner@example.test", password: "pw-owner" })
  })
  afterAll(async () => {
    await server?.close()
  })

  const create = async (path: string, body: object) =>
    (await server.request("POST", `/api/${path}`, { token: owner.token, body })).body.data.properties._id as string
  const request = (method: "GET" | "POST" | "DELETE", path: string, body?: object) =>
    server.request(method, path, { token: owner.token, ...(body === undefined ? {} : { body }) })

  it("links a company to contacts, deals and tickets from either side; lists filter on company_ids", async () => {
    const company = await create("companies", { name: "Acme" })
    const contact = await create("contacts", { firstname: "Ana" })
    const deal = await create("deals", { deal_name: "Big" })
    const ticket = await create("tickets", { ticket_name: "Broken" })
    const attached = await request("POST", `/api/companies/${company}/attach-contacts`, { contact_ids: [contact] })
    expect(attached.status).toBe(200)
    expect(attached.body.message).toBe("Entity was modified Successfully")
    expect(attached.body.data.properties).toMatchObject({ _id: company, contact_ids: [contact], contacts_count: 1 })
    const fromDeal = await request("POST", `/api/deals/${deal}/attach-companies`, { company_ids: [company] })
    expect(fromDeal.body.data.properties.company_ids).toEqual([company])
    expect(fromDeal.body.data.contacts).toEqual([])
    await request("POST", `/api/tickets/${ticket}/attach-companies`, { company_ids: [company] })
    const shown = await request("GET", `/api/companies/${company}`)
    expect(shown.body.data.properties).toMatchObject({ deal_ids: [deal], ticket_ids: [ticket], deals_count: 1, tickets_count: 1 })
    const filter = encodeURIComponent(JSON.stringify([{ property: "company_ids", operator: "in", value: [company] }]))
    const listed = await request("GET", `/api/contacts?complex_filters=${filter}`)
    expect(listed.body.data.map((c: { properties: { _id: string } }) => c.properties._id)).toEqual([contact])
    const detached = await request("POST", `/api/contacts/${contact}/detach-company`, { company_id: company })
    expect(detached.body.data.properties.company_ids).toEqual([])
    const foreign = await request("POST", `/api/companies/${company}/attach-deals`, { deal_ids: ["0123456789abcdef01234567"] })
    expect(foreign.status).toBe(422)
    expect(foreign.body.errors).toEqual({ "deal_ids.0": ["The selected deal ids.0 is invalid."] })
  })

  it("a delete moves the record to the trash; restore brings it back; purge deletes it for good", async () => {
    const contact = await create("contacts", { firstname: "Zed" })
    const deleted = await request("DELETE", `/api/contacts/${contact}`)
    expect(deleted.status).toBe(200)
    expect((await request("GET", `/api/contacts/${contact}`)).status).toBe(404)
    const trash = await request("GET", "/api/contacts/trash?per_page=5")
    expect(trash.status).toBe(200)
    expect(trash.body.meta.total).toBe(1)
    expect(trash.body.data[0]).toMatchObject({ _id: contact, deleted_by: owner.user_id, merged_into: null })
    expect(trash.body.data[0].record.properties.firstname).toBe("Zed")
    const restored = await request("POST", `/api/contacts/${contact}/restore`)
    expect(restored.status).toBe(200)
    expect(restored.body.message).toBe("Entity was restored Successfully")
    expect(restored.body.data.properties._id).toBe(contact)
    expect((await request("GET", `/api/contacts/${contact}`)).status).toBe(200)
    expect((await request("POST", `/api/contacts/${contact}/restore`)).status).toBe(404)
    await request("DELETE", `/api/contacts/${contact}`)
    const purged = await request("DELETE", `/api/contacts/trash/${contact}`)
    expect(purged.body).toEqual({ message: "Entity was deleted Successfully", data: [] })
    expect((await request("POST", `/api/contacts/${contact}/restore`)).status).toBe(404)
    expect((await request("GET", "/api/contacts/trash")).body.meta.total).toBe(0)
  })

  it("merges a duplicate into the kept record; bad input is a 422 on from", async () => {
    const kept = await create("companies", { name: "Acme", city: null })
    const duplicate = await create("companies", { name: "ACME Inc", city: "Riyadh", domain: "acme.example" })
    const merged = await request("POST", `/api/companies/${kept}/merge`, { from: duplicate })
    expect(merged.status).toBe(200)
    expect(merged.body.data.properties).toMatchObject({ _id: kept, name: "Acme", city: "Riyadh", domain: "acme.example" })
    const trash = await request("GET", "/api/companies/trash")
    expect(trash.body.data[0]).toMatchObject({ _id: duplicate, merged_into: kept })
    const self = await request("POST", `/api/companies/${kept}/merge`, { from: kept })
    expect(self.status).toBe(422)
    expect(self.body.errors).toEqual({ from: ["The from field and _id must be different."] })
    const missing = await request("POST", `/api/companies/${kept}/merge`, {})
    expect(missing.status).toBe(422)
    expect(Object.keys(missing.body.errors)).toEqual(["from"])
  })
})
