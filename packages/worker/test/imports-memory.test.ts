/**
 * The worker's import loop on the all-memory ports under `TestClock`: a queued CSV import is
 * claimed on the next poll and written to its end, batch after batch; accounts take turns, so a
 * one-row import queued behind another account's large ones completes first, with one worker or
 * two. No real time passes.
 */
import { assert, describe, it } from "@effect/vitest"
import { getImport } from "@wasl/core/Imports"
import { listRecords } from "@wasl/core/Records"
import { WaslMemory } from "@wasl/adapters/memory"
import { DateTime, Duration, Effect, Exit, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"
import { contactsCsv, newMember, oneRowImportTakesItsTurn, uploadContacts } from "./import-turns.ts"

const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(7) })

/** Lets every fiber that is ready run. */
const settle = Effect.forEach(Array.from({ length: 200 }), () => Effect.yieldNow, { discard: true })

const START = DateTime.toEpochMillis(DateTime.makeUnsafe("2034-04-04T10:00:00.000Z"))

/**
 * Lets the worker's fibers run until `done`, the test clock moving a millisecond a step: turns are
 * told apart by when they began, as time passes while a worker writes.
 */
const runUntil = (done: Effect.Effect<boolean>, what: string) =>
  Effect.gen(function*() {
    for (let step = 1; !(yield* done); step++) {
      assert.isBelow(step, 100_000, `not reached: ${what}`)
      yield* TestClock.adjust(Duration.millis(1))
    }
  })

describe("runDeliveryWorker: CSV imports on the memory ports", () => {
  it.effect("claims a queued import on its next poll and writes every row, in batches", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const principal = yield* newMember("Imports")
      const queued = yield* uploadContacts(principal, contactsCsv(5, "c"))

      const scope = yield* Scope.make()
      yield* Scope.provide(runDeliveryWorker({ pollInterval: Duration.seconds(1), importBatch: 2 }), scope)
      yield* settle
      yield* TestClock.adjust(Duration.seconds(1))
      yield* settle
      assert.deepInclude(yield* getImport(principal, "contact", queued._id), { status: "completed", created: 5, rows_read: 5 })
      assert.strictEqual((yield* listRecords(principal, "contact", {})).total, 5)
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.provide(services)))

  for (const workers of [1, 2]) {
    it.effect(`with ${workers} worker(s), a one-row import queued behind another account's two large ones completes first`, () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(START)
        // 400 rows in batches of 2: 200 batches each, so that the check after B's import finds A's
        // far from done (a batch's records are stored together, in few steps of the fibers).
        yield* oneRowImportTakesItsTurn(workers, 400, { pollInterval: Duration.seconds(1), importBatch: 2 }, runUntil)
      }).pipe(Effect.provide(services)))
  }
})
