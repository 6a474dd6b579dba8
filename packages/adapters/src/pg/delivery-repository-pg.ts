import {
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryLease,
  DeliveryRepository,
  DeliveryStatus,
  type DeliveryTarget,
  type DeliveryView,
  type FailedWindow,
  type NewDelivery,
  type RecoveredDelivery
} from "@wasl/core/Deliveries"
import { traceParentField } from "@wasl/core/Events"
import { EventName } from "@wasl/core/Records"
import { type WebhookState } from "@wasl/core/Webhooks"
import { Array as Arr, DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeFirst, decodeRows } from "./rows.ts"
import { WebhookTargetRow, webhookStateOf } from "./webhook-target-row.ts"
import { storableText, UUID_TEXT } from "../repository-semantics.ts"

/** The channel `deliveries` NOTIFYs after each insert (migration 0007). */
export const DELIVERIES_CHANNEL = "wasl_deliveries"

/** Rows per INSERT (12 parameters each, far below the 65,535 limit). */
const INSERT_BATCH = 500
/** Records per `recordAttempts` statement (13 parameters each). */
const RECORD_BATCH = 1000

const ClaimRow = Schema.Struct({
  account_id: DbInt,
  id: Schema.String,
  webhook_id: DbInt,
  event: EventName,
  body: Schema.String,
  status: DeliveryStatus,
  attempts: DbInt,
  next_attempt_at: DbNullOr(DbTimestamp),
  claimed_until: DbTimestamp,
  trace_parent: Schema.NullOr(Schema.String),
  ...WebhookTargetRow.fields
})

const SubscriptionRow = Schema.Struct({ account_id: DbInt, webhook_id: DbInt, event: EventName })

const DeliveryRow = Schema.Struct({
  id: Schema.String,
  event: EventName,
  status: DeliveryStatus,
  next_attempt_at: DbNullOr(DbTimestamp),
  created_at: DbTimestamp
})

const AttemptRow = Schema.Struct({
  delivery_id: Schema.String,
  number: DbInt,
  at: DbTimestamp,
  status_code: Schema.NullOr(DbInt),
  duration_ms: DbInt,
  error: Schema.NullOr(Schema.String),
  response_excerpt: Schema.NullOr(Schema.String)
})

const BodyRow = Schema.Struct({ event: EventName, body: Schema.String })

const decodeClaims = decodeRows(ClaimRow)
const decodeTarget = decodeFirst(WebhookTargetRow)
const decodeSubscriptions = decodeRows(SubscriptionRow)
const decodeDeliveries = decodeRows(DeliveryRow)
const decodeAttempts = decodeRows(AttemptRow)
const decodeBody = decodeFirst(BodyRow)
const decodeTaken = decodeRows(Schema.Struct({ id: Schema.String, event: EventName, body: Schema.String, updated_at: DbTimestamp }))
const decodeNextDue = decodeFirst(Schema.Struct({ next_attempt_at: DbTimestamp }))

const toTarget = (row: WebhookTargetRow): DeliveryTarget => ({
  url: row.url,
  secretSealed: row.secret_sealed,
  state: webhookStateOf(row)
})

const dateOrNull = (dt: DateTime.Utc | null): Date | null => (dt === null ? null : DateTime.toDateUtc(dt))

/**
 * The delivery queue on PostgreSQL (tables `deliveries`, `delivery_attempts`, migration 0007; the
 * webhook columns of migration 0006). Every statement runs on the ambient `SqlClient`, so inside
 * `TransactorPg` it joins that transaction. `claimDue` is one statement (`SELECT ... ORDER BY
 * next_attempt_at LIMIT n FOR UPDATE SKIP LOCKED` feeding the lease UPDATE), and `recordAttempts`
 * is one statement fenced by the leases — preceded, in one transaction, by the locking of the
 * webhooks whose failure count a success clears (when there are any), so that webhook rows are
 * always locked before delivery rows.
 */
export const DeliveryRepositoryPg: Layer.Layer<DeliveryRepository, never, SqlClient.SqlClient> = Layer.effect(
  DeliveryRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const subscribers = (events: ReadonlyArray<{ readonly accountId: number; readonly event: EventName }>) =>
      events.length === 0
        ? Effect.succeed([])
        : sql`
          SELECT w.account_id, w.id AS webhook_id, e.name AS event
          FROM webhook_events e
          JOIN webhooks w ON w.account_id = e.account_id AND w.id = e.webhook_id
          WHERE w.is_validated AND w.is_active
            AND (e.account_id, e.name) IN (VALUES ${
          sql.join(", ", false)(events.map((e) => sql`(${e.accountId}::int8, ${e.event}::text)`))
        })
          ORDER BY w.id
        `.pipe(
          Effect.orDie,
          Effect.flatMap(decodeSubscriptions),
          Effect.map((rows) => rows.map((r) => ({ accountId: r.account_id, webhookId: r.webhook_id, event: r.event })))
        )

    const insert = (deliveries: ReadonlyArray<NewDelivery>) =>
      Effect.forEach(Arr.chunksOf(deliveries, INSERT_BATCH), (chunk) => {
        const rows = Arr.map(chunk, (d) => ({
          account_id: d.accountId,
          id: d.id,
          webhook_id: d.webhookId,
          event_id: d.eventId,
          event: d.event,
          body: d.body,
          status: d.state.status,
          attempts: d.state.attempts,
          next_attempt_at: dateOrNull(d.state.nextAttemptAt),
          created_at: DateTime.toDateUtc(d.createdAt),
          updated_at: DateTime.toDateUtc(d.createdAt),
          trace_parent: d.traceParent ?? null
        }))
        return sql`INSERT INTO deliveries ${sql.insert(rows)} ON CONFLICT (account_id, event_id, webhook_id) DO NOTHING`
      }, { discard: true }).pipe(Effect.orDie)

    const claimDue = (limit: number, leaseFor: Duration.Input) =>
      Effect.gen(function*() {
        const count = Math.floor(limit)
        if (!(count > 0)) return []
        const now = yield* DateTime.now
        const until = DateTime.addDuration(now, Duration.fromInputUnsafe(leaseFor))
        const nowDate = DateTime.toDateUtc(now)
        const rows = yield* sql`
          WITH due AS (
            SELECT account_id, id FROM deliveries
            WHERE status = 'pending' AND next_attempt_at <= ${nowDate}
              AND (claimed_until IS NULL OR claimed_until <= ${nowDate})
            ORDER BY next_attempt_at
            LIMIT ${count}
            FOR UPDATE SKIP LOCKED
          ), claimed AS (
            UPDATE deliveries d SET claimed_until = ${DateTime.toDateUtc(until)}
            FROM due
            WHERE d.account_id = due.account_id AND d.id = due.id
            RETURNING d.account_id, d.id, d.webhook_id, d.event, d.body, d.status, d.attempts,
                      d.next_attempt_at, d.claimed_until, d.trace_parent
          )
          SELECT c.account_id, c.id::text AS id, c.webhook_id, c.event, c.body, c.status, c.attempts,
                 c.next_attempt_at, c.claimed_until, c.trace_parent,
                 w.url, w.secret_sealed, w.is_validated, w.is_active, w.consecutive_failures, w.last_failure_at
          FROM claimed c
          JOIN webhooks w ON w.account_id = c.account_id AND w.id = c.webhook_id
          ORDER BY c.next_attempt_at
        `.pipe(Effect.orDie, Effect.flatMap(decodeClaims))
        return rows.map((row): ClaimedDelivery => ({
          accountId: row.account_id,
          id: row.id,
          webhookId: row.webhook_id,
          event: row.event,
          body: row.body,
          state: { status: row.status, attempts: row.attempts, nextAttemptAt: row.next_attempt_at },
          claimedUntil: row.claimed_until,
          webhook: toTarget(row),
          ...traceParentField(row.trace_parent)
        }))
      })

    const nextDueAt = Effect.gen(function*() {
      const now = DateTime.toDateUtc(yield* DateTime.now)
      const rows = yield* sql`
        SELECT next_attempt_at FROM deliveries
        WHERE status = 'pending' AND (claimed_until IS NULL OR claimed_until <= ${now})
        ORDER BY next_attempt_at
        LIMIT 1
      `.pipe(Effect.orDie, Effect.flatMap(decodeNextDue))
      return Option.map(rows, (row) => row.next_attempt_at)
    })

    /**
     * The webhooks of these deliveries whose failure count is not 0: what a success will clear.
     * With `lock`, they are locked in id order until the transaction ends — BEFORE the deliveries
     * are written, the lock order of deleting a webhook (the webhook row, then its deliveries), so
     * the two never deadlock; in id order, so two recorders never deadlock over them either.
     */
    const webhooksToClear = (records: ReadonlyArray<AttemptRecord>, lock: boolean) =>
      sql<{ id: number }>`
        SELECT w.id FROM webhooks w
        WHERE w.consecutive_failures <> 0 AND (w.account_id, w.id) IN (
          SELECT d.account_id, d.webhook_id FROM deliveries d
          WHERE (d.account_id, d.id) IN (VALUES ${
        sql.join(", ", false)(records.map((r) => sql`(${r.lease.accountId}::int8, ${r.lease.id}::uuid)`))
      })
        )
        ORDER BY w.id
        ${lock ? sql`FOR NO KEY UPDATE OF w` : sql``}
      `.pipe(Effect.map((rows) => rows.map((row) => Number(row.id))))

    /**
     * Records a chunk in one statement: the input rows as VALUES; the fenced UPDATE of the
     * deliveries (`updated`: only those still leased with the given lease); their attempts; and
     * the failure count cleared on `clear`, the webhooks a success went to (already locked).
     */
    const writeRecords = (chunk: ReadonlyArray<AttemptRecord>, now: Date, clear: ReadonlyArray<number>) => {
      const input = sql.join(", ", false)(chunk.map((r) => {
        const a = r.attempt
        return sql`(${r.lease.accountId}::int8, ${r.lease.id}::uuid, ${DateTime.toDateUtc(r.lease.claimedUntil)}::timestamptz,
          ${r.state.status}::text, ${r.state.attempts}::int4, ${dateOrNull(r.state.nextAttemptAt)}::timestamptz,
          ${a === null ? null : a.number}::int4, ${a === null ? null : DateTime.toDateUtc(a.at)}::timestamptz,
          ${a === null ? null : a.statusCode}::int4,
          ${a === null ? null : Math.max(0, Math.round(a.durationMillis))}::int4,
          ${a === null ? null : storableText(a.error)}::text, ${a === null ? null : storableText(a.responseExcerpt)}::text,
          ${r.clearsFailures}::bool)`
      }))
      const cleared = clear.length === 0 ? sql`` : sql`, cleared AS (
          UPDATE webhooks w SET consecutive_failures = 0, updated_at = ${now}
          FROM (
            SELECT DISTINCT u.account_id, u.webhook_id
            FROM updated u JOIN input i ON i.account_id = u.account_id AND i.id = u.id
            WHERE i.clears_failures
          ) s
          WHERE w.account_id = s.account_id AND w.id = s.webhook_id AND w.id IN ${sql.in(clear)}
            AND w.consecutive_failures <> 0
        )`
      return sql<{ id: string }>`
        WITH input (account_id, id, claimed_until, status, attempts, next_attempt_at,
                    number, at, status_code, duration_ms, error, response_excerpt, clears_failures) AS (
          VALUES ${input}
        ), updated AS (
          UPDATE deliveries d
          SET status = i.status, attempts = i.attempts, next_attempt_at = i.next_attempt_at,
              claimed_until = NULL, updated_at = ${now}
          FROM input i
          WHERE d.account_id = i.account_id AND d.id = i.id AND d.claimed_until = i.claimed_until
          RETURNING d.account_id, d.id, d.webhook_id
        ), inserted AS (
          INSERT INTO delivery_attempts
            (account_id, delivery_id, number, at, status_code, duration_ms, error, response_excerpt)
          SELECT i.account_id, i.id, i.number, i.at, i.status_code, i.duration_ms, i.error, i.response_excerpt
          FROM input i JOIN updated u ON u.account_id = i.account_id AND u.id = i.id
          WHERE i.number IS NOT NULL
        )${cleared}
        SELECT id::text AS id FROM updated
      `
    }

    /**
     * One statement per chunk of records. A chunk with a success first looks for webhooks to clear
     * (a read: usually there are none, every failure count being 0); when there are, it locks them
     * and writes the chunk in one transaction.
     */
    const recordAttempts = (records: ReadonlyArray<AttemptRecord>) =>
      Effect.gen(function*() {
        const recorded = new Set<string>()
        const valid = records.filter((r) => UUID_TEXT.test(r.lease.id))
        if (valid.length === 0) return recorded
        const now = DateTime.toDateUtc(yield* DateTime.now)
        for (const chunk of Arr.chunksOf(valid, RECORD_BATCH)) {
          const clearing = chunk.filter((r) => r.clearsFailures)
          const rows = clearing.length === 0 || (yield* webhooksToClear(clearing, false)).length === 0
            ? yield* writeRecords(chunk, now, [])
            : yield* sql.withTransaction(
              Effect.flatMap(webhooksToClear(clearing, true), (clear) => writeRecords(chunk, now, clear))
            )
          for (const row of rows) recorded.add(row.id)
        }
        return recorded as ReadonlySet<string>
      }).pipe(Effect.orDie)

    const release = (leases: ReadonlyArray<DeliveryLease>) =>
      Effect.forEach(
        Arr.chunksOf(leases.filter((l) => UUID_TEXT.test(l.id)), INSERT_BATCH),
        (chunk) =>
          sql`
            UPDATE deliveries d SET claimed_until = NULL
            FROM (VALUES ${
            sql.join(", ", false)(
              chunk.map((l) => sql`(${l.accountId}::int8, ${l.id}::uuid, ${DateTime.toDateUtc(l.claimedUntil)}::timestamptz)`)
            )
          }) AS l (account_id, id, claimed_until)
            WHERE d.account_id = l.account_id AND d.id = l.id AND d.claimed_until = l.claimed_until
          `,
        { discard: true }
      ).pipe(Effect.orDie)

    const lockWebhook = (accountId: number, webhookId: number) =>
      sql`
        SELECT url, secret_sealed, is_validated, is_active, consecutive_failures, last_failure_at
        FROM webhooks WHERE account_id = ${accountId} AND id = ${webhookId}
        FOR UPDATE
      `.pipe(Effect.orDie, Effect.flatMap(decodeTarget), Effect.map(Option.map(toTarget)))

    const saveWebhookHealth = (accountId: number, webhookId: number, state: WebhookState) =>
      Effect.gen(function*() {
        const now = DateTime.toDateUtc(yield* DateTime.now)
        yield* sql`
          UPDATE webhooks
          SET is_active = ${state.isActive}, consecutive_failures = ${state.consecutiveFailures},
              last_failure_at = ${dateOrNull(state.lastFailureAt)}, updated_at = ${now}
          WHERE account_id = ${accountId} AND id = ${webhookId}
        `
      }).pipe(Effect.orDie)

    const webhookExists = (accountId: number, webhookId: number) =>
      sql`SELECT 1 AS found FROM webhooks WHERE account_id = ${accountId} AND id = ${webhookId}`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const list = (accountId: number, webhookId: number, page: { readonly offset: number; readonly limit: number }) =>
      Effect.gen(function*() {
        const deliveries = yield* sql`
          SELECT id::text AS id, event, status, next_attempt_at, created_at
          FROM deliveries
          WHERE account_id = ${accountId} AND webhook_id = ${webhookId}
          ORDER BY created_at DESC, id
          LIMIT ${page.limit} OFFSET ${page.offset}
        `.pipe(Effect.flatMap(decodeDeliveries))
        const [{ total }] = yield* sql<{ total: number }>`
          SELECT count(*)::int4 AS total FROM deliveries WHERE account_id = ${accountId} AND webhook_id = ${webhookId}
        `
        const attempts = deliveries.length === 0 ? [] : yield* sql`
          SELECT delivery_id::text AS delivery_id, number, at, status_code, duration_ms, error, response_excerpt
          FROM delivery_attempts
          WHERE account_id = ${accountId} AND delivery_id IN ${sql.in(deliveries.map((d) => d.id))}
          ORDER BY delivery_id, number
        `.pipe(Effect.flatMap(decodeAttempts))
        const byDelivery = Arr.groupBy(attempts, (a) => a.delivery_id)
        const items = deliveries.map((d): DeliveryView => ({
          id: d.id,
          event: d.event,
          status: d.status,
          nextAttemptAt: d.next_attempt_at,
          createdAt: d.created_at,
          attempts: (byDelivery[d.id] ?? []).map((a) => ({
            number: a.number,
            at: a.at,
            statusCode: a.status_code,
            durationMillis: a.duration_ms,
            error: a.error,
            responseExcerpt: a.response_excerpt
          }))
        }))
        return { items, total: Number(total) }
      }).pipe(Effect.orDie)

    /**
     * One statement: the window's unrecovered failed rows (a range of `deliveries_recoverable`),
     * locked, then marked. A concurrent recovery of the same rows waits for the lock and, once this
     * one commits, finds them recovered (the WHERE is checked again on the locked row), so it
     * takes none of them twice.
     */
    const takeFailed = (window: FailedWindow) =>
      Effect.gen(function*() {
        const limit = Math.floor(window.limit)
        if (!(limit > 0)) return []
        const now = DateTime.toDateUtc(yield* DateTime.now)
        const rows = yield* sql`
          WITH taken AS (
            SELECT account_id, id FROM deliveries
            WHERE account_id = ${window.accountId} AND webhook_id = ${window.webhookId}
              AND status = 'failed' AND recovered_at IS NULL
              AND updated_at >= ${DateTime.toDateUtc(window.since)} AND updated_at <= ${DateTime.toDateUtc(window.until)}
            ORDER BY updated_at, id
            LIMIT ${limit}
            FOR UPDATE
          )
          UPDATE deliveries d SET recovered_at = ${now}
          FROM taken
          WHERE d.account_id = taken.account_id AND d.id = taken.id
          RETURNING d.id::text AS id, d.event, d.body, d.updated_at
        `.pipe(Effect.flatMap(decodeTaken))
        // RETURNING keeps no order: the earliest ended first, as the port says.
        return [...rows]
          .sort((a, b) =>
            DateTime.toEpochMillis(a.updated_at) - DateTime.toEpochMillis(b.updated_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
          )
          .map((row): RecoveredDelivery => ({ id: row.id, event: row.event, body: row.body }))
      }).pipe(Effect.orDie)

    const findBody = (accountId: number, webhookId: number, deliveryId: string) =>
      UUID_TEXT.test(deliveryId)
        ? sql`
          SELECT event, body FROM deliveries
          WHERE account_id = ${accountId} AND webhook_id = ${webhookId} AND id = ${deliveryId}::uuid
        `.pipe(Effect.orDie, Effect.flatMap(decodeBody))
        : Effect.succeedNone

    return DeliveryRepository.of({
      subscribers,
      insert,
      claimDue,
      nextDueAt,
      recordAttempts,
      release,
      lockWebhook,
      saveWebhookHealth,
      webhookExists,
      list,
      takeFailed,
      findBody
    })
  })
)
