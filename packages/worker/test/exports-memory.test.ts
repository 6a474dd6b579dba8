/**
 * The worker's exports loop on the all-memory ports under `TestClock`: an export queued while the
 * worker runs is written on its next poll, and the requester is told; accounts take turns, so a
 * one-record export asked for behind another account's large ones completes first, with one worker
 * or two, and the large ones then complete with every record once. No real time passes.
 */
import { assert, describe, it } from "@effect/vitest"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { authenticateToken, type Principal } from "@wasl/core/Auth"
import { EXPORT_BATCH_SIZE, getExport, requestExport } from "@wasl/core/Exports"
import { NotificationRepository } from "@wasl/core/Notifications"
import { createRecord, createRecords } from "@wasl/core/Records"
import { WaslMemory } from "@wasl/adapters/memory"
import { DateTime, Duration, Effect, Exit, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(7) })

/** Lets every fiber that is ready run. */
const settle = Effect.forEach(Array.from({ length: 100 }), () => Effect.yieldNow, { discard: true })

const START = DateTime.toEpochMillis(DateTime.makeUnsafe("2034-04-04T10:00:00.000Z"))

const owner = (account: string) =>
  Effect.flatMap(
    bootstrapAccount({ account, email: `${account.toLowerCase()}@example.com`, password: "a long enough password", plan: "business", otpCredits: 0 }),
    (created) => authenticateToken(created.token)
  )

/** Lets the worker's fibers run until `done`, the test clock moving a millisecond a step. */
const runUntil = <E, R>(done: Effect.Effect<boolean, E, R>, what: string) =>
  Effect.gen(function*() {
    for (let step = 1; !(yield* done); step++) {
      assert.isBelow(step, 100_000, `not reached: ${what}`)
      yield* TestClock.adjust(Duration.millis(1))
    }
  })

describe("runDeliveryWorker: CSV exports on the memory ports", () => {
  it.effect("writes an export queued while it runs at its next poll, and tells the requester", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const principal = yield* owner("Exports")
      yield* createRecord(principal, "deal", { deal_name: "One", amount: 1 })

      const scope = yield* Scope.make()
      yield* Scope.provide(
        runDeliveryWorker({ pollInterval: Duration.seconds(1), otpSweepInterval: Duration.days(7), pruneInterval: Duration.days(7) }),
        scope
      )
      yield* settle
      const queued = yield* requestExport(principal, "deal", {})
      assert.strictEqual((yield* getExport(principal, queued._id)).status, "queued")
      yield* TestClock.adjust(Duration.seconds(1))
      yield* settle
      const done = yield* getExport(principal, queued._id)
      assert.deepStrictEqual([done.status, done.row_count], ["completed", 1])
      const listed = yield* NotificationRepository.use((n) => n.list(principal.accountId, principal.userId, { offset: 0, limit: 10 }))
      assert.deepStrictEqual(listed.items.map((n) => n.type), ["ObjectsExport"])
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.provide(services)))

  for (const workers of [1, 2]) {
    it.effect(`with ${workers} worker(s), a one-record export asked for behind another account's two large ones completes first`, () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(START)
        const large = yield* owner("Large")
        const small = yield* owner("Small")
        // Three batches each.
        const deals = 3 * EXPORT_BATCH_SIZE - 1
        for (let from = 0; from < deals; from += 100) {
          const inputs = Array.from({ length: Math.min(100, deals - from) }, (_, i) => ({ properties: { deal_name: `Deal ${from + i}` } }))
          yield* createRecords(large, "deal", { inputs })
        }
        yield* createRecord(small, "deal", { deal_name: "One" })
        const queuedLarge = [yield* requestExport(large, "deal", {}), yield* requestExport(large, "deal", {})]
        const one = yield* requestExport(small, "deal", {})
        const largeOnes = Effect.forEach(queuedLarge, (queued) => getExport(large, queued._id))

        yield* Effect.scoped(Effect.gen(function*() {
          for (let i = 0; i < workers; i++) yield* runDeliveryWorker({ pollInterval: Duration.seconds(1) })
          yield* runUntil(
            Effect.map(Effect.forEach([...queuedLarge, one], (queued) => getExport(queued === one ? small : large, queued._id)), (views) =>
              views.every((view) => view.status === "completed")),
            "the exports complete"
          )
        }))
        // The order they completed in: each completion stores its requester's notification.
        const noticesOf = (principal: Principal) =>
          Effect.map(
            NotificationRepository.use((n) => n.list(principal.accountId, principal.userId, { offset: 0, limit: 10 })),
            (page) => page.items.filter((n) => n.type === "ObjectsExport").map((n) => n.id)
          )
        const [smallNotice] = yield* noticesOf(small)
        const largeNotices = yield* noticesOf(large)
        assert.strictEqual(largeNotices.length, 2)
        assert.isBelow(smallNotice!, Math.min(...largeNotices), "B's export completed before A's")
        for (const view of yield* largeOnes) assert.strictEqual(view.row_count, deals)
        assert.strictEqual((yield* getExport(small, one._id)).row_count, 1)
      }).pipe(Effect.provide(services)))
  }
})
