/**
 * The monthly message allowance on the all-memory ports, with the TestClock: a template send uses
 * one message of the calendar month (UTC), the month's last instant still counts in it, the first
 * instant of the next month starts from zero again, and the allowance shown says when it resets.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  allowanceMonth,
  allowanceResetsAt,
  MESSAGE_ALLOWANCE_USED_UP,
  messageAllowanceOf,
  messageLimit,
  setCustomMessageLimit,
  setPlan
} from "../../src/Accounts.ts"
import { sendTemplate } from "../../src/Messaging.ts"
import { setup } from "../support/fixtures.ts"
import { contactAt, MessagingTestPorts, shippingBroadcast } from "../support/messaging.ts"

const at = (iso: string) => TestClock.setTime(DateTime.toEpochMillis(DateTime.makeUnsafe(iso)))

describe("the monthly message allowance", () => {
  it("gives each plan its allowance: free 100, starter 1,000, business 10,000, custom its own or none", () => {
    assert.strictEqual(messageLimit("free", 7), 100)
    assert.strictEqual(messageLimit("starter", null), 1_000)
    assert.strictEqual(messageLimit("business", null), 10_000)
    assert.strictEqual(messageLimit("custom", 7), 7)
    assert.strictEqual(messageLimit("custom", null), 0)
  })

  it("counts in calendar months of UTC", () => {
    const month = allowanceMonth(DateTime.makeUnsafe("2031-12-31T23:59:59.999Z"))
    assert.strictEqual(DateTime.formatIso(month), "2031-12-01T00:00:00.000Z")
    assert.strictEqual(DateTime.formatIso(allowanceResetsAt(month)), "2032-01-01T00:00:00.000Z")
  })

  it.effect("refuses a send once the month's allowance is used, and starts again on the first of the next month", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* setPlan(account_id, "custom", null)
      yield* setCustomMessageLimit(account_id, 1)
      const { broadcast } = yield* shippingBroadcast(principal)
      const contactId = yield* contactAt(account_id, "+966500000001")
      const send = sendTemplate(principal, broadcast.id, { contact_id: contactId }, undefined)

      yield* at("2031-03-31T23:59:59.000Z")
      yield* send
      const refused = yield* Effect.flip(send)
      assert.strictEqual(refused._tag, "PaymentRequired")
      assert.strictEqual(refused.message, MESSAGE_ALLOWANCE_USED_UP)
      const march = yield* messageAllowanceOf(account_id)
      assert.strictEqual(march.used, 1)
      assert.strictEqual(DateTime.formatIso(march.resets_at), "2031-04-01T00:00:00.000Z")

      yield* at("2031-04-01T00:00:00.000Z")
      const april = yield* messageAllowanceOf(account_id)
      assert.deepStrictEqual({ limit: april.limit, used: april.used }, { limit: 1, used: 0 })
      assert.strictEqual(DateTime.formatIso(april.resets_at), "2031-05-01T00:00:00.000Z")
      yield* send
      assert.strictEqual((yield* Effect.flip(send))._tag, "PaymentRequired")
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("refuses a negative custom allowance and an unknown account", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const invalid = yield* Effect.flip(setCustomMessageLimit(account_id, -1))
      assert.deepStrictEqual(invalid._tag === "ValidationFailed" && Object.keys(invalid.errors), ["messages"])
      assert.strictEqual((yield* Effect.flip(setCustomMessageLimit(987_654, 5)))._tag, "NotFound")
    }).pipe(Effect.provide(MessagingTestPorts())))
})
