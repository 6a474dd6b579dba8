/**
 * Pruning keeps pace while deliveries go on (PostgreSQL only: the point is PostgreSQL's locks and
 * indexes at scale). A running worker finds a million attempts of deliveries that finished 60 days
 * ago (past the 30-day default retention), seeded in one statement, and prunes them in its small
 * batches while events keep coming and the same worker fans them out, delivers them and records
 * their attempts. In the end the old rows are all gone, every new delivery is recorded with its
 * attempt, and nothing recent went: neither deliveries that finished yesterday, nor a pending
 * delivery however old.
 */
import { assert, describe, it } from "@effect/vitest"
import { TestDatabase, postgresTestEnabled } from "@wasl/adapters/testing"
import { SecretBox } from "@wasl/core/Auth"
import { Outbox } from "@wasl/core/Events"
import { WebhookTransport, type WebhookResponse } from "@wasl/core/Webhooks"
import { Duration, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { runDeliveryWorker } from "../src/index.ts"
import { seedOldDeliveries } from "../../../test/support/old-deliveries.ts"
import { until, workerServices } from "./support.ts"

/** 200,000 deliveries of 5 attempts: a million attempts. */
const OLD_DELIVERIES = 200_000
const ATTEMPTS_EACH = 5
/** Finished yesterday: within the retention. */
const RECENT_DELIVERIES = 1_000

const Answering = Layer.succeed(WebhookTransport, WebhookTransport.of({
  post: () => Effect.succeed({ _tag: "Answered", status: 200, body: "", durationMillis: 1 } satisfies WebhookResponse as WebhookResponse)
}))

const count = (query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<{ readonly n: unknown }>, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => query(sql).pipe(Effect.orDie, Effect.map((rows) => Number(rows[0]!.n))))

describe.runIf(postgresTestEnabled())("runDeliveryWorker: pruning on PostgreSQL", () => {
  it.live("prunes a million old attempts while new deliveries are made and recorded; nothing recent goes", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [account] = yield* sql<{ id: number }>`
        INSERT INTO accounts (name, created_at, updated_at) VALUES ('pruning test', now(), now()) RETURNING id
      `
      const accountId = Number(account!.id)
      const sealed = yield* (yield* SecretBox).seal("p".repeat(32))
      const [hook] = yield* sql<{ id: number }>`
        INSERT INTO webhooks (account_id, url, secret_sealed, is_validated, is_active, created_at, updated_at)
        VALUES (${accountId}, 'https://receiver.example/hook', ${sealed}, true, true, now(), now()) RETURNING id
      `
      const webhookId = Number(hook!.id)
      yield* sql`
        INSERT INTO webhook_events (account_id, webhook_id, name, created_at, updated_at)
        VALUES (${accountId}, ${webhookId}, 'deal-created', now(), now())
      `
      yield* seedOldDeliveries(sql, {
        accountId,
        webhookId,
        deliveries: OLD_DELIVERIES,
        attemptsEach: ATTEMPTS_EACH,
        finishedAgo: "60 days",
        idPrefix: "0001"
      })
      yield* seedOldDeliveries(sql, {
        accountId,
        webhookId,
        deliveries: RECENT_DELIVERIES,
        attemptsEach: ATTEMPTS_EACH,
        finishedAgo: "1 day",
        idPrefix: "0002"
      })
      // Pending for 60 days (its next attempt far ahead): never pruned.
      const [pending] = yield* sql<{ id: string }>`
        INSERT INTO deliveries (account_id, id, webhook_id, event, body, status, attempts, next_attempt_at, created_at, updated_at)
        VALUES (${accountId}, gen_random_uuid(), ${webhookId}, 'deal-created', '{}', 'pending', 1,
                now() + interval '1 year', now() - interval '60 days', now() - interval '60 days')
        RETURNING id::text AS id
      `
      assert.strictEqual(
        yield* count((sql) => sql`SELECT count(*) AS n FROM delivery_attempts`),
        (OLD_DELIVERIES + RECENT_DELIVERIES) * ATTEMPTS_EACH
      )
      const oldLeft = count((sql) =>
        sql`SELECT count(*) AS n FROM (
          SELECT 1 FROM deliveries WHERE status <> 'pending' AND updated_at < now() - interval '30 days' LIMIT 1
        ) s`
      )

      const scope = yield* Scope.make()
      yield* Scope.provide(runDeliveryWorker({ pruneBatch: 500, pruneInterval: Duration.millis(50) }), scope)
      // Events keep coming while the worker prunes: ten every 20 ms, until the old rows are gone.
      let events = 0
      const append = Outbox.use((outbox) =>
        outbox.append(Array.from({ length: 10 }, () => ({ accountId, name: "deal-created" as const, payload: { n: events } })))
      ).pipe(Effect.andThen(Effect.sync(() => (events += 10))))
      // Each append is counted with its commit: the producer stops between appends, never within.
      const producer = yield* Effect.forkChild(Effect.forever(Effect.andThen(Effect.uninterruptible(append), Effect.sleep(Duration.millis(20)))))
      yield* until(Effect.map(oldLeft, (n) => n === 0), "every old delivery pruned", Duration.minutes(3))
      yield* Fiber.interrupt(producer)

      const made = count((sql) => sql`SELECT count(*) AS n FROM deliveries WHERE event_id IS NOT NULL AND status = 'succeeded'`)
      yield* until(Effect.map(made, (n) => n === events), "every new delivery recorded", Duration.minutes(1))
      yield* Scope.close(scope, Exit.void)

      assert.isAbove(events, 0)
      assert.strictEqual(
        yield* count((sql) =>
          sql`SELECT count(*) AS n FROM delivery_attempts a JOIN deliveries d ON d.account_id = a.account_id AND d.id = a.delivery_id
              WHERE d.event_id IS NOT NULL`
        ),
        events
      )
      assert.strictEqual(yield* count((sql) => sql`SELECT count(*) AS n FROM deliveries WHERE updated_at < now() - interval '30 days' AND status <> 'pending'`), 0)
      // Every attempt left belongs to a delivery still there: the old ones went with theirs.
      assert.strictEqual(
        yield* count((sql) => sql`SELECT count(*) AS n FROM delivery_attempts`),
        RECENT_DELIVERIES * ATTEMPTS_EACH + events
      )
      assert.strictEqual(
        yield* count((sql) => sql`SELECT count(*) AS n FROM deliveries WHERE event_id IS NULL AND status = 'succeeded'`),
        RECENT_DELIVERIES
      )
      assert.strictEqual(yield* count((sql) => sql`SELECT count(*) AS n FROM deliveries WHERE id = ${pending!.id}::uuid`), 1)
    }).pipe(Effect.provide(workerServices(Answering, TestDatabase.postgres))), { timeout: 300_000 })
})
