import { CallerCheck } from "@wasl/core/Auth"
import { Transactor } from "@wasl/core/Deployment"
import {
  IDEMPOTENCY_KEY_LIFETIME,
  type IdempotencyClaim,
  type IdempotencyMode,
  type IdempotencyOutcome,
  IdempotencyStore,
  type IdempotentWork,
  type KeptAnswer
} from "@wasl/core/Idempotency"
import { DateTime, Effect, Exit, Layer, Option, Result, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, decodeFirst } from "./rows.ts"
import { TransactorPg } from "./transactor-pg.ts"

const KeyRow = Schema.Struct({
  fingerprint: Schema.String,
  state: Schema.Literals(["pending", "done"]),
  status: Schema.NullOr(DbInt),
  content_type: Schema.NullOr(Schema.String),
  body: Schema.NullOr(Schema.String),
  caller_checks: Schema.NullOr(Schema.Array(CallerCheck))
})

const decodeOne = decodeFirst(KeyRow)

/** What a live row of the key says, or undefined to go on: the key is free (never used, or expired). */
const outcomeOf = (claim: IdempotencyClaim, row: typeof KeyRow.Type): IdempotencyOutcome<never> => {
  if (row.state === "pending") return { _tag: "InFlight" }
  if (row.fingerprint !== claim.fingerprint) return { _tag: "Mismatch" }
  return {
    _tag: "Replayed",
    answer: { status: row.status!, contentType: row.content_type!, body: row.body!, callerChecks: row.caller_checks }
  }
}

/**
 * Idempotency keys on PostgreSQL (table `idempotency_keys`, migrations 0010 and 0021: a kept
 * answer's caller checks as JSON in `caller_checks`).
 *
 * A request with a key already running in this process is `InFlight` at once, without a statement
 * (an embedded database runs one transaction at a time, so the second request would otherwise wait
 * for the first's). Across processes, a request with a key first takes a transaction-level advisory lock on the key's hash with
 * `pg_try_advisory_xact_lock`: a second request with the key while the first's transaction is open
 * does not get it and is `InFlight` at once, on any replica, instead of waiting on the unique
 * index. Under the lock it reads the key's live row (`expires_at` after the Clock's now).
 * - `"transaction"`: the work runs in that same transaction, and the answer is written by it
 *   before it commits: the change and its kept answer commit together, a crash keeps neither. A
 *   work that fails commits what it wrote without a row for the key.
 * - `"outside"`: the transaction writes a `pending` row and commits; the work runs; then the row
 *   becomes `done` with its answer, or is deleted when the work failed (or keeps nothing), even on
 *   interruption. A `pending` row is `InFlight` to every later request until it expires.
 * An expired row is overwritten by the next use of its key.
 */
export const IdempotencyStorePg: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactor = yield* Transactor

    /** Under the key's advisory lock: the outcome the key's live row dictates, none when the key is free. */
    const inspect = (claim: IdempotencyClaim) =>
      Effect.gen(function*() {
        const [lock] = yield* sql<{ locked: boolean }>`
          SELECT pg_try_advisory_xact_lock(hashtextextended(${lockText(claim)}, 0)) AS locked
        `
        if (lock?.locked !== true) return Option.some<IdempotencyOutcome<never>>({ _tag: "InFlight" })
        const now = DateTime.toDateUtc(yield* DateTime.now)
        const row = yield* decodeOne(
          yield* sql`
            SELECT fingerprint, state, status, content_type, body, caller_checks FROM idempotency_keys
            WHERE account_id = ${claim.accountId} AND principal = ${claim.principal} AND key = ${claim.key}
              AND expires_at > ${now}
          `
        )
        return Option.map(row, (r) => outcomeOf(claim, r))
      })

    /** Writes the key's row (over an expired one): `pending`, or `done` with its answer. */
    const write = (claim: IdempotencyClaim, answer: KeptAnswer | undefined) =>
      Effect.gen(function*() {
        const now = yield* DateTime.now
        const expiresAt = DateTime.toDateUtc(DateTime.addDuration(now, IDEMPOTENCY_KEY_LIFETIME))
        yield* sql`
          INSERT INTO idempotency_keys
            (account_id, principal, key, fingerprint, state, status, content_type, body, caller_checks, created_at, expires_at)
          VALUES (${claim.accountId}, ${claim.principal}, ${claim.key}, ${claim.fingerprint},
                  ${answer === undefined ? "pending" : "done"}, ${answer?.status ?? null},
                  ${answer?.contentType ?? null}, ${answer?.body ?? null}, ${callerChecksParam(answer)}::jsonb,
                  ${DateTime.toDateUtc(now)}, ${expiresAt})
          ON CONFLICT (account_id, principal, key) DO UPDATE SET
            fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state, status = EXCLUDED.status,
            content_type = EXCLUDED.content_type, body = EXCLUDED.body, caller_checks = EXCLUDED.caller_checks,
            created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        `
      })

    const settle = (claim: IdempotencyClaim, answer: KeptAnswer | undefined) =>
      answer === undefined
        ? sql`
          DELETE FROM idempotency_keys
          WHERE account_id = ${claim.accountId} AND principal = ${claim.principal} AND key = ${claim.key}
            AND state = 'pending'
        `
        : sql`
          UPDATE idempotency_keys SET state = 'done', status = ${answer.status},
            content_type = ${answer.contentType}, body = ${answer.body}, caller_checks = ${callerChecksParam(answer)}::jsonb
          WHERE account_id = ${claim.accountId} AND principal = ${claim.principal} AND key = ${claim.key}
            AND state = 'pending'
        `

    const inFlight = new Set<string>()

    const runOnce = <A, E, R>(
      claim: IdempotencyClaim,
      mode: IdempotencyMode,
      work: Effect.Effect<IdempotentWork<A>, E, R>
    ): Effect.Effect<IdempotencyOutcome<A>, E, R> => {
      if (mode === "transaction") {
        return Effect.flatten(transactor.transaction(Effect.gen(function*(): Effect.fn.Return<Effect.Effect<IdempotencyOutcome<A>, E>, never, R> {
          const taken = yield* Effect.orDie(inspect(claim))
          if (Option.isSome(taken)) return Effect.succeed(taken.value)
          // A failed work commits what it wrote, as it would without a key (a wrong code's attempt).
          const done = yield* Effect.result(work)
          if (Result.isFailure(done)) return Effect.fail(done.failure)
          if (done.success.keep !== undefined) yield* Effect.orDie(write(claim, done.success.keep))
          return Effect.succeed({ _tag: "Ran", value: done.success.value } as const)
        })))
      }
      return Effect.gen(function*() {
        const taken = yield* transactor.transaction(Effect.orDie(Effect.gen(function*() {
          const taken = yield* inspect(claim)
          if (Option.isNone(taken)) yield* write(claim, undefined)
          return taken
        })))
        if (Option.isSome(taken)) return taken.value
        const done = yield* Effect.onExit(work, (exit) =>
          Effect.orDie(settle(claim, Exit.isSuccess(exit) ? exit.value.keep : undefined)))
        return { _tag: "Ran", value: done.value } as const
      })
    }

    return IdempotencyStore.of({
      run: (claim, mode, work) =>
        Effect.suspend(() => {
          const text = lockText(claim)
          if (inFlight.has(text)) return Effect.succeed({ _tag: "InFlight" } as const)
          inFlight.add(text)
          return runOnce(claim, mode, work).pipe(Effect.ensuring(Effect.sync(() => inFlight.delete(text))))
        })
    })
  })
).pipe(Layer.provide(TransactorPg))

/** The `caller_checks` of a row as its JSON text, or NULL (a pending row). */
const callerChecksParam = (answer: KeptAnswer | undefined): string | null =>
  answer === undefined || answer.callerChecks === null ? null : JSON.stringify(answer.callerChecks)

/** The text whose hash is the key's advisory lock (JSON, so no separator can be forged). */
const lockText = (claim: IdempotencyClaim): string => JSON.stringify(["idempotency", claim.accountId, claim.principal, claim.key])
