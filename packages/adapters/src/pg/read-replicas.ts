/**
 * Read replicas: the records' list, search and export reads on a PostgreSQL standby (streaming
 * replication) when it has caught up enough, everything else on the primary.
 *
 * "Enough" is where the primary's WAL was when the read began (`pg_current_wal_lsn()`, one
 * trivial query on the primary): a standby that has replayed that far (`pg_last_wal_replay_lsn()`)
 * holds every write committed before the read, whoever made it and through whichever process,
 * so a client always reads its own writes — a list right after a create includes the record. A
 * position kept per client would spare that query, but only inside the process that made the
 * write; the primary's position holds across every API process at the cost of one round trip,
 * while the heavy statement (the filtered, counted, ordered list) runs on the standby.
 *
 * A standby that is behind is skipped for that read (the next one asks again); one that does not
 * answer within the probe's bound (`probeTimeout`), or fails, is left alone for `restFor` and the
 * read goes to the next standby or the primary: a read never waits on a replica past a bounded
 * time. Inside a transaction a read stays on the transaction's connection (the primary), unless it
 * says it does not need the transaction's view (an export's batch).
 *
 * Every read counts in `wasl_database_reads_total` by where it ran (`replica`, `primary`) and why
 * (`caught_up`, `no_replica`, `lagging`, `unavailable`, `transaction`).
 *
 * @module
 */
import { PgClient } from "@effect/sql-pg"
import { Clock, Context, Duration, Effect, Layer, Metric, Option, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { pgClientOptions } from "../db/database.ts"

/** Reads by where they ran and why. */
export const databaseReadsTotal: Metric.Counter<number> = Metric.counter("wasl_database_reads_total", {
  description: "Replica-eligible reads (record lists, searches, exports), by target (replica, primary) and reason.",
  incremental: true
})

/** What `ReadReplicas` offers. */
export interface ReadReplicasShape {
  /**
   * Runs `read` on a standby's client that has replayed the primary's WAL as far as it was when the
   * read began, else on the primary's. `read` must only read.
   */
  readonly read: <A>(read: (sql: SqlClient) => Effect.Effect<A, SqlError>, options?: ReadOptions) => Effect.Effect<A, SqlError>
}

/** How a read may leave the primary. */
export interface ReadOptions {
  /**
   * The read does not need the view of the transaction it runs in (an export's batch reads the
   * records, and only writes its own file and place): on a replica even then. Default false: in a
   * transaction, the read stays on its connection.
   */
  readonly apartFromTransaction?: boolean | undefined
}

const ReadReplicasBase: Context.ServiceClass<ReadReplicas, "@wasl/adapters/ReadReplicas", ReadReplicasShape> = Context.Service<
  ReadReplicas,
  ReadReplicasShape
>()("@wasl/adapters/ReadReplicas")

/** Where the records' list, search and export reads run (`ReadReplicasPg`); without it, on the primary. */
export class ReadReplicas extends ReadReplicasBase {}

/** Options of `ReadReplicasPg`. */
export interface ReadReplicasOptions {
  /** How long a standby has to answer whether it has caught up. Default 1 second. */
  readonly probeTimeout?: Duration.Input | undefined
  /** How long a read may run on a standby before it is asked of the primary. Default 30 seconds. */
  readonly readTimeout?: Duration.Input | undefined
  /** How long a standby that failed is left alone. Default 5 seconds. */
  readonly restFor?: Duration.Input | undefined
  /** Connections per standby. Default 5. */
  readonly maxConnections?: number | undefined
}

interface Standby {
  readonly sql: SqlClient
  restingUntil: number
}

const counted = (target: "replica" | "primary", reason: string) =>
  Metric.update(Metric.withAttributes(databaseReadsTotal, { target, reason }), 1)

/**
 * `ReadReplicas` on the standbys at `urls` (`WASL_DATABASE_READ_URL`), the primary being the
 * `SqlClient` in context. Each standby has a small pool of its own, opened on first use.
 */
export const ReadReplicasPg = (
  urls: ReadonlyArray<string>,
  options: ReadReplicasOptions = {}
): Layer.Layer<ReadReplicas, never, SqlClient> =>
  Layer.effect(
    ReadReplicas,
    Effect.gen(function*() {
      const primary = yield* SqlClient
      const probeTimeout = Duration.fromInputUnsafe(options.probeTimeout ?? Duration.seconds(1))
      const readTimeout = Duration.fromInputUnsafe(options.readTimeout ?? Duration.seconds(30))
      const restFor = Duration.toMillis(Duration.fromInputUnsafe(options.restFor ?? Duration.seconds(5)))
      const standbys: Array<Standby> = []
      for (const url of urls) {
        const client = yield* PgClient.make({
          ...pgClientOptions,
          url: Redacted.make(url),
          maxConnections: options.maxConnections ?? 5,
          connectTimeout: probeTimeout
        }).pipe(Effect.orDie)
        standbys.push({ sql: client, restingUntil: 0 })
      }
      let next = 0

      /** The read on `standby` if it has replayed up to `position`; None when it is behind. */
      const onStandby = <A>(standby: Standby, position: string, read: (sql: SqlClient) => Effect.Effect<A, SqlError>) =>
        Effect.gen(function*() {
          const [row] = yield* standby.sql<{ readonly caught_up: boolean }>`
            SELECT coalesce(pg_last_wal_replay_lsn() >= ${position}::pg_lsn, false) AS caught_up
          `.pipe(Effect.timeout(probeTimeout))
          if (row?.caught_up !== true) return Option.none<A>()
          return Option.some(yield* Effect.timeout(read(standby.sql), readTimeout))
        })

      const read = <A>(run: (sql: SqlClient) => Effect.Effect<A, SqlError>, options: ReadOptions = {}): Effect.Effect<A, SqlError> =>
        Effect.gen(function*() {
          if (options.apartFromTransaction !== true && Option.isSome(yield* Effect.serviceOption(primary.transactionService))) {
            yield* counted("primary", "transaction")
            return yield* run(primary)
          }
          if (standbys.length === 0) {
            yield* counted("primary", "no_replica")
            return yield* run(primary)
          }
          const now = yield* Clock.currentTimeMillis
          const start = next++ % standbys.length
          const ready = [...standbys.slice(start), ...standbys.slice(0, start)].filter((s) => s.restingUntil <= now)
          if (ready.length === 0) {
            yield* counted("primary", "unavailable")
            return yield* run(primary)
          }
          const [at] = yield* primary<{ readonly position: string }>`SELECT pg_current_wal_lsn()::text AS position`
          const position = at!.position
          let reason = "lagging"
          for (const standby of ready) {
            const outcome = yield* Effect.result(onStandby(standby, position, run))
            if (outcome._tag === "Success" && Option.isSome(outcome.success)) {
              yield* counted("replica", "caught_up")
              return outcome.success.value
            }
            if (outcome._tag === "Failure") {
              standby.restingUntil = now + restFor
              reason = "unavailable"
              yield* Effect.logWarning("A read replica did not answer; reading from the primary meanwhile").pipe(
                Effect.annotateLogs({ cause: String(outcome.failure) })
              )
            }
          }
          yield* counted("primary", reason)
          return yield* run(primary)
        })

      return ReadReplicas.of({ read })
    })
  ).pipe(Layer.provide(Reactivity.layer))
