/**
 * The testing kit used the way an outside project uses it (only its entry point and the core's
 * public one): the three model-based properties in their short form, with the project's own
 * persistence plugged in through a SnapshotStore, with an asynchronous store through the async
 * commands, and the default triggers reaching every answer of each model.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import * as fc from "fast-check"
import { DEFAULT_RETRY_SCHEDULE, queued } from "../../src/Deliveries.ts"
import { type Verification } from "../../src/Otp.ts"
import { type EventName } from "../../src/Records.ts"
import {
  deliveryAsyncCommands,
  deliveryCommands,
  deliveryModelSetup,
  deliverySystem,
  memoryStore,
  MODEL_START,
  otpAsyncCommands,
  otpCommands,
  otpModelSetup,
  otpSystem,
  retrySchedule,
  type SnapshotStore,
  type SystemUnderTest,
  webhookAsyncCommands,
  webhookCommands,
  webhookModelSetup,
  type WebhookSnapshot,
  webhookSystem
} from "../../src/testing/index.ts"

/** A project's own persistence of a webhook: a row with wire-format columns. */
interface WebhookRow {
  readonly URL: string
  readonly events: string
  readonly is_validated: boolean
  readonly is_active: boolean
  readonly consecutive_failures: number
  readonly last_failure_at: string | null
}

const rowStore = (): SnapshotStore<WebhookSnapshot | null> => {
  let row: WebhookRow | null = null
  return {
    load: Effect.sync(() =>
      row === null ? null : {
        url: row.URL,
        events: row.events.split(",") as Array<EventName>,
        state: {
          isValidated: row.is_validated,
          isActive: row.is_active,
          consecutiveFailures: row.consecutive_failures,
          lastFailureAt: row.last_failure_at === null ? null : DateTime.makeUnsafe(row.last_failure_at)
        }
      }
    ),
    save: (w) =>
      Effect.sync(() => {
        row = w === null ? null : {
          URL: w.url,
          events: w.events.join(","),
          is_validated: w.state.isValidated,
          is_active: w.state.isActive,
          consecutive_failures: w.state.consecutiveFailures,
          last_failure_at: w.state.lastFailureAt === null ? null : DateTime.formatIso(w.state.lastFailureAt)
        }
      })
  }
}

/** A store whose every read and write crosses an asynchronous boundary, like a database driver. */
const asyncStore = <S>(initial: S): SnapshotStore<S> => {
  let current = initial
  return {
    load: Effect.promise(() => Promise.resolve(current)),
    save: (snapshot) =>
      Effect.promise(async () => {
        current = snapshot
      })
  }
}

/** Wraps a system to count its answers. */
const counting = <T, A, O>(system: SystemUnderTest<T, A, O>, seen: Set<string>): SystemUnderTest<T, A, O> => ({
  apply: (trigger, now) => Effect.tap(system.apply(trigger, now), (answer) => Effect.sync(() => seen.add(JSON.stringify(answer)))),
  observe: system.observe
})

describe("the testing kit from an outside project", () => {
  it("webhook: the short form", () => {
    fc.assert(fc.property(webhookCommands(), (cmds) => fc.modelRun(webhookModelSetup, cmds)))
  })

  it("delivery: the short form, over random retry schedules", () => {
    fc.assert(fc.property(retrySchedule(), deliveryCommands(), (schedule, cmds) => fc.modelRun(() => deliveryModelSetup({ schedule }), cmds)))
  })

  it("OTP: the short form", () => {
    fc.assert(fc.property(otpCommands(), (cmds) => fc.modelRun(otpModelSetup, cmds)))
  })

  it("the project's own persistence of webhooks, plugged in as a SnapshotStore", () => {
    fc.assert(fc.property(webhookCommands(), (cmds) => fc.modelRun(() => webhookModelSetup({ system: webhookSystem(rowStore()) }), cmds)))
  })

  it("asynchronous systems, through the async commands and fc.asyncModelRun", async () => {
    await fc.assert(
      fc.asyncProperty(webhookAsyncCommands(), (cmds) =>
        fc.asyncModelRun(() => webhookModelSetup({ system: webhookSystem(asyncStore<WebhookSnapshot | null>(null)) }), cmds)),
      { numRuns: 50 }
    )
    await fc.assert(
      fc.asyncProperty(retrySchedule(), deliveryAsyncCommands(), (schedule, cmds) =>
        fc.asyncModelRun(
          () => deliveryModelSetup({ schedule, system: deliverySystem(schedule, asyncStore(queued(MODEL_START, schedule))) }),
          cmds
        )),
      { numRuns: 50 }
    )
    await fc.assert(
      fc.asyncProperty(otpAsyncCommands(), (cmds) =>
        fc.asyncModelRun(() => otpModelSetup({ system: otpSystem(asyncStore<ReadonlyArray<Verification>>([])) }), cmds)),
      { numRuns: 50 }
    )
  })

  // A fixed seed: what is checked is that the default triggers can reach every answer, not luck.
  it("the default triggers reach every answer of each model", () => {
    const webhook = new Set<string>()
    fc.assert(
      fc.property(webhookCommands(), (cmds) => fc.modelRun(() => webhookModelSetup({ system: counting(webhookSystem(), webhook) }), cmds)),
      { numRuns: 200, seed: 1 }
    )
    expect([...webhook].sort()).toEqual(
      ["Deactivated", "Done", "Exhausted", "Forbidden", "NotFound", "NotSent", "Succeeded"].map((a) => JSON.stringify(a))
    )

    const delivery = new Set<string>()
    fc.assert(
      fc.property(deliveryCommands(), (cmds) =>
        fc.modelRun(() => deliveryModelSetup({ system: counting(deliverySystem(DEFAULT_RETRY_SCHEDULE, memoryStore(queued(MODEL_START))), delivery) }), cmds)),
      { numRuns: 200, seed: 1 }
    )
    expect([...delivery].sort()).toEqual(["Cancelled", "Exhausted", "Finished", "Retrying", "Succeeded"].map((a) => JSON.stringify(a)))

    const otp = new Set<string>()
    fc.assert(
      fc.property(otpCommands(), (cmds) => fc.modelRun(() => otpModelSetup({ system: counting(otpSystem(), otp) }), cmds)),
      { numRuns: 200, seed: 1 }
    )
    const tags = new Set([...otp].map((a) => JSON.parse(a) as { _tag: string; status?: string }).map((a) => a.status ?? a._tag))
    expect([...tags].sort()).toEqual(["Approved", "Sent", "WrongCode", "approved", "expired", "failed", "max_attempts_reached"])
  })
})
