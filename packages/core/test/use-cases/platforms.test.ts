/**
 * One sending number on the all-memory ports: changed with its token sealed, refreshed (a sandbox
 * number's health all null), removed with its broadcasts while its messages stay, and another
 * account's number a NotFound everywhere.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SecretBox } from "../../src/Auth.ts"
import {
  createPlatform,
  deletePlatform,
  getBroadcast,
  getPlatform,
  MessageRepository,
  refreshPlatform,
  sendTemplate,
  UNKNOWN_HEALTH,
  updatePlatform
} from "../../src/Messaging.ts"
import { OWNER, setup } from "../support/fixtures.ts"
import { contactAt, MessagingTestPorts, shippingBroadcast } from "../support/messaging.ts"

describe("one sending number", () => {
  it.effect("renames it and seals a new access token; a refresh of a sandbox number leaves its health null", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
      const updated = yield* updatePlatform(principal, platform.id, { name: "Support", access_token: "EAAB-new" })
      assert.strictEqual(updated.name, "Support")
      assert.notInclude(updated.sealed_access_token!, "EAAB-new")
      assert.deepStrictEqual(yield* SecretBox.use((box) => box.open(updated.sealed_access_token!)), Option.some("EAAB-new"))
      const refreshed = yield* refreshPlatform(principal, platform.id)
      assert.deepStrictEqual(
        {
          verified_name: refreshed.verified_name,
          code_verification_status: refreshed.code_verification_status,
          quality_rating: refreshed.quality_rating,
          messaging_limit_tier: refreshed.messaging_limit_tier
        },
        UNKNOWN_HEALTH
      )
      assert.deepStrictEqual(yield* getPlatform(principal, platform.id), refreshed)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("removes it with its broadcasts, keeping the messages sent on it", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const { platform, broadcast } = yield* shippingBroadcast(principal)
      const contactId = yield* contactAt(account_id, "+966500000001")
      const { message } = yield* sendTemplate(principal, broadcast.id, { contact_id: contactId }, undefined)
      yield* deletePlatform(principal, platform.id)
      assert.strictEqual((yield* Effect.flip(getPlatform(principal, platform.id)))._tag, "NotFound")
      assert.strictEqual((yield* Effect.flip(getBroadcast(principal, broadcast.id)))._tag, "NotFound")
      const kept = yield* MessageRepository.use((repo) => repo.findById(account_id, message._id))
      assert.deepStrictEqual(kept, Option.some({ ...message, broadcast_id: null }))
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("answers NotFound for another account's number, and changes nothing", () =>
    Effect.gen(function*() {
      const other = yield* setup({ ...OWNER, email: "other.owner@example.com" })
      const theirs = yield* createPlatform(other.principal, { name: "Theirs", display_phone_number: "+966110000009" })
      const { principal } = yield* setup()
      const refused = [
        yield* Effect.flip(getPlatform(principal, theirs.id)),
        yield* Effect.flip(updatePlatform(principal, theirs.id, { name: "Stolen" })),
        yield* Effect.flip(refreshPlatform(principal, theirs.id)),
        yield* Effect.flip(deletePlatform(principal, theirs.id))
      ]
      assert.deepStrictEqual(refused.map((e) => e._tag), ["NotFound", "NotFound", "NotFound", "NotFound"])
      assert.deepStrictEqual(yield* getPlatform(other.principal, theirs.id), theirs)
    }).pipe(Effect.provide(MessagingTestPorts())))
})
