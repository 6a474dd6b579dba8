/**
 * `WaslPostgres.layer` listens for notifications (the caches' invalidations, the worker's queue
 * signals, the notification feed) over one session of its own, outside the query pool: the pool
 * keeps every connection it was given, even a pool of one, and a listening session that ends is
 * replaced. On PostgreSQL only (the embedded database holds no listening connection).
 */
import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { QueueSignals, type WorkQueue } from "@wasl/core/Events"
import { NotificationFeed } from "@wasl/core/Notifications"
import { Context, Deferred, Duration, Effect, Layer, Queue, Redacted, Schedule } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { pgClientOptions } from "../../src/db/database.ts"
import { makePostgresTestDatabase, postgresTestEnabled, testPostgresUrl } from "../../src/db/test-database.ts"
import { WaslPostgres } from "../../src/deployment/wasl-postgres.ts"
import { OUTBOX_CHANNEL } from "../../src/pg/outbox-pg.ts"

/** Wasl on a fresh database with a pool of one connection, and a client of the test's own beside it. */
const onePooledConnection = Effect.gen(function*() {
  const { url } = yield* makePostgresTestDatabase(testPostgresUrl()!)
  const wasl = yield* Layer.build(WaslPostgres.layer({ url, maxConnections: 1, secretKey: "5a".repeat(32) }))
  const observer = yield* PgClient.make({ ...pgClientOptions, url: Redacted.make(url), maxConnections: 1 }).pipe(
    Effect.provide(Reactivity.layer)
  )
  return { wasl, observer }
})

/** The sessions of this database whose last statement was a LISTEN. */
const listeningSessions = (observer: PgClient.PgClient) =>
  observer<{ readonly pid: number }>`
    SELECT pid FROM pg_stat_activity
    WHERE datname = current_database() AND application_name = 'wasl' AND query LIKE 'LISTEN %'
  `

/** Subscribes to a queue's signals; answers a queue of them (the first comes once it listens). */
const signalsOf = (queue: WorkQueue) =>
  Effect.gen(function*() {
    const signals = yield* Queue.unbounded<void>()
    yield* (yield* QueueSignals).subscribe(queue, Queue.offer(signals, undefined))
    return signals
  })

describe.runIf(postgresTestEnabled())("listening on PostgreSQL", () => {
  it.live("every channel shares one session outside the pool: a pool of one still runs queries", () =>
    Effect.gen(function*() {
      const { observer, wasl } = yield* onePooledConnection
      const outbox = yield* signalsOf("outbox").pipe(Effect.provideContext(wasl))
      const deliveries = yield* signalsOf("deliveries").pipe(Effect.provideContext(wasl))
      yield* Queue.take(outbox)
      yield* Queue.take(deliveries)
      // Subscribing returns once the feed listens.
      yield* (yield* Effect.provideContext(Effect.service(NotificationFeed), wasl)).subscribe(1, 1)

      // Three channels, one session; the pool's one connection is free for the query.
      assert.lengthOf(yield* listeningSessions(observer), 1)
      const sql = Context.get(wasl, SqlClient.SqlClient)
      assert.deepStrictEqual(yield* sql<{ readonly one: number }>`SELECT 1 AS one`, [{ one: 1 }])
    }), { timeout: 60_000 })

  it.live("a listening session that ends is replaced, and notifications arrive again", () =>
    Effect.gen(function*() {
      const { observer, wasl } = yield* onePooledConnection
      const outbox = yield* signalsOf("outbox").pipe(Effect.provideContext(wasl))
      yield* Queue.take(outbox)
      const [first] = yield* listeningSessions(observer)

      yield* observer`SELECT pg_terminate_backend(${first!.pid})`
      // Listening again (its first signal), on another session.
      yield* Queue.take(outbox)
      const [second] = yield* listeningSessions(observer).pipe(
        Effect.filterOrFail((rows) => rows.length === 1 && rows[0]!.pid !== first!.pid),
        Effect.retry(Schedule.spaced(Duration.millis(50)))
      )
      assert.notStrictEqual(second!.pid, first!.pid)

      const notified = yield* Deferred.make<void>()
      yield* Effect.forkScoped(Effect.andThen(Queue.take(outbox), Deferred.succeed(notified, undefined)))
      yield* observer`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`
      yield* Deferred.await(notified)
    }), { timeout: 60_000 })
})
