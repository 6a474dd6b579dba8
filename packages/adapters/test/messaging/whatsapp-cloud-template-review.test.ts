/**
 * Meta's template review through the WhatsApp Cloud API, against the local fake that checks
 * template creation as Meta's reference shows it: the creation body (components, the samples of
 * variables, authentication templates), Meta's id and status in the answer, a refusal carrying
 * Meta's explanation, the listing page after page; and the variables of a template send as text
 * parameters of its header and body.
 */
import { describe, expect, it } from "@effect/vitest"
import type { ProviderRequest, TemplateSubmission } from "@wasl/core/Messaging"
import { Effect } from "effect"
import { afterAll, beforeAll } from "vitest"
import { makeWhatsAppCloudProvider } from "../../src/Messaging.ts"
import { makeWhatsAppCloudTemplateReview } from "../../src/messaging/template-review-whatsapp-cloud.ts"
import { type FakeCloudApi, startFakeCloudApi } from "../../src/testing/fake-whatsapp-cloud-api.ts"

const TOKEN = "EAAG-test-token"
const WABA = "102290129340398"
const account = { wabaId: WABA, accessToken: TOKEN }

const shipping = (name: string, overrides: Partial<TemplateSubmission["template"]> = {}): TemplateSubmission => ({
  name,
  language: "en_US",
  template: {
    name,
    category: "UTILITY",
    header: { format: "TEXT", text: "Order {{1}}" },
    body: "Hello {{1}}, your order {{2}} has shipped.",
    footer: "Reply STOP to opt out",
    buttons: [
      { type: "URL", text: "Track", url: "https://example.com/track" },
      { type: "QUICK_REPLY", text: "Thanks" }
    ],
    code_expiration_minutes: null,
    ...overrides
  },
  examples: { body: ["Sara", "A-1001"], header: ["A-1001"], headerHandle: null }
})

describe("whatsapp_cloud template review", () => {
  let api: FakeCloudApi
  beforeAll(async () => {
    api = await startFakeCloudApi(TOKEN)
  })
  afterAll(async () => {
    await api.close()
  })
  const review = () => makeWhatsAppCloudTemplateReview(api.url)

  it.effect("submits the template with its components and samples, and answers Meta's id, status and category", () =>
    Effect.gen(function*() {
      const outcome = yield* review().submit(account, shipping("order_update"))
      expect(outcome).toEqual({ _tag: "Submitted", externalId: expect.stringMatching(/^[0-9]+$/), status: "PENDING", category: "UTILITY" })
      const call = api.calls.at(-1)!
      expect(call.path).toBe(`/v21.0/${WABA}/message_templates`)
      expect(call.authorization).toBe(`Bearer ${TOKEN}`)
      expect(call.json).toEqual({
        name: "order_update",
        language: "en_US",
        category: "UTILITY",
        components: [
          { type: "HEADER", format: "TEXT", text: "Order {{1}}", example: { header_text: ["A-1001"] } },
          { type: "BODY", text: "Hello {{1}}, your order {{2}} has shipped.", example: { body_text: [["Sara", "A-1001"]] } },
          { type: "FOOTER", text: "Reply STOP to opt out" },
          {
            type: "BUTTONS",
            buttons: [{ type: "URL", text: "Track", url: "https://example.com/track" }, { type: "QUICK_REPLY", text: "Thanks" }]
          }
        ]
      })
    }))

  it.effect("submits an authentication template as Meta's reference writes one", () =>
    Effect.gen(function*() {
      const outcome = yield* review().submit(account, {
        name: "login_code",
        language: "en",
        template: {
          name: "login_code",
          category: "AUTHENTICATION",
          header: null,
          body: "Your code is {{1}}.",
          footer: null,
          buttons: [{ type: "OTP", text: "Copy code" }],
          code_expiration_minutes: 10
        },
        examples: { body: [], header: [], headerHandle: null }
      })
      expect(outcome._tag).toBe("Submitted")
      expect(api.calls.at(-1)!.json.components).toEqual([
        { type: "BODY", add_security_recommendation: true },
        { type: "FOOTER", code_expiration_minutes: 10 },
        { type: "BUTTONS", buttons: [{ type: "OTP", otp_type: "COPY_CODE", text: "Copy code" }] }
      ])
    }))

  it.effect("answers Meta's refusal with Meta's explanation: a name already used, a template Meta finds invalid, a token refused", () =>
    Effect.gen(function*() {
      yield* review().submit(account, shipping("twice"))
      expect(yield* review().submit(account, shipping("twice"))).toEqual({
        _tag: "Refused",
        message: "Content in this language already exists: twice (en_US)."
      })
      const noSamples = yield* review().submit(account, { ...shipping("no_samples"), examples: { body: [], header: [], headerHandle: null } })
      expect(noSamples._tag).toBe("Refused")
      expect(noSamples._tag === "Refused" && noSamples.message).toContain("example")
      const badToken = yield* review().submit({ ...account, accessToken: "wrong" }, shipping("bad_token"))
      expect(badToken).toEqual({ _tag: "Refused", message: "Invalid OAuth access token." })
    }))

  it.effect("lists the account's templates with their review, page after page", () =>
    Effect.gen(function*() {
      const other = { wabaId: "5550001112", accessToken: TOKEN }
      const ids: Array<string> = []
      for (let i = 0; i < 130; i++) {
        const outcome = yield* review().submit(other, shipping(`bulk_${i}`))
        if (outcome._tag === "Submitted") ids.push(outcome.externalId)
      }
      yield* Effect.promise(() => api.reviewTemplate(ids[0]!, "REJECTED", { reason: "PROMOTIONAL" }))
      yield* Effect.promise(() => api.reviewTemplate(ids[129]!, "APPROVED"))
      const listed = yield* review().list(other)
      expect(listed._tag).toBe("Listed")
      const templates = listed._tag === "Listed" ? listed.templates : []
      expect(templates.map((t) => t.externalId)).toEqual(ids)
      expect(templates[0]).toEqual({ externalId: ids[0], status: "REJECTED", category: "UTILITY", reason: "PROMOTIONAL" })
      expect(templates[129]).toMatchObject({ status: "APPROVED", reason: null })
      expect(api.calls.filter((c) => c.path.startsWith(`/v21.0/${other.wabaId}/message_templates?`)).length).toBe(2)
      expect((yield* review().list({ ...other, accessToken: "wrong" }))._tag).not.toBe("Listed")
    }))

  it.effect("sends a template's variables as text parameters of its header and body", () =>
    Effect.gen(function*() {
      const request: ProviderRequest = {
        platform: { provider: "whatsapp_cloud", phoneId: "106540352242922", displayPhoneNumber: "+1 555 000 1111", accessToken: TOKEN },
        to: "966500000001",
        template: { name: "order_update", language: "en_US", category: "UTILITY" },
        parameters: { body: ["Sara", "A-1001"], header: ["A-1001"] }
      }
      const outcome = yield* makeWhatsAppCloudProvider(api.url).send(request)
      expect(outcome._tag).toBe("Accepted")
      expect(api.calls.at(-1)!.json.template.components).toEqual([
        { type: "header", parameters: [{ type: "text", text: "A-1001" }] },
        { type: "body", parameters: [{ type: "text", text: "Sara" }, { type: "text", text: "A-1001" }] }
      ])
    }))
})
