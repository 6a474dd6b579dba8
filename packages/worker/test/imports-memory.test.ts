/**
 * The worker's import loop on the all-memory ports under `TestClock`: a queued CSV import is
 * claimed on the next poll and written to its end, batch after batch. No real time passes.
 */
import { assert, describe, it } from "@effect/vitest"
import { authenticateToken, bootstrapAccount, getImport, listRecords, startImport, type UploadPart } from "@wasl/core"
import { WaslMemory } from "@wasl/adapters/memory"
import { DateTime, Duration, Effect, Exit, Scope, Stream } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(7) })

/** Lets every fiber that is ready run. */
const settle = Effect.forEach(Array.from({ length: 200 }), () => Effect.yieldNow, { discard: true })

const csv = `firstname,email\n${Array.from({ length: 5 }, (_, i) => `C${i},c${i}@example.com`).join("\n")}\n`

describe("runDeliveryWorker: CSV imports on the memory ports", () => {
  it.effect("claims a queued import on its next poll and writes every row, in batches", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(DateTime.makeUnsafe("2034-04-04T10:00:00.000Z")))
      const created = yield* bootstrapAccount({ account: "Imports", email: "imports@example.com", password: "imports password", plan: "business", otpCredits: 0 })
      const principal = yield* authenticateToken(created.token)
      const file: UploadPart<never> = { _tag: "File", key: "file", name: "c.csv", content: Stream.make(new TextEncoder().encode(csv)) }
      const queued = yield* startImport(principal, "contact", Stream.make(file))

      const scope = yield* Scope.make()
      yield* Scope.provide(runDeliveryWorker({ pollInterval: Duration.seconds(1), importBatch: 2 }), scope)
      yield* settle
      yield* TestClock.adjust(Duration.seconds(1))
      yield* settle
      assert.deepInclude(yield* getImport(principal, "contact", queued._id), { status: "completed", created: 5, rows_read: 5 })
      assert.strictEqual((yield* listRecords(principal, "contact", {})).total, 5)
      yield* Scope.close(scope, Exit.void)
    }).pipe(Effect.provide(services)))
})
