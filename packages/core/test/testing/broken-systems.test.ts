/**
 * The testing kit can fail: systems under test with one rule broken, plugged in the way an outside
 * project plugs its own (only through the kit's entry point and the core's public one), are caught
 * by the kit's model-based properties with a ModelMismatch naming what differs.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Duration } from "effect"
import * as fc from "fast-check"
import { DEFAULT_RETRY_SCHEDULE, type DeliveryState, queued, type RetrySchedule } from "../../src/Deliveries.ts"
import { type Verification } from "../../src/Otp.ts"
import {
  applyDeliveryTrigger,
  applyOtpTrigger,
  applyWebhookTrigger,
  deliveryCommands,
  deliveryModelSetup,
  type DeliveryTrigger,
  memoryStore,
  MODEL_START,
  ModelMismatch,
  otpCommands,
  otpModelSetup,
  type OtpTrigger,
  storedSystem,
  webhookCommands,
  webhookModelSetup,
  type WebhookSnapshot,
  webhookSystem,
  type WebhookTrigger
} from "../../src/testing/index.ts"

/** Runs `property` and answers the error it failed with (the test fails if it passed). */
const failureOf = <Ts extends [unknown, ...Array<unknown>]>(property: fc.IProperty<Ts>, numRuns: number): ModelMismatch => {
  const details = fc.check(property, { numRuns })
  expect(details.failed, "the broken system passed the model-based property").toBe(true)
  expect(details.errorInstance).toBeInstanceOf(ModelMismatch)
  return details.errorInstance as ModelMismatch
}

describe("the kit's model-based properties catch a broken system under test", () => {
  it("a re-activation that forgets to reset the failure count", () => {
    const forgetful = (stored: WebhookSnapshot | null, trigger: WebhookTrigger, now: DateTime.Utc) =>
      trigger._tag === "Activate" && trigger.isActive && stored !== null && stored.state.isValidated
        ? { state: { ...stored, state: { ...stored.state, isActive: true } }, answer: "Done" as const }
        : applyWebhookTrigger(stored, trigger, now)
    const mismatch = failureOf(
      fc.property(webhookCommands(), (cmds) =>
        fc.modelRun(() => webhookModelSetup({ system: storedSystem(memoryStore<WebhookSnapshot | null>(null), forgetful) }), cmds)),
      2000
    )
    expect(mismatch.step).toMatch(/^activate\(true\)/)
    expect(mismatch.message).toContain("consecutiveFailures")
  })

  it("a persistence that stores the last failure time to the second only", () => {
    const toSecond = (at: DateTime.Utc | null) =>
      at === null ? null : DateTime.makeUnsafe(Math.floor(DateTime.toEpochMillis(at) / 1000) * 1000)
    const truncating = () => {
      const rows = memoryStore<WebhookSnapshot | null>(null)
      return webhookSystem({
        load: rows.load,
        save: (w) => rows.save(w === null ? null : { ...w, state: { ...w.state, lastFailureAt: toSecond(w.state.lastFailureAt) } })
      })
    }
    const mismatch = failureOf(
      fc.property(webhookCommands(), (cmds) => fc.modelRun(() => webhookModelSetup({ system: truncating() }), cmds)),
      2000
    )
    expect(mismatch.message).toContain("lastFailureAt")
  })

  it("a delivery that schedules each retry with the previous attempt's delay", () => {
    // The bug: the schedule is read one attempt late (0, 0, 5 min, 30 min, ... instead of 0, 5 min, 30 min, ...).
    const late: RetrySchedule = [Duration.zero, ...DEFAULT_RETRY_SCHEDULE.slice(0, -1)]
    const offByOne = (state: DeliveryState, trigger: DeliveryTrigger, now: DateTime.Utc) =>
      applyDeliveryTrigger(late)(state, trigger, now)
    const mismatch = failureOf(
      fc.property(deliveryCommands(), (cmds) =>
        fc.modelRun(() => deliveryModelSetup({ system: storedSystem(memoryStore(queued(MODEL_START)), offByOne) }), cmds)),
      500
    )
    expect(mismatch.message).toContain("nextAttemptAt")
  })

  it("a delivery system that does not start as queued", () => {
    const late = queued(DateTime.addDuration(MODEL_START, Duration.seconds(1)))
    const mismatch = failureOf(
      fc.property(deliveryCommands(), (cmds) =>
        fc.modelRun(() => deliveryModelSetup({ system: storedSystem(memoryStore(late), () => ({ state: late, answer: "Finished" as const })) }), cmds)),
      20
    )
    expect(mismatch.step).toBe("the start")
  })

  it("a verify that ignores the expiry", () => {
    const timeless = (stored: ReadonlyArray<Verification>, trigger: OtpTrigger, now: DateTime.Utc) =>
      // The bug: codes are checked as if it were always the moment they were sent.
      trigger._tag === "Verify"
        ? applyOtpTrigger(stored, trigger, stored[stored.length - 1 - trigger.back]?.created_at ?? now)
        : applyOtpTrigger(stored, trigger, now)
    const mismatch = failureOf(
      fc.property(otpCommands(), (cmds) =>
        fc.modelRun(() => otpModelSetup({ system: storedSystem(memoryStore<ReadonlyArray<Verification>>([]), timeless) }), cmds)),
      2000
    )
    expect(mismatch.message).toContain("expired")
  })
})
