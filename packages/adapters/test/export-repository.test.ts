/**
 * The ExportRepository contract (and the records scan exports read through) over every
 * implementation: in memory, on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set. On
 * PostgreSQL, also a run holding its export against a claimer on another connection.
 */
import { assert, describe, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { ExportRepository } from "@wasl/core/Exports"
import { DateTime, Deferred, Duration, Effect, Fiber, Option } from "effect"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { exportRepositoryContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

exportRepositoryContract("exports in memory", repositoriesInMemory)

exportRepositoryContract("exports on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  exportRepositoryContract("exports on PostgreSQL", repositoriesOn(TestDatabase.postgres))

  // Only on PostgreSQL: the embedded database runs one transaction at a time, so a claim there
  // waits for the run's transaction instead of skipping its row.
  layer(repositoriesOn(TestDatabase.postgres), { excludeTestServices: true, timeout: Duration.seconds(60) })("a run's hold", (it) => {
    it.effect("keeps other claimers off the export past its lease until the run's transaction ends", () =>
      Effect.gen(function*() {
        const repo = yield* ExportRepository
        const account = yield* AccountRepository.use((a) => a.create({ name: "Hold", plan: "business", webhookLimit: null, otpCredits: 0 }))
        const t0 = DateTime.makeUnsafe("2042-01-01T00:00:00.000Z")
        const lapsed = DateTime.add(t0, { hours: 1 })
        const claim = (now: DateTime.Utc) => repo.claim(now, DateTime.add(now, { minutes: 5 }))
        while (Option.isSome(yield* claim(DateTime.makeUnsafe("2300-01-01T00:00:00.000Z")))) {
          // claims exports left by other tests on this database
        }
        const id = "0123456789abcdef0123hold"
        yield* repo.insert({ accountId: account.id, id, userId: 1, kind: "deal", query: {}, columns: ["_id"], createdAt: t0 })
        assert.strictEqual(Option.getOrThrow(yield* claim(t0)).attempts, 1)

        const held = yield* Deferred.make<boolean>()
        const release = yield* Deferred.make<void>()
        const run = yield* Effect.forkChild(Transactor.use((transactor) =>
          transactor.transaction(Effect.gen(function*() {
            yield* Deferred.succeed(held, yield* repo.hold(account.id, id, 1))
            yield* Deferred.await(release)
          }))
        ))
        assert.isTrue(yield* Deferred.await(held))
        assert.isTrue(Option.isNone(yield* claim(lapsed)))
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(run)
        assert.strictEqual(Option.getOrThrow(yield* claim(lapsed)).attempts, 2)
      }))
  })
})
