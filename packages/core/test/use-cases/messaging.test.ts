/**
 * Sending numbers, broadcasts and send-template on the all-memory ports:
 * an access token is sealed before it is stored and reaches the provider opened; broadcasts are
 * APPROVED on the account's own sending numbers only; a template send costs no OTP credit and
 * stores its message, and one the provider refuses stores nothing. The HTTP tests prove the wire
 * shapes, the permissions and the validation; these prove the use-cases themselves, with no
 * database.
 */
import { assert, describe, it } from "@effect/vitest"
import { ReviewedTemplates, SentMessages } from "@wasl/adapters/memory"
import { Effect, Option } from "effect"
import { AccountRepository } from "../../src/Accounts.ts"
import { SecretBox } from "../../src/Auth.ts"
import {
  createBroadcast,
  createPlatform,
  getBroadcast,
  listBroadcasts,
  listPlatforms,
  MessageRepository,
  sendTemplate,
  syncTemplateReviews
} from "../../src/Messaging.ts"
import { OWNER, setup } from "../support/fixtures.ts"
import { contactAt, MessagingTestPorts } from "../support/messaging.ts"
import { memoryState } from "../support/store.ts"

const TOKEN = "EAAB-cloud-api-token"

const utilityBroadcast = (platformId: number) => ({
  name: "Shipping",
  language: "en_US",
  platform_id: platformId,
  template: { name: "order_update", category: "UTILITY", body: "Your order has shipped." }
})

describe("sending numbers and broadcasts", () => {
  it.effect("seals an access token before storing it, and the provider gets it opened", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* createPlatform(principal, {
        name: "Cloud",
        display_phone_number: "+966110000001",
        provider: "whatsapp_cloud",
        phone_id: "1234567890",
        waba_id: "102290129340398",
        access_token: TOKEN
      })
      assert.isNotNull(platform.sealed_access_token)
      assert.notInclude(platform.sealed_access_token!, TOKEN)
      assert.deepStrictEqual(yield* SecretBox.use((box) => box.open(platform.sealed_access_token!)), Option.some(TOKEN))
      assert.deepStrictEqual(yield* listPlatforms(principal), [platform])

      const broadcast = yield* createBroadcast(principal, utilityBroadcast(platform.id))
      // Submitted to Meta's review with the token opened; sent once Meta approved it.
      const [submitted] = yield* ReviewedTemplates.use((meta) => meta.all)
      assert.strictEqual(submitted!.externalId, broadcast.template.external_id)
      yield* ReviewedTemplates.use((meta) => meta.review(submitted!.externalId, "APPROVED"))
      yield* syncTemplateReviews(account_id)
      const contactId = yield* contactAt(account_id, "+966500000001")
      const { message } = yield* sendTemplate(principal, broadcast.id, { contact_id: contactId }, undefined)
      const [sent] = yield* SentMessages.use((messages) => messages.all)
      assert.deepStrictEqual(sent!.request.platform, {
        provider: "whatsapp_cloud",
        phoneId: "1234567890",
        displayPhoneNumber: "+966110000001",
        accessToken: TOKEN
      })
      assert.strictEqual(sent!.request.to, "966500000001")
      assert.isUndefined(sent!.request.code)
      assert.strictEqual(sent!.outcome._tag === "Accepted" && sent!.outcome.messageId, message.provider_message_id)
      assert.deepStrictEqual(yield* MessageRepository.use((repo) => repo.findById(account_id, message._id)), Option.some(message))
      assert.strictEqual(message.body, "Your order has shipped.")
      // A template send costs no OTP credit.
      const account = yield* AccountRepository.use((accounts) => accounts.findById(account_id))
      assert.strictEqual(Option.getOrThrow(account).otp_credits, OWNER.otpCredits)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("creates broadcasts, APPROVED, on the account's own sending numbers only", () =>
    Effect.gen(function*() {
      const other = yield* setup({ ...OWNER, email: "other.owner@example.com" })
      const foreign = yield* createPlatform(other.principal, { name: "Theirs", display_phone_number: "+966110000009" })
      const { principal } = yield* setup()
      const refused = yield* Effect.flip(createBroadcast(principal, utilityBroadcast(foreign.id)))
      assert.deepStrictEqual(refused._tag === "ValidationFailed" && Object.keys(refused.errors), ["platform_id"])
      assert.deepStrictEqual(yield* listBroadcasts(principal), [])

      const own = yield* createPlatform(principal, { name: "Ours", display_phone_number: "+966110000000" })
      const broadcast = yield* createBroadcast(principal, utilityBroadcast(own.id))
      assert.strictEqual(broadcast.status, "APPROVED")
      assert.deepStrictEqual(broadcast.platform, own)
      assert.deepStrictEqual(yield* getBroadcast(principal, broadcast.id), broadcast)
      assert.deepStrictEqual(yield* listBroadcasts(principal), [broadcast])
      assert.deepStrictEqual(yield* listBroadcasts(other.principal), [])
      assert.strictEqual((yield* Effect.flip(getBroadcast(other.principal, broadcast.id)))._tag, "NotFound")
    }).pipe(Effect.provide(MessagingTestPorts())))
})

describe("send-template", () => {
  it.effect("stores nothing when the provider refuses the contact's number", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
      const broadcast = yield* createBroadcast(principal, utilityBroadcast(platform.id))
      const contactId = yield* contactAt(account_id, "+999123456")
      const refused = yield* Effect.flip(sendTemplate(principal, broadcast.id, { contact_id: contactId }, undefined))
      assert.deepStrictEqual(refused._tag === "ValidationFailed" && Object.keys(refused.errors), ["contact_id"])
      assert.strictEqual((yield* memoryState).messaging.messages.size, 0)
      const [sent] = yield* SentMessages.use((messages) => messages.all)
      assert.strictEqual(sent!.outcome._tag, "Rejected")
    }).pipe(Effect.provide(MessagingTestPorts())))
})
