/**
 * The IdempotencyStore contract over every implementation: in memory, on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set. On PostgreSQL, also two stores (two
 * processes, as far as the database can tell) racing for one key.
 */
import { describe, expect, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { IdempotencyStore, type IdempotencyMode } from "@wasl/core/Idempotency"
import { Context, Deferred, Duration, Effect, Fiber, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { MigrationsLive } from "../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../src/db/test-database.ts"
import { IdempotencyStorePg, RepositoriesPg } from "../src/pg/index.ts"
import { idempotencyStoreContract } from "../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "./repository-layers.ts"

idempotencyStoreContract("idempotency keys in memory", repositoriesInMemory)

idempotencyStoreContract("idempotency keys on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  idempotencyStoreContract("idempotency keys on PostgreSQL", repositoriesOn(TestDatabase.postgres))

  const withDatabase = RepositoriesPg.pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provideMerge(TestDatabase.postgres)
  )
  layer(withDatabase, { excludeTestServices: true, timeout: Duration.seconds(60) })("two processes", (it) => {
    for (const mode of ["transaction", "outside"] as ReadonlyArray<IdempotencyMode>) {
      it.effect(`${mode}: a key running in one process is in flight in another`, () =>
        Effect.gen(function*() {
          // A second store over the same database knows nothing of the first's running keys: only
          // the database (the advisory lock, the pending row) can tell it.
          const first = yield* IdempotencyStore
          const second = Context.get(yield* Layer.build(IdempotencyStorePg), IdempotencyStore)
          const account = yield* AccountRepository.use((accounts) =>
            accounts.create({ name: "Two processes", plan: "business", webhookLimit: null, otpCredits: 0 })
          )
          const claim = { accountId: account.id, principal: "token:7", key: `race-${mode}`, fingerprint: "f" }
          const keep = { status: 201, contentType: "application/json", body: "{}", callerChecks: [{ _tag: "TokenOnly" as const }] }
          const started = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const slow = Effect.gen(function*() {
            yield* Deferred.succeed(started, undefined)
            yield* Deferred.await(release)
            return { value: "first", keep }
          })
          const running = yield* Effect.forkChild(first.run(claim, mode, slow))
          yield* Deferred.await(started)
          expect(yield* second.run(claim, mode, Effect.succeed({ value: "second", keep }))).toEqual({ _tag: "InFlight" })
          yield* Deferred.succeed(release, undefined)
          expect(yield* Fiber.join(running)).toEqual({ _tag: "Ran", value: "first" })
          expect(yield* second.run(claim, mode, Effect.succeed({ value: "second", keep })))
            .toEqual({ _tag: "Replayed", answer: keep })
        }).pipe(Effect.scoped))
    }
  })
})
