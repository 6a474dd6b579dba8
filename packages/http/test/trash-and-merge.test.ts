/**
 * Companies linked, the trash and merges over HTTP on the embedded database and PostgreSQL: the
 * link endpoints from either side and the company's derived ids and counts, the `company_ids`
 * filter, a delete moving the record to `GET /api/{kind}/trash`, its restore and purge, merges (a
 * contact's channels and messages moving over), and the spec's error bodies for bad input.
 */
import { ContactChannelRepository, MessageRepository } from "@wasl/core/Messaging"
import { DateTime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPlatform, hex24, inboundMessage } from "./support/messaging-fixtures.ts"
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

  it("a contact merge moves the duplicate's messages; a channel both had becomes one", async () => {
    const platformId = (await createPlatform(server, owner.token)).id
    /** A message the contact sent a minute ago on its channel entry for the sandbox number. */
    const received = async (contactId: string) => {
      const at = DateTime.makeUnsafe(Date.now() - 60_000)
      const channel = await server.run(ContactChannelRepository.use((repo) =>
        repo.ensure(
          { accountId: owner.account_id, contactId, platformThirdPartyId: "966110000000", contactThirdPartyId: "966500000077" },
          hex24(),
          at
        )
      ))
      const message = inboundMessage(
        { accountId: owner.account_id, platformId, contactId, at },
        { contact_channel_id: channel._id, sender_third_party_id: "966500000077" }
      )
      await server.run(MessageRepository.use((repo) => repo.insert(message)))
    }
    const kept = await create("contacts", { firstname: "Huda", whatsapp_number: "+966500000077" })
    const duplicate = await create("contacts", { firstname: "Huda (WhatsApp)", whatsapp_number: "+966500000077", email: "huda@example.test" })
    for (const contact of [kept, duplicate]) {
      await received(contact)
      const reply = await request("POST", `/api/contacts/${contact}/messages`, { text: `Hi ${contact}` })
      expect(reply.status).toBe(201)
    }
    const keptChannels = (await request("GET", `/api/contacts/${kept}`)).body.data.channels
    expect(keptChannels).toHaveLength(1)
    const merged = await request("POST", `/api/contacts/${kept}/merge`, { from: duplicate })
    expect(merged.status).toBe(200)
    expect(merged.body.data.properties).toMatchObject({ firstname: "Huda", email: "huda@example.test" })
    expect(merged.body.data.channels.map((c: { _id: string }) => c._id)).toEqual([keptChannels[0]._id])
    const messages = await request("GET", `/api/contacts/${kept}/messages?per_page=10`)
    expect(messages.body.meta.total).toBe(4)
    expect(messages.body.data.map((m: { contact_channel_id: string }) => m.contact_channel_id)).toEqual(
      Array(4).fill(keptChannels[0]._id)
    )
  })
})
