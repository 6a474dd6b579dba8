/**
 * The testing kit's runs land on the instants where the rules turn (a code's expiry, a delivery's
 * next attempt, and 1 ms either side), often enough that a system off by a little at such an
 * instant is caught at fast-check's default 100 runs for nearly every seed. The properties are
 * written the way an outside project writes them (only through the kit's entry point and the
 * core's public one), with fixed seeds.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import * as fc from "fast-check"
import { DEFAULT_RETRY_SCHEDULE, queued } from "../../src/Deliveries.ts"
import { type Verification } from "../../src/Otp.ts"
import {
  applyOtpTrigger,
  deliveryCommands,
  deliveryModelSetup,
  type DeliverySystem,
  deliverySystem,
  memoryStore,
  MODEL_START,
  otpCommands,
  otpModelSetup,
  type OtpSystem,
  otpSystem,
  type OtpTrigger,
  storedSystem
} from "../../src/testing/index.ts"

const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1)

/** How many of the seeds fail the OTP property over `system()`, at fast-check's default number of runs. */
const failingSeeds = (system: () => OtpSystem): number =>
  SEEDS.filter((seed) =>
    fc.check(fc.property(otpCommands(), (commands) => fc.modelRun(() => otpModelSetup({ system: system() }), commands)), { seed }).failed
  ).length

/**
 * A verify that still accepts the right code for `leewayMillis` from expires_at on (from which the
 * code is expired): 1 ms is a `<=` where `<` belongs, 1000 ms a second of leeway.
 */
const lenient = (leewayMillis: number) => (): OtpSystem =>
  storedSystem(memoryStore<ReadonlyArray<Verification>>([]), (stored, trigger: OtpTrigger, now) => {
    const target = trigger._tag === "Verify" ? stored[stored.length - 1 - trigger.back] : undefined
    const accepted = trigger._tag === "Verify" && target?.status === "live" && target.code_hash === trigger.code &&
      DateTime.toEpochMillis(now) < DateTime.toEpochMillis(target.expires_at) + leewayMillis
    return accepted
      ? { state: stored.map((v) => (v === target ? { ...v, status: "approved" as const, updated_at: now } : v)), answer: { _tag: "Approved" as const } }
      : applyOtpTrigger(stored, trigger, now)
  })

describe("the kit's clock lands on the instants where the rules turn", () => {
  it("a verify that accepts the right code at expires_at fails the OTP property for at least 39 of 40 seeds", () => {
    const caught = failingSeeds(lenient(1))
    expect(caught, `caught in ${caught} of ${SEEDS.length} seeds`).toBeGreaterThanOrEqual(39)
  })

  it("a verify that accepts the right code up to a second after expiry fails it for at least 39 of 40 seeds", () => {
    const caught = failingSeeds(lenient(1000))
    expect(caught, `caught in ${caught} of ${SEEDS.length} seeds`).toBeGreaterThanOrEqual(39)
  })

  it("the core's own verify passes the OTP property for the same 40 seeds", () => {
    expect(failingSeeds(otpSystem)).toBe(0)
  })

  // The core decides when a delivery is due (`isDue`, checked after every step), so a system under
  // test cannot be early; what is checked is that the runs try it at the instants that matter.
  const attemptOffsets = (toBoundary?: fc.Arbitrary<number>): ReadonlySet<number> => {
    const offsets = new Set<number>()
    const recording = (): DeliverySystem => {
      const system = deliverySystem(DEFAULT_RETRY_SCHEDULE, memoryStore(queued(MODEL_START)))
      return {
        apply: (trigger, now) =>
          Effect.flatMap(system.observe, ({ attempts, nextAttemptAt }) => {
            if (attempts > 0 && nextAttemptAt !== null) offsets.add(DateTime.toEpochMillis(now) - DateTime.toEpochMillis(nextAttemptAt))
            return system.apply(trigger, now)
          }),
        observe: system.observe
      }
    }
    const commands = deliveryCommands(toBoundary === undefined ? {} : { toBoundary })
    fc.assert(fc.property(commands, (cmds) => fc.modelRun(() => deliveryModelSetup({ system: recording() }), cmds)), { seed: 1 })
    return offsets
  }

  it("delivery attempts are made on the due instant, 1 ms before it and 1 ms after it", () => {
    const offsets = attemptOffsets()
    expect([-1, 0, 1].filter((offset) => offsets.has(offset))).toEqual([-1, 0, 1])
  })

  it("boundary steps land where toBoundary says", () => {
    const offsets = attemptOffsets(fc.constant(0))
    expect([-1, 0, 1].filter((offset) => offsets.has(offset))).toEqual([0])
  })
})
