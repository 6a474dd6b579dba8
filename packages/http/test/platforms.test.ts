/**
 * One sending number over HTTP, on PGlite and PostgreSQL: read, changed (the access token
 * write-only and sealed), refreshed from Meta and removed, with permissions and tenancy; a
 * whatsapp_cloud number's health from the fake Cloud API's `GET /{phone_id}` on create, on a new
 * token and on refresh; the sandbox's health null; and Meta's `phone_number_quality_update`
 * callback through the receiver, the inbox and the worker's processing, to the number's tier.
 */
import { Duration } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { drainWhatsAppInbox, processWhatsAppWebhook } from "@wasl/core/WhatsApp"
import { type FakeCloudApi, metaJson, metaWebhook, signMeta, startFakeCloudApi } from "@wasl/adapters/testing"
import {
  bootstrapOwnerAndOther,
  countRows,
  createBroadcast,
  createContact,
  createPlatform,
  createToken,
  utilityTemplate
} from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const TOKEN = "EAAG-fake-cloud-token"
const APP_SECRET = "meta-app-secret-for-platform-tests"
const WABA = "102290129340398"
const NOT_FOUND = { message: "Not found." }
const HEALTH = {
  display_phone_number: "+1 555-078-3881",
  verified_name: "Wasl Support",
  code_verification_status: "VERIFIED",
  quality_rating: "GREEN",
  messaging_limit_tier: "TIER_1K"
}

describe.each(DATABASES)("one sending number over HTTP on %s", (database) => {
  let server: TestServer
  let api: FakeCloudApi
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let phoneSeq = 1_000

  beforeAll(async () => {
    api = await startFakeCloudApi(TOKEN)
    server = await startTestServer(database, {
      graphUrl: api.url,
      whatsappWebhook: { appSecret: APP_SECRET, verifyToken: "verify" }
    })
    ;({ owner, other } = await bootstrapOwnerAndOther(server, "platforms"))
  })
  afterAll(async () => {
    await server?.close()
    await api?.close()
  })

  /** A whatsapp_cloud number the fake Cloud API describes with `health`. */
  const cloudNumber = async (health: Partial<typeof HEALTH> = {}) => {
    const phoneId = String(++phoneSeq) + "0000000000"
    api.numbers.set(phoneId, { ...HEALTH, ...health })
    return createPlatform(server, owner.token, {
      name: "Cloud line",
      display_phone_number: "+1 555 078 3881",
      provider: "whatsapp_cloud",
      phone_id: phoneId,
      waba_id: WABA,
      access_token: TOKEN
    }) as Promise<{ id: number; phone_id: string } & Record<string, unknown>>
  }

  it("shows a sandbox number's health as null: no Meta number stands behind it", async () => {
    const platform = await createPlatform(server, owner.token)
    const reply = await server.request("GET", `/api/platforms/${platform.id}`, { token: owner.token })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({
      id: platform.id,
      provider: "sandbox",
      verified_name: null,
      code_verification_status: null,
      quality_rating: null,
      messaging_limit_tier: null
    })
    const refreshed = await server.request("POST", `/api/platforms/${platform.id}/refresh`, { token: owner.token })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.data.quality_rating).toBeNull()
  })

  it("reads a whatsapp_cloud number's health from Meta's GET /{phone_id} on create, and again on refresh", async () => {
    const platform = await cloudNumber()
    expect(platform).toMatchObject({
      verified_name: "Wasl Support",
      code_verification_status: "VERIFIED",
      quality_rating: "GREEN",
      messaging_limit_tier: "TIER_1K"
    })
    const asked = api.calls.find((c) => c.path.startsWith(`/v21.0/${platform.phone_id}?`))!
    expect(asked.path).toBe(
      `/v21.0/${platform.phone_id}?fields=verified_name,code_verification_status,quality_rating,messaging_limit_tier`
    )
    expect(asked.authorization).toBe(`Bearer ${TOKEN}`)
    api.numbers.set(platform.phone_id, { ...HEALTH, quality_rating: "YELLOW", messaging_limit_tier: "TIER_10K" })
    const refreshed = await server.request("POST", `/api/platforms/${platform.id}/refresh`, { token: owner.token })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.data).toMatchObject({ quality_rating: "YELLOW", messaging_limit_tier: "TIER_10K" })
    expect((await server.request("GET", `/api/platforms/${platform.id}`, { token: owner.token })).body.data.quality_rating)
      .toBe("YELLOW")
  })

  it("creates a number Meta cannot describe with its health null; a refresh then says why (422 on access_token)", async () => {
    const reply = await server.request("POST", "/api/platforms", {
      token: owner.token,
      body: {
        name: "Wrong token",
        display_phone_number: "+1 555 078 3882",
        provider: "whatsapp_cloud",
        phone_id: "5550001112",
        access_token: "EAAG-wrong"
      }
    })
    expect(reply.status).toBe(201)
    expect(reply.body.data.quality_rating).toBeNull()
    const refreshed = await server.request("POST", `/api/platforms/${reply.body.data.id}/refresh`, { token: owner.token })
    expect(refreshed.status).toBe(503)
    // A number Meta does not know (the right token): refused for good.
    const unknown = await server.request("POST", "/api/platforms", {
      token: owner.token,
      body: { name: "Unknown", display_phone_number: "+1 555 078 3883", provider: "whatsapp_cloud", phone_id: "5550001113", access_token: TOKEN }
    })
    const refused = await server.request("POST", `/api/platforms/${unknown.body.data.id}/refresh`, { token: owner.token })
    expect(refused.status).toBe(422)
    expect(Object.keys(refused.body.errors)).toEqual(["access_token"])
  })

  it("changes the name and the access token; the token is sealed at rest and never answered back", async () => {
    const platform = await cloudNumber()
    const newToken = "EAAG-rotated-token-456"
    const renamed = await server.request("PUT", `/api/platforms/${platform.id}`, {
      token: owner.token,
      body: { name: "Support (KSA)", access_token: newToken }
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body.message).toBe("Entity was modified Successfully")
    expect(renamed.body.data).toMatchObject({ id: platform.id, name: "Support (KSA)", phone_id: platform.phone_id })
    expect(renamed.text).not.toContain(newToken)
    expect(renamed.body.data.access_token).toBeUndefined()
    const [row] = await server.query("SELECT sealed_access_token FROM platforms WHERE account_id = $1 AND id = $2", [
      owner.account_id,
      platform.id
    ])
    expect(row.sealed_access_token).toMatch(/^v1\./)
    expect(row.sealed_access_token).not.toContain(newToken)
    // The new token went to Meta (the fake refuses it), so the health stays what it was.
    expect(api.calls.at(-1)!.authorization).toBe(`Bearer ${newToken}`)
    expect(renamed.body.data.quality_rating).toBe("GREEN")
    expect((await server.request("GET", `/api/platforms/${platform.id}`, { token: owner.token })).text).not.toContain(newToken)

    const invalid = await server.request("PUT", `/api/platforms/${platform.id}`, { token: owner.token, body: { name: "", access_token: 5 } })
    expect(invalid.status).toBe(422)
    expect(invalid.body.errors).toEqual({
      name: ["The name field is required."],
      access_token: ["The access_token field must be a string."]
    })
  })

  it("removes a number with its broadcasts; the messages sent on it stay", async () => {
    const platform = await createPlatform(server, owner.token)
    const broadcast = await createBroadcast(server, owner.token, platform.id, utilityTemplate())
    const contactId = await createContact(server, owner.token, { firstname: "Nora", whatsapp_number: "+966500000077" })
    const sent = await server.request("POST", `/api/broadcasts/${broadcast.id}/send`, { token: owner.token, body: { contact_id: contactId } })
    expect(sent.status).toBe(200)
    const messages = await countRows(server, "messages", owner.account_id)
    const removed = await server.request("DELETE", `/api/platforms/${platform.id}`, { token: owner.token })
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ message: "Entity was deleted Successfully", data: [] })
    expect((await server.request("GET", `/api/platforms/${platform.id}`, { token: owner.token })).status).toBe(404)
    expect((await server.request("GET", `/api/broadcasts/${broadcast.id}`, { token: owner.token })).status).toBe(404)
    expect(await countRows(server, "messages", owner.account_id)).toBe(messages)
    const listed = await server.request("GET", `/api/contacts/${contactId}/messages`, { token: owner.token })
    expect(listed.body.data[0]).toMatchObject({ body: "Your order has shipped.", broadcast_id: null })
    expect((await server.request("DELETE", `/api/platforms/${platform.id}`, { token: owner.token })).status).toBe(404)
  })

  it("answers 404 for another account's number on every route, and changes nothing", async () => {
    const platform = await createPlatform(server, owner.token)
    for (const [method, path, body] of [
      ["GET", `/api/platforms/${platform.id}`, undefined],
      ["PUT", `/api/platforms/${platform.id}`, { name: "Stolen" }],
      ["POST", `/api/platforms/${platform.id}/refresh`, undefined],
      ["DELETE", `/api/platforms/${platform.id}`, undefined]
    ] as const) {
      const reply = await server.request(method, path, { token: other.token, ...(body === undefined ? {} : { body }) })
      expect([method, reply.status, reply.body]).toEqual([method, 404, NOT_FOUND])
    }
    expect((await server.request("GET", `/api/platforms/${platform.id}`, { token: owner.token })).body.data.name).toBe("Main number")
    expect((await server.request("GET", "/api/platforms/abc", { token: owner.token })).status).toBe(404)
  })

  it("needs broadcast-index to read and broadcast-manage to change, refresh and remove", async () => {
    const platform = await createPlatform(server, owner.token)
    const reader = await createToken(server, owner.token, ["broadcast-index"])
    expect((await server.request("GET", `/api/platforms/${platform.id}`, { token: reader })).status).toBe(200)
    expect((await server.request("PUT", `/api/platforms/${platform.id}`, { token: reader, body: { name: "x" } })).status).toBe(403)
    expect((await server.request("POST", `/api/platforms/${platform.id}/refresh`, { token: reader })).status).toBe(403)
    expect((await server.request("DELETE", `/api/platforms/${platform.id}`, { token: reader })).status).toBe(403)
    const none = await createToken(server, owner.token, ["deal-index"])
    expect((await server.request("GET", `/api/platforms/${platform.id}`, { token: none })).status).toBe(403)
    expect((await server.request("GET", `/api/platforms/${platform.id}`)).status).toBe(401)
    const manager = await createToken(server, owner.token, ["broadcast-manage"])
    expect((await server.request("PUT", `/api/platforms/${platform.id}`, { token: manager, body: { name: "Managed" } })).status).toBe(200)
  })

  it("takes Meta's phone_number_quality_update through the receiver and the worker to the number's limit tier", async () => {
    const platform = await cloudNumber()
    api.numbers.set("9990001111", HEALTH)
    const foreign = await createPlatform(server, other.token, {
      name: "Theirs",
      display_phone_number: "+1 555 078 3881",
      provider: "whatsapp_cloud",
      phone_id: "9990001111",
      waba_id: "555000111222",
      access_token: TOKEN
    })
    const body = metaJson(metaWebhook.numberQualityUpdate({
      wabaId: WABA,
      displayPhoneNumber: "15550783881",
      event: "UPGRADE",
      oldLimit: "TIER_1K",
      currentLimit: "TIER_10K"
    }))
    const response = await fetch(`${server.url}/api/whatsapp/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signMeta(APP_SECRET, body) },
      body
    })
    expect(response.status).toBe(200)
    const drained = await server.run(drainWhatsAppInbox(
      { batch: 10, lease: Duration.minutes(1), concurrency: 1 },
      (stored, receivedAt) => processWhatsAppWebhook(stored, receivedAt)
    ))
    // The sandbox's status callbacks of the earlier send wait in the inbox too.
    expect(drained.processed).toBe(drained.claimed)
    const shown = await server.request("GET", `/api/platforms/${platform.id}`, { token: owner.token })
    expect(shown.body.data.messaging_limit_tier).toBe("TIER_10K")
    // Another account's number of the same display number on another WABA is not touched.
    const theirs = await server.request("GET", `/api/platforms/${foreign.id}`, { token: other.token })
    expect(theirs.body.data.messaging_limit_tier).toBe("TIER_1K")
  })
})
