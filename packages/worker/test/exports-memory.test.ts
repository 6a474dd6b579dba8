/**
 * The worker's exports loop on the all-memory ports under `TestClock`: an export queued while the
 * worker runs is written on its next poll, and the requester is told. No real time passes.
 */
import { assert, describe, it } from "@effect/vitest"
import { authenticateToken, bootstrapAccount, createRecord, getExport, NotificationRepository, requestExport } from "@wasl/core"
import { WaslMemory } from "@wasl/adapters/memory"
import { DateTime, Duration, Effect, Exit, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(7) })

/** Lets every fiber that is ready run. */
const settle = Effect.forEach(Array.from({ length: 100 }), () => Effect.yieldNow, { discard: true })

describe("runDeliveryWorker: CSV exports on the memory ports", () => {
  it.effect("writes an export queued while it runs at its next poll, and tells the requester", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(DateTime.makeUnsafe("2034-04-04T10:00:00.000Z")))
      const created = yield* bootstrapAccount({
        account: "Exports",
        email: "exports@example.com",
        password: "a long enough password",
        plan: "business",
        otpCredits: 0
      })
      const principal = yield* authenticateToken(created.token)
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
})
