import { Readiness } from "@wasl/core/Deployment"
import { Cause, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { migrations } from "../db/migrations/index.ts"
import { migrationsTable } from "../db/database.ts"

/**
 * How long a readiness check waits for the database: a probe must answer before its own timeout
 * (Kubernetes' default is 1 s), and a database that takes longer is not serving anyway.
 */
const CHECK_TIMEOUT = Duration.millis(900)

/**
 * Readiness on PostgreSQL: one statement reads the newest applied migration. Ready when it
 * answers in time and every migration of this build is applied; a newer one (applied by a newer
 * replica during a rolling deployment) still counts, as migrations only add what older code ignores.
 * Why it is not ready goes to the log, never to the caller.
 */
export const ReadinessPg: Layer.Layer<Readiness, never, SqlClient.SqlClient> = Layer.effect(
  Readiness,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const known = yield* Effect.orDie(migrations)
    const latest = Math.max(0, ...known.map(([id]) => id))
    const newestApplied = sql.unsafe<{ readonly newest: number | null }>(
      `SELECT max(migration_id) AS newest FROM ${migrationsTable}`
    ).pipe(Effect.map((rows) => Number(rows[0]?.newest ?? 0)))
    return Readiness.of({
      check: newestApplied.pipe(
        Effect.timeout(CHECK_TIMEOUT),
        Effect.flatMap((newest) =>
          newest >= latest
            ? Effect.succeed(true)
            : Effect.as(Effect.logWarning("not ready: migrations pending").pipe(
              Effect.annotateLogs({ applied: newest, expected: latest })
            ), false)
        ),
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.interrupt
            : Effect.as(Effect.logWarning("not ready: the database does not answer", cause), false)
        )
      )
    })
  })
)
