/**
 * A campaign whose worker died between calling the provider and storing its answer, on the
 * all-memory ports with the TestClock: the next worker stores from its held status (found by the
 * send's tracking string) the message of a send that went out, never sending it again; it waits
 * the confirm window for a send no status names, then sends it, once; every send carries its
 * tracking string; the allowance counts each recipient once.
 */
import { SentMessages } from "@wasl/adapters/memory"
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { messageAllowanceOf, useMessageAllowances } from "../../src/Accounts.ts"
import { Transactor } from "../../src/Deployment.ts"
import {
  CampaignRepository,
  campaignTracking,
  createCampaign,
  makeCampaignRunner,
  MessageRepository,
  MessageStatusHoldRepository
} from "../../src/Messaging.ts"
import { setup } from "../support/fixtures.ts"
import { contactAt, MessagingTestPorts, shippingBroadcast } from "../support/messaging.ts"

const T0 = DateTime.makeUnsafe("2031-06-10T09:00:00.000Z")
const WINDOW = Duration.minutes(15)
const LEASE = Duration.minutes(2)

describe("a campaign its worker died in", () => {
  it.effect("stores what went out from its status, sends what did not after the window, nobody twice", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const { broadcast } = yield* shippingBroadcast(principal)
      const [went, lost, rest] = [
        yield* contactAt(account_id, "+966500000001"),
        yield* contactAt(account_id, "+966500000002"),
        yield* contactAt(account_id, "+966500000003")
      ]
      const runner = makeCampaignRunner({ sendRate: 1_000, lease: LEASE, confirmWindow: WINDOW })
      const campaign = yield* createCampaign(principal, broadcast.id, { name: "June", audience: { contact_ids: [went, lost, rest] } })
      assert.isTrue(yield* runner.runNext) // resolves the audience: running

      // What a worker that died leaves: two recipients claimed (their allowance taken), the
      // campaign leased. The send to `went` reached WhatsApp, whose status arrived before its
      // message was stored; the one to `lost` never left.
      const repo = yield* CampaignRepository
      const transactor = yield* Transactor
      const now = yield* DateTime.now
      const claimed = yield* transactor.transaction(Effect.gen(function*() {
        const recipients = yield* repo.claimRecipients(account_id, campaign._id, 2, now)
        yield* useMessageAllowances(account_id, recipients.length)
        const held = yield* repo.hold(account_id, campaign._id)
        yield* repo.update({ ...Option.getOrThrow(held), leaseUntil: DateTime.addDuration(now, LEASE) })
        return recipients.map((r) => r.contactId)
      }))
      assert.deepStrictEqual(claimed, [went, lost])
      yield* MessageStatusHoldRepository.use((holds) =>
        holds.hold(account_id, "wamid.went", { status: "delivered", at: now, error: null }, campaignTracking(campaign._id, went))
      )

      // Its lease holds the campaign until it runs out.
      assert.isFalse(yield* runner.runNext)
      yield* TestClock.adjust(Duration.sum(LEASE, Duration.millis(1)))
      assert.isTrue(yield* runner.runNext)
      const sent = yield* SentMessages
      const sends = () => Effect.map(sent.all, (all) => all.map((s) => [s.request.to, s.request.tracking]))
      assert.deepStrictEqual(yield* sends(), [["966500000003", campaignTracking(campaign._id, rest)]])
      const status = () =>
        Effect.map(repo.listRecipients(account_id, campaign._id, 1, 10), (page) => page.rows.map((r) => [r.status, r.messageStatus]))
      assert.deepStrictEqual(yield* status(), [["sent", "delivered"], ["sending", null], ["sent", "sent"]])
      const message = yield* MessageRepository.use((messages) => messages.findByProviderId(account_id, "wamid.went"))
      assert.strictEqual(Option.getOrThrow(message).contact_id, went)

      // Within the window it waits for the status of `lost`, looking again every 10 seconds.
      const held = Option.getOrThrow(yield* repo.get(account_id, campaign._id))
      assert.strictEqual(held.status, "running")
      assert.strictEqual(DateTime.toEpochMillis(held.resumeAt!) - DateTime.toEpochMillis(yield* DateTime.now), 10_000)
      yield* TestClock.setTime(DateTime.toEpochMillis(DateTime.addDuration(T0, WINDOW)) - 1)
      assert.isTrue(yield* runner.runNext)
      assert.strictEqual((yield* sends()).length, 1)

      // The window past without one: the provider never took it, so it is sent, once.
      yield* TestClock.adjust(Duration.seconds(10))
      assert.isTrue(yield* runner.runNext)
      assert.deepStrictEqual((yield* sends()).map(([to]) => to), ["966500000003", "966500000002"])
      assert.isFalse(yield* runner.runNext)
      const done = Option.getOrThrow(yield* repo.get(account_id, campaign._id))
      assert.strictEqual(done.status, "completed")
      assert.deepStrictEqual((yield* status()).map(([s]) => s), ["sent", "sent", "sent"])
      assert.strictEqual((yield* messageAllowanceOf(account_id)).used, 3)
    }).pipe(Effect.provide(MessagingTestPorts())))
})
