import {
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryLease,
  DeliveryRepository,
  DeliveryStatus,
  type DeliveryState,
  type DeliveryTarget,
  type DeliveryView,
  EventName,
  type NewDelivery,
  type WebhookState
} from "@wasl/core"
import { Array as Arr, DateTime, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, decodeRows } from "./rows.ts"

/** The channel `deliveries` NOTIFYs after each insert (migration 0007). */
export const DELIVERIES_CHANNEL = "wasl_deliveries"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Rows per INSERT (11 parameters each, far below the 65,535 limit). */
const INSERT_BATCH = 500

/** PostgreSQL text cannot hold NUL; a receiver's answer may. */
const storableText = (text: string | null): string | null => (text === null ? null : text.replace(/\u0000/g, "\uFFFD"))

const WebhookColumns = {
  url: Schema.String,
  secret_sealed: Schema.String,
  is_validated: Schema.Boolean,
  is_active: Schema.Boolean,
  consecutive_failures: DbInt,
  last_failure_at: Schema.NullOr(DbTimestamp)
}

const TargetRow = Schema.Struct(WebhookColumns)

const ClaimRow = Schema.Struct({
  account_id: DbInt,
  id: Schema.String,
  webhook_id: DbInt,
  event: EventName,
  body: Schema.String,
  status: DeliveryStatus,
  attempts: DbInt,
  next_attempt_at: Schema.NullOr(DbTimestamp),
  claimed_until: DbTimestamp,
  ...WebhookColumns
})

const SubscriptionRow = Schema.Struct({ account_id: DbInt, webhook_id: DbInt, event: EventName })

const DeliveryRow = Schema.Struct({
  id: Schema.String,
  event: EventName,
  status: DeliveryStatus,
  next_attempt_at: Schema.NullOr(DbTimestamp),
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
const decodeTarget = decodeFirst(TargetRow)
const decodeSubscriptions = decodeRows(SubscriptionRow)
const decodeDeliveries = decodeRows(DeliveryRow)
const decodeAttempts = decodeRows(AttemptRow)
const decodeBody = decodeFirst(BodyRow)

const toTarget = (row: typeof TargetRow.Type): DeliveryTarget => ({
  url: row.url,
  secretSealed: row.secret_sealed,
  state: {
    isValidated: row.is_validated,
    isActive: row.is_active,
    consecutiveFailures: row.consecutive_failures,
    lastFailureAt: row.last_failure_at
  }
})

const dateOrNull = (dt: DateTime.Utc | null): Date | null => (dt === null ? null : DateTime.toDateUtc(dt))

/**
 * The delivery queue on PostgreSQL (tables `deliveries`, `delivery_attempts`, migration 0007; the
 * webhook columns of migration 0006). Every statement runs on the ambient `SqlClient`, so inside
 * `TransactorPg` it joins that transaction. `claimDue` is one statement (`SELECT ... ORDER BY
 * next_attempt_at LIMIT n FOR UPDATE SKIP LOCKED` feeding the lease UPDATE), and `recordAttempt`
 * is one statement fenced by the lease, so neither needs a transaction of its own.
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
          updated_at: DateTime.toDateUtc(d.createdAt)
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
                      d.next_attempt_at, d.claimed_until
          )
          SELECT c.account_id, c.id::text AS id, c.webhook_id, c.event, c.body, c.status, c.attempts,
                 c.next_attempt_at, c.claimed_until,
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
          webhook: toTarget(row)
        }))
      })

    const nextDueAt = Effect.gen(function*() {
      const now = DateTime.toDateUtc(yield* DateTime.now)
      const rows = yield* sql`
        SELECT next_attempt_at FROM deliveries
        WHERE status = 'pending' AND (claimed_until IS NULL OR claimed_until <= ${now})
        ORDER BY next_attempt_at
        LIMIT 1
      `.pipe(Effect.orDie, Effect.flatMap(decodeFirst(Schema.Struct({ next_attempt_at: DbTimestamp }))))
      return Option.map(rows, (row) => row.next_attempt_at)
    })

    const recordAttempt = (lease: DeliveryLease, state: DeliveryState, attempt: DeliveryAttempt | null) =>
      Effect.gen(function*() {
        if (!UUID.test(lease.id)) return false
        const now = DateTime.toDateUtc(yield* DateTime.now)
        const updated = sql`
          UPDATE deliveries
          SET status = ${state.status}, attempts = ${state.attempts}, next_attempt_at = ${dateOrNull(state.nextAttemptAt)},
              claimed_until = NULL, updated_at = ${now}
          WHERE account_id = ${lease.accountId} AND id = ${lease.id}::uuid
            AND claimed_until = ${DateTime.toDateUtc(lease.claimedUntil)}
          RETURNING account_id, id
        `
        const rows = attempt === null
          ? yield* sql`WITH updated AS (${updated}) SELECT 1 AS done FROM updated`
          : yield* sql`
            WITH updated AS (${updated})
            INSERT INTO delivery_attempts
              (account_id, delivery_id, number, at, status_code, duration_ms, error, response_excerpt)
            SELECT account_id, id, ${attempt.number}, ${DateTime.toDateUtc(attempt.at)}, ${attempt.statusCode},
                   ${Math.max(0, Math.round(attempt.durationMillis))}, ${storableText(attempt.error)},
                   ${storableText(attempt.responseExcerpt)}
            FROM updated
            RETURNING 1 AS done
          `
        return rows.length > 0
      }).pipe(Effect.orDie)

    const release = (leases: ReadonlyArray<DeliveryLease>) =>
      Effect.forEach(
        Arr.chunksOf(leases.filter((l) => UUID.test(l.id)), INSERT_BATCH),
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

    const clearWebhookFailures = (accountId: number, webhookId: number) =>
      Effect.gen(function*() {
        const now = DateTime.toDateUtc(yield* DateTime.now)
        yield* sql`
          UPDATE webhooks SET consecutive_failures = 0, updated_at = ${now}
          WHERE account_id = ${accountId} AND id = ${webhookId} AND consecutive_failures <> 0
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

    const findBody = (accountId: number, webhookId: number, deliveryId: string) =>
      UUID.test(deliveryId)
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
      recordAttempt,
      release,
      lockWebhook,
      saveWebhookHealth,
      clearWebhookFailures,
      webhookExists,
      list,
      findBody
    })
  })
)
