import {
  type ClaimedOutboxEvent,
  currentTraceParent,
  type NewOutboxEvent,
  Outbox,
  type OutboxEvent,
  type OutboxEventKey,
  traceParentField
} from "@wasl/core/Events"
import { EventName } from "@wasl/core/Records"
import { Array as Arr, Clock, DateTime, Duration, Effect, Layer, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeRows } from "./rows.ts"
import { UUID_TEXT } from "../repository-semantics.ts"

/** The channel `outbox_events` NOTIFYs after each insert (migration 0003) and after `release`. */
export const OUTBOX_CHANNEL = "wasl_outbox"

const EventRow = Schema.Struct({
  account_id: DbInt,
  id: Schema.String,
  name: EventName,
  payload: Schema.Unknown,
  occurred_at_micros: DbInt,
  claimed_until: DbTimestamp,
  attempts: DbInt,
  trace_parent: Schema.NullOr(Schema.String)
})

const decodeEvents = decodeRows(EventRow)

/** Keys per statement of `complete`/`release` (two parameters each, far below the 65,535 limit). */
const KEY_BATCH = 1000

/** Unix microseconds as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, which PostgreSQL parses exactly. */
const formatMicrosIso = (micros: number): string => {
  const ms = Math.floor(micros / 1000)
  return `${new Date(ms).toISOString().slice(0, -1)}${String(micros - ms * 1000).padStart(3, "0")}Z`
}

/** The JSON text of a payload, which must be a JSON object (else a defect, like the table's CHECK). */
const payloadJson = (payload: unknown): string => {
  const text = JSON.stringify(payload)
  if (text === undefined || !text.startsWith("{")) {
    throw new Error(`outbox_events: the payload must be a JSON object, received ${text ?? typeof payload}`)
  }
  return text
}

/**
 * The outbox on PostgreSQL (table `outbox_events`, migration 0003; `trace_parent`, migration 0014). `append` runs on the ambient
 * `SqlClient`, so inside `sql.withTransaction` (`TransactorPg`) it is part of that transaction; the
 * insert trigger's NOTIFY goes out at commit. `claim` is one statement:
 * `SELECT ... ORDER BY seq LIMIT n FOR UPDATE SKIP LOCKED` feeding an UPDATE of the lease, so any
 * number of claimers in any number of processes never share an event while its lease holds. Lease
 * times come from Effect's `Clock`.
 */
export const OutboxPg: Layer.Layer<Outbox, never, SqlClient.SqlClient | SecureRandom.SecureRandom> = Layer.effect(
  Outbox,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const random = yield* SecureRandom.SecureRandom

    const keyList = (keys: ReadonlyArray<OutboxEventKey>) =>
      sql.join(", ", false)(keys.map((key) => sql`(${key.accountId}::int8, ${key.id}::uuid)`))

    /** Runs `f` on the well-formed keys, in batches (a malformed id is in no row: ignored). */
    const forKeys = (
      events: ReadonlyArray<OutboxEventKey>,
      f: (keys: ReadonlyArray<OutboxEventKey>) => Effect.Effect<unknown, unknown>
    ) =>
      Effect.forEach(
        Arr.chunksOf(events.filter((event) => UUID_TEXT.test(event.id)), KEY_BATCH),
        f,
        { discard: true }
      ).pipe(Effect.orDie)

    const append = (events: ReadonlyArray<NewOutboxEvent>) =>
      Effect.gen(function*() {
        if (events.length === 0) return []
        const micros = Number((yield* Clock.currentTimeNanos) / 1000n)
        // The span of the use-case that appends (e.g. under a request's server span): absent when
        // traces are not exported, so tracing off stores NULL and costs a context lookup.
        const traceParent = yield* currentTraceParent
        const occurredAt = formatMicrosIso(micros)
        const rows: Array<OutboxEvent> = []
        const values: Array<Record<string, unknown>> = []
        for (const event of events) {
          // Serialized once: the text is stored as it is, and the event answered carries it parsed,
          // as a claimer will read it.
          const text = payloadJson(event.payload)
          const row: OutboxEvent = {
            id: yield* random.uuidV4(),
            accountId: event.accountId,
            name: event.name,
            payload: JSON.parse(text),
            occurredAtMicros: micros,
            claimedUntil: null,
            attempts: 0,
            ...traceParentField(traceParent)
          }
          rows.push(row)
          values.push({
            account_id: row.accountId,
            id: row.id,
            name: row.name,
            payload: text,
            occurred_at: occurredAt,
            trace_parent: traceParent ?? null
          })
        }
        if (Arr.isArrayNonEmpty(values)) {
          yield* sql`INSERT INTO outbox_events ${sql.insert(values)}`.pipe(Effect.orDie)
        }
        return rows
      })

    const claim = (limit: number, leaseFor: Duration.Input) =>
      Effect.gen(function*() {
        const count = Math.floor(limit)
        if (!(count > 0)) return []
        const now = yield* DateTime.now
        const until = DateTime.addDuration(now, Duration.fromInputUnsafe(leaseFor))
        const rows = yield* sql`
          WITH claimable AS (
            SELECT account_id, id FROM outbox_events
            WHERE claimed_until IS NULL OR claimed_until <= ${DateTime.toDateUtc(now)}
            ORDER BY seq
            LIMIT ${count}
            FOR UPDATE SKIP LOCKED
          ), claimed AS (
            UPDATE outbox_events e
            SET claimed_until = ${DateTime.toDateUtc(until)}, attempts = e.attempts + 1
            FROM claimable c
            WHERE e.account_id = c.account_id AND e.id = c.id
            RETURNING e.*
          )
          SELECT account_id, id::text AS id, name, payload,
                 (extract(epoch FROM occurred_at) * 1000000)::int8 AS occurred_at_micros,
                 claimed_until, attempts, trace_parent
          FROM claimed
          ORDER BY seq
        `.pipe(Effect.orDie, Effect.flatMap(decodeEvents))
        return rows.map((row): ClaimedOutboxEvent => ({
          id: row.id,
          accountId: row.account_id,
          name: row.name,
          payload: row.payload,
          occurredAtMicros: row.occurred_at_micros,
          claimedUntil: row.claimed_until,
          attempts: row.attempts,
          ...traceParentField(row.trace_parent)
        }))
      })

    const complete = (events: ReadonlyArray<OutboxEventKey>) =>
      forKeys(events, (keys) => sql`DELETE FROM outbox_events WHERE (account_id, id) IN (VALUES ${keyList(keys)})`)

    const release = (events: ReadonlyArray<OutboxEventKey>) =>
      forKeys(events, (keys) =>
        sql`
          WITH released AS (
            UPDATE outbox_events SET claimed_until = NULL
            WHERE (account_id, id) IN (VALUES ${keyList(keys)})
            RETURNING 1
          )
          SELECT pg_notify(${OUTBOX_CHANNEL}, '') WHERE EXISTS (SELECT 1 FROM released)
        `)

    return Outbox.of({ append, claim, complete, release })
  })
)
