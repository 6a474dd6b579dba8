/**
 * A processed WhatsApp webhook body as the REST API shows it, on PGlite and PostgreSQL: the
 * sender's contact with its channel entry and its received times, which clients cannot write.
 */
import { DateTime, Deferred, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { processWhatsAppWebhook } from "@wasl/core/WhatsApp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bootstrapOwnerAndOther, createPlatform } from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const SENDER = "966500000042"
const SECONDS = 1_795_000_000

const body = (phoneNumberId: string, wamid: string, timestamp: number, sender = SENDER) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{
      id: "102290129340398",
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "966110000000", phone_number_id: phoneNumberId },
          contacts: [{ profile: { name: "Layla" }, wa_id: sender }],
          messages: [{ from: sender, id: wamid, timestamp: String(timestamp), type: "text", text: { body: "Hi" } }]
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
    expect(first).toEqual({ messages: 1, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 0 })
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

  it("makes one contact of a new number whose first messages arrive at once, with every message and the latest times", async () => {
    const sender = "966500000077"
    const receivedAt = DateTime.makeUnsafe((SECONDS + 3600) * 1000)
    const times = [SECONDS + 5, SECONDS + 1, SECONDS + 4, SECONDS + 2, SECONDS + 3, SECONDS + 6]
    await Promise.all(times.map((t, i) =>
      server.run(processWhatsAppWebhook(body("966110000000", `wamid.http.burst.${i}`, t, sender), receivedAt))
    ))
    const messages = await server.query(
      "SELECT DISTINCT contact_id, contact_channel_id FROM messages WHERE account_id = $1 AND sender_third_party_id = $2",
      [owner.account_id, sender]
    )
    expect(messages).toHaveLength(1)
    const [{ n }] = await server.query(
      "SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND sender_third_party_id = $2",
      [owner.account_id, sender]
    )
    expect(n).toBe(times.length)
    const contact = await server.request("GET", `/api/contacts/${messages[0].contact_id}`, { token: owner.token })
    expect(contact.body.data.properties).toMatchObject({
      first_received_message_at: wire(SECONDS + 1),
      last_received_message_at: wire(SECONDS + 6)
    })
    expect(contact.body.data.channels).toHaveLength(1)
  })

  it.runIf(database === "postgres")(
    "takes in a message of a known contact while the account's contact matching is held elsewhere",
    async () => {
      // Only the making of a contact waits for the account's contact match lock; a message of a
      // contact the account has waits only for other messages of that contact.
      const known = "966500000078"
      const receivedAt = DateTime.makeUnsafe((SECONDS + 3600) * 1000)
      await server.run(processWhatsAppWebhook(body("966110000000", "wamid.http.known.1", SECONDS, known), receivedAt))
      const holding = Effect.runSync(Deferred.make<void>())
      const release = Effect.runSync(Deferred.make<void>())
      const held = server.run(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`wasl:match:${owner.account_id}:contact`}, 0))`
          yield* Deferred.succeed(holding, undefined)
          yield* Deferred.await(release)
        }))
      }))
      await Effect.runPromise(Deferred.await(holding))
      try {
        const summary = await server.run(
          processWhatsAppWebhook(body("966110000000", "wamid.http.known.2", SECONDS + 1, known), receivedAt).pipe(
            Effect.timeout("5 seconds")
          )
        )
        expect(summary.messages).toBe(1)
      } finally {
        await Effect.runPromise(Deferred.succeed(release, undefined))
        await held
      }
    },
    30_000
  )

  it("drops a body for a number no account has", async () => {
    const summary = await server.run(
      processWhatsAppWebhook(body("123456789012345", "wamid.http.nobody", SECONDS), DateTime.makeUnsafe((SECONDS + 10) * 1000))
    )
    expect(summary).toEqual({ messages: 0, statuses: 0, unknownNumbers: 1, templates: 0, unknownTemplates: 0, ignored: 0 })
    const rows = await server.query("SELECT 1 FROM messages WHERE provider_message_id = $1", ["wamid.http.nobody"])
    expect(rows).toEqual([])
  })
})
