/**
 * A processed WhatsApp webhook body as the REST API shows it, on PGlite and PostgreSQL: the
 * sender's contact with its channel entry and its received times, which clients cannot write.
 */
import { DateTime } from "effect"
import { processWhatsAppWebhook } from "@wasl/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bootstrapOwnerAndOther, createPlatform } from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const SENDER = "966500000042"
const SECONDS = 1_795_000_000

const body = (phoneNumberId: string, wamid: string, timestamp: number) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{
      id: "102290129340398",
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "966110000000", phone_number_id: phoneNumberId },
          contacts: [{ profile: { name: "Layla" }, wa_id: SENDER }],
          messages: [{ from: SENDER, id: wamid, timestamp: String(timestamp), type: "text", text: { body: "Hi" } }]
        }
      }]
    }]
  })

const wire = (seconds: number) => new Date(seconds * 1000).toISOString().replace("Z", "000Z")

describe.each(DATABASES)("received WhatsApp messages over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }

  beforeAll(async () => {
    server = await startTestServer(database)
    ;({ owner, other } = await bootstrapOwnerAndOther(server, "inbound"))
    await createPlatform(server, owner.token)
  })
  afterAll(async () => {
    await server?.close()
  })

  it("shows the sender's contact with its channel entry and its received times, read-only", async () => {
    const receivedAt = DateTime.makeUnsafe((SECONDS + 3600) * 1000)
    const first = await server.run(processWhatsAppWebhook(body("966110000000", "wamid.http.1", SECONDS), receivedAt))
    expect(first).toEqual({ messages: 1, statuses: 0, unknownNumbers: 0, ignored: 0 })
    await server.run(processWhatsAppWebhook(body("966110000000", "wamid.http.2", SECONDS + 60), receivedAt))
    await server.run(processWhatsAppWebhook(body("966110000000", "wamid.http.1", SECONDS), receivedAt))

    const [row] = await server.query(
      "SELECT contact_id, contact_channel_id FROM messages WHERE account_id = $1 AND provider_message_id = $2",
      [owner.account_id, "wamid.http.1"]
    )
    const contact = await server.request("GET", `/api/contacts/${row.contact_id}`, { token: owner.token })
    expect(contact.status).toBe(200)
    expect(contact.body.data.properties).toMatchObject({
      firstname: "Layla",
      whatsapp_number: `+${SENDER}`,
      original_source: "whatsapp",
      original_source_drill_down_1: "incoming",
      first_received_message_at: wire(SECONDS),
      last_received_message_at: wire(SECONDS + 60),
      first_whatsapp_message_received_at: wire(SECONDS),
      last_whatsapp_message_received_at: wire(SECONDS + 60)
    })
    expect(contact.body.data.channels).toEqual([{
      _id: row.contact_channel_id,
      platform_third_party_id: "966110000000",
      contact_third_party_id: SENDER,
      created_at: { $date: { $numberLong: expect.stringMatching(/^\d+$/) } }
    }])
    const [{ n }] = await server.query("SELECT count(*)::int AS n FROM messages WHERE account_id = $1", [owner.account_id])
    expect(n).toBe(2)

    const update = await server.request("PUT", `/api/contacts/${row.contact_id}`, {
      token: owner.token,
      body: { last_received_message_at: "2030-01-01T00:00:00Z" }
    })
    expect(update.status).toBe(422)
    expect(Object.keys(update.body.errors)).toEqual(["last_received_message_at"])
    const create = await server.request("POST", "/api/contacts", {
      token: owner.token,
      body: { firstname: "X", first_whatsapp_message_received_at: "2030-01-01T00:00:00Z" }
    })
    expect(create.status).toBe(422)
    expect(Object.keys(create.body.errors)).toEqual(["first_whatsapp_message_received_at"])

    // Another account sees none of it.
    const foreign = await server.request("GET", `/api/contacts/${row.contact_id}`, { token: other.token })
    expect(foreign.status).toBe(404)
  })

  it("stores a message delivered twice at the same time once", async () => {
    const receivedAt = DateTime.makeUnsafe((SECONDS + 3600) * 1000)
    const twice = body("966110000000", "wamid.http.race", SECONDS + 120)
    const summaries = await Promise.all([1, 2, 3].map(() => server.run(processWhatsAppWebhook(twice, receivedAt))))
    expect(summaries.map((s) => s.messages)).toEqual([1, 1, 1])
    const rows = await server.query("SELECT id FROM messages WHERE account_id = $1 AND provider_message_id = $2", [
      owner.account_id,
      "wamid.http.race"
    ])
    expect(rows).toHaveLength(1)
  })

  it("drops a body for a number no account has", async () => {
    const summary = await server.run(
      processWhatsAppWebhook(body("123456789012345", "wamid.http.nobody", SECONDS), DateTime.makeUnsafe((SECONDS + 10) * 1000))
    )
    expect(summary).toEqual({ messages: 0, statuses: 0, unknownNumbers: 1, ignored: 0 })
    const rows = await server.query("SELECT 1 FROM messages WHERE provider_message_id = $1", ["wamid.http.nobody"])
    expect(rows).toEqual([])
  })
})
