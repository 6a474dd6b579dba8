/**
 * Meta's template review end to end, through the fake Meta on PGlite and PostgreSQL: a broadcast
 * created on a whatsapp_cloud number is submitted (PENDING, Meta's id as external_id) and not
 * sent (403); Meta's signed review callback arrives on the receiver, the worker's processing
 * approves it and notifies; its variables are filled on send (422 on the missing value's key);
 * a callback that never arrived is healed by `POST /api/broadcasts/sync`; Meta's refusal is a 422
 * storing nothing.
 */
import { type FakeCloudApi, startFakeCloudApi } from "@wasl/adapters/testing"
import { drainWhatsAppInbox, processWhatsAppWebhook } from "@wasl/core/WhatsApp"
import { Duration } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { countRows, createContact, createPlatform, createToken } from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const ACCESS_TOKEN = "EAAG-cloud-token-for-reviews"
const APP_SECRET = "meta-app-secret-for-reviews"
const WABA_ID = "102290129340398"

const template = (name: string) => ({
  name,
  category: "MARKETING",
  header: { format: "TEXT", text: "Offer {{1}}" },
  body: "Hello {{1}}, {{2}} is 20% off this week.",
  footer: "Reply STOP to opt out",
  examples: { body: ["Sara", "the blue kettle"], header: ["SPRING"] }
})

describe.each(DATABASES)("Meta's template review on %s", (database) => {
  let api: FakeCloudApi
  let server: TestServer
  let owner: { account_id: number; token: string }
  let platformId: number
  let contactId: string

  beforeAll(async () => {
    api = await startFakeCloudApi(ACCESS_TOKEN)
    server = await startTestServer(database, { graphUrl: api.url, whatsappWebhook: { appSecret: APP_SECRET, verifyToken: "verify" } })
    api.webhook = { url: `${server.url}/api/whatsapp/webhook`, appSecret: APP_SECRET }
    owner = await server.bootstrap({ email: "reviews@example.test", password: "pw" })
    platformId = (await createPlatform(server, owner.token, {
      name: "Cloud number",
      display_phone_number: "+1 555 000 1111",
      provider: "whatsapp_cloud",
      phone_id: "106540352242922",
      waba_id: WABA_ID,
      access_token: ACCESS_TOKEN
    })).id
    contactId = await createContact(server, owner.token, { firstname: "Sara", whatsapp_number: "+966500000001" })
  })
  afterAll(async () => {
    await server?.close()
    await api?.close()
  })

  /** The worker's processing of the stored callbacks. */
  const work = () => server.run(drainWhatsAppInbox({ batch: 32, concurrency: 4, lease: Duration.minutes(1) }, processWhatsAppWebhook))
  const create = (name: string) =>
    server.request("POST", "/api/broadcasts", { token: owner.token, body: { name: "Spring offer", language: "en_US", platform_id: platformId, template: template(name) } })
  const show = async (id: number) => (await server.request("GET", `/api/broadcasts/${id}`, { token: owner.token })).body.data

  it("submits a whatsapp_cloud broadcast, approves it by Meta's signed callback through the worker, and sends it with its variables filled", async () => {
    const created = await create("spring_offer")
    expect(created.status).toBe(201)
    const broadcast = created.body.data
    expect(broadcast).toMatchObject({ status: "PENDING", reason: null, provider: "whatsapp_cloud" })
    const externalId = broadcast.template.external_id as string
    expect(api.templates.get(externalId)).toMatchObject({ name: "spring_offer", language: "en_US", status: "PENDING", wabaId: WABA_ID })

    const early = await server.request("POST", `/api/broadcasts/${broadcast.id}/send`, {
      token: owner.token,
      body: { contact_id: contactId, parameters: { body: ["Sara", "the kettle"], header: ["SPRING"] } }
    })
    expect(early.status).toBe(403)
    expect(early.body).toEqual({ message: "The template is not approved." })

    expect(await api.reviewTemplate(externalId, "APPROVED")).toBe(200)
    expect((await work()).processed).toBe(1)
    expect(await show(broadcast.id)).toMatchObject({ status: "APPROVED", reason: null })
    const notifications = await server.request("GET", "/api/notifications", { token: owner.token })
    expect(notifications.body.data.map((n: { type: string }) => n.type)).toContain("WhatsappTemplateStatusChanged")

    const missing = await server.request("POST", `/api/broadcasts/${broadcast.id}/send`, {
      token: owner.token,
      body: { contact_id: contactId, parameters: { body: [{ property: "firstname" }], header: ["SPRING"] } }
    })
    expect(missing.status).toBe(422)
    expect(Object.keys(missing.body.errors)).toEqual(["parameters.body.1"])

    const sent = await server.request("POST", `/api/broadcasts/${broadcast.id}/send`, {
      token: owner.token,
      body: { contact_id: contactId, parameters: { body: [{ property: "firstname" }, "the blue kettle"], header: ["SPRING"] } }
    })
    expect(sent.status).toBe(200)
    const [row] = await server.query("SELECT body FROM messages WHERE account_id = $1 AND id = $2", [owner.account_id, sent.body.data._id])
    expect(row.body).toBe("Hello Sara, the blue kettle is 20% off this week.")
    expect(api.calls.at(-1)!.json.template.components).toEqual([
      { type: "header", parameters: [{ type: "text", text: "SPRING" }] },
      { type: "body", parameters: [{ type: "text", text: "Sara" }, { type: "text", text: "the blue kettle" }] }
    ])
  })

  it("heals a review callback that never arrived with POST /api/broadcasts/sync (broadcast-manage)", async () => {
    const broadcast = (await create("autumn_offer")).body.data
    await api.reviewTemplate(broadcast.template.external_id, "REJECTED", { reason: "PROMOTIONAL", silently: true })
    const reader = await createToken(server, owner.token, ["broadcast-index"])
    expect((await server.request("POST", "/api/broadcasts/sync", { token: reader })).status).toBe(403)
    const synced = await server.request("POST", "/api/broadcasts/sync", { token: owner.token })
    expect(synced.status).toBe(200)
    expect(synced.body.data.find((b: { id: number }) => b.id === broadcast.id)).toMatchObject({
      status: "REJECTED",
      reason: "PROMOTIONAL"
    })
    expect(await show(broadcast.id)).toMatchObject({ status: "REJECTED", reason: "PROMOTIONAL" })
  })

  it("answers Meta's refusal with a 422 on template and stores nothing", async () => {
    const before = await countRows(server, "broadcasts", owner.account_id)
    const twice = await create("spring_offer")
    expect(twice.status).toBe(422)
    expect(twice.body.errors.template[0]).toContain("already exists")
    expect(await countRows(server, "broadcasts", owner.account_id)).toBe(before)
    const gap = await server.request("POST", "/api/broadcasts", {
      token: owner.token,
      body: { name: "Gap", language: "en_US", platform_id: platformId, template: { name: "gap", category: "UTILITY", body: "Hi {{2}}" } }
    })
    expect(gap.status).toBe(422)
    expect(Object.keys(gap.body.errors)).toEqual(["template.body"])
  })
})
