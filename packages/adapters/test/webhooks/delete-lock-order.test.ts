/**
 * Deleting a webhook while its delivery's last attempt is recorded: both take their row locks in
 * one order — the webhook row first, then its deliveries — so neither can wait for the other in a
 * cycle (PostgreSQL would abort one of them with a deadlock, 40P01: a 500 for the delete, or an
 * exhausting attempt left unrecorded).
 *
 * The race is made to happen every time: the exhausting transaction pauses just after its first
 * lock, and the delete runs in that pause. With deliveries locked first (the old order), the
 * delete then holds the webhook and waits for the delivery, while the exhaust waits for the
 * webhook: a deadlock on every iteration.
 */
import { assert, describe, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import {
  type AttemptRecord,
  type AttemptResult,
  DeliveryRepository,
  type PendingAttempt,
  recordAttempts
} from "@wasl/core/Deliveries"
import { type WaslRepositories } from "@wasl/core/Deployment"
import { WebhookRepository } from "@wasl/core/Webhooks"
import { DateTime, Deferred, Duration, Effect, Fiber, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { SqlClient } from "effect/sql"
import { MigrationsLive } from "../../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../../src/db/test-database.ts"
import { RepositoriesPg } from "../../src/pg/index.ts"
import { drainDeliveries, newWebhook } from "../../src/testing/index.ts"
import { repositoriesInMemory, repositoriesOn } from "../repository-layers.ts"

const ITERATIONS = 12
/** How long the exhausting transaction holds its first lock before it takes the second. */
const PAUSE = Duration.millis(30)

/** The repository, pausing after the first lock-taking call of the transaction it serves. */
const pausingAfterFirstLock = (
  repo: DeliveryRepository["Service"],
  firstLockTaken: Deferred.Deferred<void>
): DeliveryRepository["Service"] => {
  let calls = 0
  const pauseOnFirst = Effect.suspend(() =>
    calls++ === 0 ? Effect.andThen(Deferred.succeed(firstLockTaken, undefined), Effect.sleep(PAUSE)) : Effect.void
  )
  return {
    ...repo,
    recordAttempts: (records) => Effect.tap(repo.recordAttempts(records), () => pauseOnFirst),
    lockWebhook: (accountId, webhookId) => Effect.tap(repo.lockWebhook(accountId, webhookId), () => pauseOnFirst)
  }
}

/** A webhook two failures from deactivation, with one delivery whose sixth (last) attempt just failed. */
const exhaustingDelivery = (accountId: number) =>
  Effect.gen(function*() {
    const repo = yield* DeliveryRepository
    const webhookId = yield* newWebhook(accountId, "https://lock-order.example/hook", ["deal-created"], {
      isValidated: true,
      isActive: true,
      consecutiveFailures: 2,
      lastFailureAt: null
    })
    const now = yield* DateTime.now
    yield* repo.insert([{
      accountId,
      id: globalThis.crypto.randomUUID(),
      webhookId,
      event: "deal-created",
      body: `{"time":1,"event":"deal-created","deal":{}}`,
      eventId: null,
      state: { status: "pending", attempts: 5, nextAttemptAt: now },
      createdAt: now
    }])
    const [claimed] = yield* repo.claimDue(1, Duration.minutes(1))
    assert.isDefined(claimed)
    const finishedAt = yield* DateTime.now
    const pending: PendingAttempt = {
      delivery: claimed!,
      record: {
        lease: { accountId, id: claimed!.id, claimedUntil: claimed!.claimedUntil },
        state: { status: "failed", attempts: 6, nextAttemptAt: null },
        attempt: { number: 6, at: finishedAt, statusCode: 500, durationMillis: 3, error: null, responseExcerpt: "down" },
        clearsFailures: false
      },
      outcome: "Exhausted",
      finishedAt
    }
    return { webhookId, pending }
  })

const lockOrderSuite = <E>(name: string, implementation: Layer.Layer<WaslRepositories, E>) =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("a webhook deleted while its delivery exhausts: both finish, every time, and nothing of it is left", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const webhooks = yield* WebhookRepository
        const account = yield* AccountRepository.use((accounts) =>
          accounts.create({ name: "Lock order", plan: "business", webhookLimit: null, otpCredits: 0 })
        )
        for (let i = 0; i < ITERATIONS; i++) {
          const { webhookId, pending } = yield* exhaustingDelivery(account.id)
          const firstLockTaken = yield* Deferred.make<void>()
          const exhaust = recordAttempts([pending]).pipe(
            Effect.provideService(DeliveryRepository, pausingAfterFirstLock(repo, firstLockTaken))
          )
          const remove = Effect.andThen(Deferred.await(firstLockTaken), webhooks.delete(account.id, webhookId))
          const [results, deleted] = yield* Effect.all([exhaust, remove], { concurrency: "unbounded" })
          assert.isTrue(deleted)
          // Whichever committed first, the attempt is either recorded before the delete or dropped with it.
          assert.includeMembers<AttemptResult>(["Exhausted", "Dropped"], results)
          assert.isFalse(yield* repo.webhookExists(account.id, webhookId))
          const log = yield* repo.list(account.id, webhookId, { offset: 0, limit: 10 })
          assert.strictEqual(log.total, 0)
        }
      }))
  })

lockOrderSuite("webhook delete against an exhausting delivery, in memory", repositoriesInMemory)

lockOrderSuite("webhook delete against an exhausting delivery, on PGlite", repositoriesOn(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  lockOrderSuite("webhook delete against an exhausting delivery, on PostgreSQL", repositoriesOn(TestDatabase.postgres))

  /**
   * A success clears its webhook's failure count in the statement that records it. Forced
   * interleaving: a third transaction holds one of the webhook's subscription rows, so the delete
   * takes the webhook row and waits there, before its cascade reaches the deliveries; the success
   * is recorded meanwhile and waits for the webhook; then the third transaction ends. Had the
   * recording locked the delivery before the webhook, the delete's cascade would now wait for it
   * while it waits for the delete: a deadlock.
   */
  const withClient = RepositoriesPg.pipe(
    Layer.provideMerge(MigrationsLive),
    Layer.provide(SecureRandom.layerWebCrypto),
    Layer.provideMerge(TestDatabase.postgres)
  )
  layer(withClient, { excludeTestServices: true, timeout: Duration.seconds(60) })(
    "webhook delete against a success clearing the failure count, on PostgreSQL",
    (it) => {
      it.effect("both finish: the delete first, the success then records nothing", () =>
        Effect.gen(function*() {
          yield* drainDeliveries
          const sql = yield* SqlClient.SqlClient
          const repo = yield* DeliveryRepository
          const webhooks = yield* WebhookRepository
          const account = yield* AccountRepository.use((accounts) =>
            accounts.create({ name: "Lock order", plan: "business", webhookLimit: null, otpCredits: 0 })
          )
          const { webhookId, pending } = yield* exhaustingDelivery(account.id)
          const success: AttemptRecord = {
            ...pending.record,
            state: { status: "succeeded", attempts: 6, nextAttemptAt: null },
            clearsFailures: true
          }
          const lockWaiters = sql<{ n: number }>`
            SELECT count(*)::int4 AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
          `.pipe(Effect.orDie, Effect.map((rows) => rows[0]!.n))
          const waitForLockWaiters = (n: number) =>
            Effect.gen(function*() {
              while ((yield* lockWaiters) < n) yield* Effect.sleep(Duration.millis(5))
            })

          const holding = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const holder = yield* Effect.forkChild(sql.withTransaction(Effect.gen(function*() {
            yield* sql`SELECT 1 FROM webhook_events WHERE account_id = ${account.id} AND webhook_id = ${webhookId} FOR UPDATE`
            yield* Deferred.succeed(holding, undefined)
            yield* Deferred.await(release)
          })).pipe(Effect.orDie))
          yield* Deferred.await(holding)
          const remove = yield* Effect.forkChild(webhooks.delete(account.id, webhookId))
          yield* waitForLockWaiters(1)
          const record = yield* Effect.forkChild(repo.recordAttempts([success]))
          yield* waitForLockWaiters(2)
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(holder)

          assert.isTrue(yield* Fiber.join(remove))
          assert.strictEqual((yield* Fiber.join(record)).size, 0)
          assert.isFalse(yield* repo.webhookExists(account.id, webhookId))
        }))
    }
  )
})
