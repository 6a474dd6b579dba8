/**
 * The whatsapp_cloud provider against a local fake Cloud API that checks the documented request
 * shape (offer codes and header media of template sends, authentication templates): the messages
 * call, the media upload, the bearer token, and the mapping of Cloud API errors to accepted /
 * rejected / unavailable; text messages, read receipts and received media.
 */
import { describe, expect, it } from "@effect/vitest"
import type { ProviderRequest } from "@wasl/core/Messaging"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { classifyCloudError, makeWhatsAppCloudProvider } from "../../src/Messaging.ts"
import { type FakeCloudApi, startFakeCloudApi } from "../../src/testing/fake-whatsapp-cloud-api.ts"

const TOKEN = "EAAG-test-token"

const request = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
  platform: { provider: "whatsapp_cloud", phoneId: "106540352242922", displayPhoneNumber: "+1 555 000 1111", accessToken: TOKEN },
  to: "966500000001",
  template: { name: "login_code", language: "en_US", category: "AUTHENTICATION" },
  ...overrides
})

describe("whatsapp_cloud provider", () => {
  let api: FakeCloudApi
  beforeAll(async () => {
    api = await startFakeCloudApi(TOKEN)
  })
  afterAll(async () => {
    await api.close()
  })

  const provider = () => makeWhatsAppCloudProvider(api.url)
  const send = (r: ProviderRequest) => provider().send(r)

  it.effect("sends an authentication template: the code as body text and copy-code button parameter", () =>
    Effect.gen(function*() {
      const outcome = yield* send(request({ code: "482913" }))
      expect(outcome).toEqual({ _tag: "Accepted", messageId: expect.stringMatching(/^wamid\./) })
      const call = api.calls.at(-1)!
      expect(call.path).toBe("/v21.0/106540352242922/messages")
      expect(call.authorization).toBe(`Bearer ${TOKEN}`)
      expect(call.json).toEqual({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: "966500000001",
        type: "template",
        template: {
          name: "login_code",
          language: { code: "en_US" },
          components: [
            { type: "body", parameters: [{ type: "text", text: "482913" }] },
            { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "482913" }] }
          ]
        }
      })
    }))

  it.effect("sends an offer code as a copy_code coupon_code button parameter", () =>
    Effect.gen(function*() {
      const outcome = yield* send(request({
        template: { name: "summer", language: "en", category: "MARKETING" },
        offerCode: { index: 1, code: "SUMMER25" }
      }))
      expect(outcome._tag).toBe("Accepted")
      expect(api.calls.at(-1)!.json.template.components).toEqual([
        { type: "button", sub_type: "copy_code", index: 1, parameters: [{ type: "coupon_code", coupon_code: "SUMMER25" }] }
      ])
    }))

  it.effect("uploads a header file first and sends it by media id", () =>
    Effect.gen(function*() {
      const outcome = yield* send(request({
        template: { name: "invoice", language: "ar", category: "UTILITY" },
        headerMedia: { format: "DOCUMENT", filename: "invoice.pdf", contentType: "application/pdf", bytes: new Uint8Array(300) }
      }))
      expect(outcome._tag).toBe("Accepted")
      const [upload, message] = api.calls.slice(-2)
      expect(upload!.path).toBe("/v21.0/106540352242922/media")
      expect(upload!.form).toEqual({
        fields: { messaging_product: "whatsapp", type: "application/pdf" },
        file: { name: "invoice.pdf", type: "application/pdf", size: 300 }
      })
      const id = message!.json.template.components[0].parameters[0].document.id
      expect(id).toMatch(/^media-/)
      expect(message!.json.template.components[0]).toEqual({
        type: "header",
        parameters: [{ type: "document", document: { id, filename: "invoice.pdf" } }]
      })
    }))

  it.effect("sends a template without parameters with no components", () =>
    Effect.gen(function*() {
      const outcome = yield* send(request({ template: { name: "hello_world", language: "en_US", category: "UTILITY" } }))
      expect(outcome._tag).toBe("Accepted")
      expect(api.calls.at(-1)!.json.template).toEqual({ name: "hello_world", language: { code: "en_US" } })
      expect(api.calls.at(-1)!.json).not.toHaveProperty("biz_opaque_callback_data")
    }))

  it.effect("sends a request's tracking string as biz_opaque_callback_data, which Meta hands back with its statuses", () =>
    Effect.gen(function*() {
      const tracking = "wasl-campaign:65a1b2c3d4e5f60718293a01:65a1b2c3d4e5f60718293a02"
      const outcome = yield* send(request({ template: { name: "hello_world", language: "en_US", category: "UTILITY" }, tracking }))
      expect(outcome._tag).toBe("Accepted")
      expect(api.calls.at(-1)!.json.biz_opaque_callback_data).toBe(tracking)
    }))

  it.effect("maps Cloud API errors: 131026 and 100 rejected, 130429 unavailable (60 s), 5xx unavailable", () =>
    Effect.gen(function*() {
      api.failures.set("111111111", [400, 131026])
      api.failures.set("222222222", [400, 100])
      api.failures.set("333333333", [400, 130429])
      api.failures.set("444444444", [503, undefined])
      api.failures.set("555555555", [400, 131056])
      expect((yield* send(request({ to: "111111111", code: "1" })))._tag).toBe("Rejected")
      expect((yield* send(request({ to: "222222222", code: "1" })))._tag).toBe("Rejected")
      expect(yield* send(request({ to: "333333333", code: "1" }))).toMatchObject({ _tag: "Unavailable", retryAfterSeconds: 60 })
      expect(yield* send(request({ to: "444444444", code: "1" }))).toMatchObject({ _tag: "Unavailable", retryAfterSeconds: 30 })
      expect((yield* send(request({ to: "555555555", code: "1" })))._tag).toBe("Unavailable")
    }))

  it.effect("treats a bad token (190) as unavailable, not as the recipient's fault, and never echoes token or code", () =>
    Effect.gen(function*() {
      const outcome = yield* send(request({
        code: "909090",
        platform: { provider: "whatsapp_cloud", phoneId: "106540352242922", displayPhoneNumber: "+1", accessToken: "wrong" }
      }))
      expect(outcome._tag).toBe("Unavailable")
      expect(JSON.stringify(outcome)).not.toContain("wrong")
      expect(JSON.stringify(outcome)).not.toContain("909090")
    }))

  it.effect("treats an unreachable API as unavailable", () =>
    Effect.gen(function*() {
      const outcome = yield* makeWhatsAppCloudProvider("http://127.0.0.1:1/v21.0").send(request({ code: "1" }))
      expect(outcome._tag).toBe("Unavailable")
    }))

  it("classifies documented codes", () => {
    expect(classifyCloudError(400, 131026)._tag).toBe("Rejected")
    expect(classifyCloudError(400, 132001)._tag).toBe("Rejected")
    expect(classifyCloudError(400, 131047)._tag).toBe("Rejected")
    expect(classifyCloudError(400, 130429)._tag).toBe("Unavailable")
    expect(classifyCloudError(400, 131048)._tag).toBe("Unavailable")
    expect(classifyCloudError(401, 190)._tag).toBe("Unavailable")
    expect(classifyCloudError(500, 131000)._tag).toBe("Unavailable")
    expect(classifyCloudError(404, undefined)._tag).toBe("Rejected")
    expect(classifyCloudError(429, undefined)).toMatchObject({ _tag: "Unavailable", retryAfterSeconds: 60 })
  })

  const platform = request().platform

  it.effect("sends a free-form text as a text message without link preview", () =>
    Effect.gen(function*() {
      const outcome = yield* provider().sendText(platform, "966500000001", "Your order has shipped.")
      expect(outcome).toEqual({ _tag: "Accepted", messageId: expect.stringMatching(/^wamid\./) })
      const call = api.calls.at(-1)!
      expect(call.path).toBe("/v21.0/106540352242922/messages")
      expect(call.authorization).toBe(`Bearer ${TOKEN}`)
      expect(call.json).toEqual({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: "966500000001",
        type: "text",
        text: { preview_url: false, body: "Your order has shipped." }
      })
    }))

  it.effect("maps a text the API refuses (131047 outside the window) to a rejection", () =>
    Effect.gen(function*() {
      api.failures.set("966500000077", [400, 131047])
      expect((yield* provider().sendText(platform, "966500000077", "hello"))._tag).toBe("Rejected")
    }))

  it.effect("marks a received message read with status read and its wamid", () =>
    Effect.gen(function*() {
      const outcome = yield* provider().markRead(platform, "wamid.HBgLMTY0NjcwNDM1OTUVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=")
      expect(outcome).toEqual({ _tag: "Marked" })
      expect(api.calls.at(-1)!.json).toEqual({
        messaging_product: "whatsapp",
        status: "read",
        message_id: "wamid.HBgLMTY0NjcwNDM1OTUVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA="
      })
      expect((yield* provider().markRead(platform, "not-a-wamid"))._tag).toBe("Rejected")
    }))

  it.effect("fetches received media: the description, then its URL with the bearer token", () =>
    Effect.gen(function*() {
      const bytes = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3])
      api.media.set("1037543291543636", { bytes, mimeType: "image/jpeg" })
      const outcome = yield* provider().fetchMedia(platform, "1037543291543636", 1024)
      expect(outcome).toEqual({ _tag: "Fetched", bytes, mimeType: "image/jpeg" })
      const [described, downloaded] = api.calls.slice(-2)
      expect(described!.path).toBe("/v21.0/1037543291543636?phone_number_id=106540352242922")
      expect(downloaded!.path).toBe("/whatsapp_business/attachments/?mid=1037543291543636")
      expect(downloaded!.authorization).toBe(`Bearer ${TOKEN}`)
    }))

  it.effect("refuses media over the limit without downloading it, and an unknown media id for good", () =>
    Effect.gen(function*() {
      api.media.set("2001", { bytes: new Uint8Array(2048), mimeType: "video/mp4" })
      const before = api.calls.length
      expect(yield* provider().fetchMedia(platform, "2001", 1024)).toEqual({ _tag: "TooLarge" })
      expect(api.calls.length).toBe(before + 1)
      expect((yield* provider().fetchMedia(platform, "9999", 1024))._tag).toBe("Rejected")
    }))

  it.effect("stops reading a download that is longer than its description said", () =>
    Effect.gen(function*() {
      api.media.set("2002", { bytes: new Uint8Array(4096), mimeType: "application/pdf" })
      api.mediaUrls.set("2002", `${new URL(api.url).origin}/whatsapp_business/attachments/?mid=2003`)
      api.media.set("2003", { bytes: new Uint8Array(8192), mimeType: "application/pdf" })
      expect(yield* provider().fetchMedia(platform, "2002", 5000)).toEqual({ _tag: "TooLarge" })
    }))

  it.effect("never gives the token to a media URL that is not HTTPS on another host", () =>
    Effect.gen(function*() {
      api.media.set("2004", { bytes: new Uint8Array(4), mimeType: "image/png" })
      api.mediaUrls.set("2004", "http://169.254.169.254/latest/meta-data/")
      const outcome = yield* provider().fetchMedia(platform, "2004", 1024)
      expect(outcome._tag).toBe("Rejected")
      expect(JSON.stringify(outcome)).not.toContain(TOKEN)
    }))
})
