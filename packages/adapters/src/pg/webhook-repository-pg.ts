import { EventName } from "@wasl/core/Records"
import {
  type NewWebhook,
  type StoredWebhook,
  type WebhookChange,
  type WebhookEvent,
  WebhookRepository
} from "@wasl/core/Webhooks"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeRows } from "./rows.ts"
import { WebhookTargetRow, webhookStateOf } from "./webhook-target-row.ts"

const WebhookRow = Schema.Struct({
  id: DbInt,
  account_id: DbInt,
  ...WebhookTargetRow.fields,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})
type WebhookRow = typeof WebhookRow.Type

const EventRow = Schema.Struct({
  id: DbInt,
  webhook_id: DbInt,
  name: EventName,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const COLUMNS =
  "id, account_id, url, secret_sealed, is_validated, is_active, consecutive_failures, last_failure_at, created_at, updated_at"
const EVENT_COLUMNS = "id, webhook_id, name, created_at, updated_at"

const decodeWebhooks = decodeRows(WebhookRow)
const decodeEvents = decodeRows(EventRow)
const decodeInsertedIds = decodeRows(Schema.Struct({ id: DbInt }))

const toStored = (row: WebhookRow, events: ReadonlyArray<WebhookEvent>): StoredWebhook => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  secretSealed: row.secret_sealed,
  state: webhookStateOf(row),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  events: events.filter((e) => e.webhook_id === row.id)
})

/** Webhooks and their subscriptions on PostgreSQL (tables `webhooks`, `webhook_events`, migration 0006). */
export const WebhookRepositoryPg: Layer.Layer<WebhookRepository, never, SqlClient.SqlClient> = Layer.effect(
  WebhookRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)
    const eventColumns = sql.literal(EVENT_COLUMNS)

    const eventsOf = (accountId: number, webhookId: number) =>
      sql`
        SELECT ${eventColumns} FROM webhook_events
        WHERE account_id = ${accountId} AND webhook_id = ${webhookId}
        ORDER BY id
      `.pipe(Effect.flatMap(decodeEvents))

    const find = (accountId: number, id: number, forUpdate: boolean) =>
      Effect.gen(function*() {
        const rows = yield* (forUpdate
          ? sql`SELECT ${columns} FROM webhooks WHERE account_id = ${accountId} AND id = ${id} FOR UPDATE`
          : sql`SELECT ${columns} FROM webhooks WHERE account_id = ${accountId} AND id = ${id}`
        ).pipe(Effect.flatMap(decodeWebhooks))
        const row = rows[0]
        if (row === undefined) return Option.none<StoredWebhook>()
        return Option.some(toStored(row, yield* eventsOf(accountId, id)))
      }).pipe(Effect.orDie)

    const insertEvents = (accountId: number, webhookId: number, names: ReadonlyArray<string>, now: DateTime.Utc) => {
      const row = (name: string) => ({
        account_id: accountId,
        webhook_id: webhookId,
        name,
        created_at: DateTime.toDateUtc(now),
        updated_at: DateTime.toDateUtc(now)
      })
      const [first, ...rest] = names
      return first === undefined ? Effect.void : sql`
        INSERT INTO webhook_events ${sql.insert([row(first), ...rest.map(row)])}
        ON CONFLICT (account_id, webhook_id, name) DO NOTHING
      `.pipe(Effect.asVoid)
    }

    const insert = (w: NewWebhook) =>
      Effect.gen(function*() {
        const now = DateTime.toDateUtc(w.now)
        const rows = yield* sql`
          INSERT INTO webhooks (account_id, url, secret_sealed, created_at, updated_at)
          VALUES (${w.accountId}, ${w.url}, ${w.secretSealed}, ${now}, ${now})
          RETURNING id
        `.pipe(Effect.flatMap(decodeInsertedIds))
        const id = rows[0]!.id
        yield* insertEvents(w.accountId, id, w.events, w.now)
        return Option.getOrThrow(yield* find(w.accountId, id, false))
      }).pipe(Effect.orDie)

    const update = (accountId: number, id: number, change: WebhookChange) =>
      Effect.gen(function*() {
        const { state } = change
        const lastFailure = state.lastFailureAt === null ? null : DateTime.toDateUtc(state.lastFailureAt)
        const updated = yield* sql`
          UPDATE webhooks
          SET url = ${change.url}, is_validated = ${state.isValidated}, is_active = ${state.isActive},
              consecutive_failures = ${state.consecutiveFailures}, last_failure_at = ${lastFailure},
              updated_at = ${DateTime.toDateUtc(change.now)}
          WHERE account_id = ${accountId} AND id = ${id}
          RETURNING id
        `
        if (updated.length === 0) return Option.none<StoredWebhook>()
        if (change.events !== undefined) {
          const names = change.events
          yield* (names.length === 0
            ? sql`DELETE FROM webhook_events WHERE account_id = ${accountId} AND webhook_id = ${id}`
            : sql`
              DELETE FROM webhook_events
              WHERE account_id = ${accountId} AND webhook_id = ${id} AND name NOT IN (${sql.csv(names.map((n) => sql`${n}`))})
            `)
          yield* insertEvents(accountId, id, names, change.now)
        }
        return yield* find(accountId, id, false)
      }).pipe(Effect.orDie)

    return WebhookRepository.of({
      list: (accountId) =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT ${columns} FROM webhooks WHERE account_id = ${accountId} ORDER BY id`.pipe(
            Effect.flatMap(decodeWebhooks)
          )
          if (rows.length === 0) return []
          const events = yield* sql`
            SELECT ${eventColumns} FROM webhook_events WHERE account_id = ${accountId} ORDER BY id
          `.pipe(Effect.flatMap(decodeEvents))
          return rows.map((row) => toStored(row, events))
        }).pipe(Effect.orDie),
      findById: (accountId, id) => find(accountId, id, false),
      findForUpdate: (accountId, id) => find(accountId, id, true),
      countForCreate: (accountId) =>
        Effect.gen(function*() {
          // Creates of one account queue on its row until commit, so the count they see is exact.
          yield* sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`
          const rows = yield* sql<{ count: number }>`
            SELECT count(*)::int4 AS count FROM webhooks WHERE account_id = ${accountId}
          `
          return Number(rows[0]?.count ?? 0)
        }).pipe(Effect.orDie),
      insert,
      update,
      delete: (accountId, id) =>
        sql`DELETE FROM webhooks WHERE account_id = ${accountId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  })
)
