import {
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryLease,
  DeliveryRepository,
  type DeliveryState,
  type DeliveryTarget,
  type DeliveryView,
  type FailedWindow,
  type NewDelivery,
  type RecoveredDelivery
} from "@wasl/core/Deliveries"
import { traceParentField } from "@wasl/core/Events"
import { type EventName } from "@wasl/core/Records"
import { type StoredWebhook, type WebhookState } from "@wasl/core/Webhooks"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { signalAfterCommit } from "./after-commit.ts"
import { type DeliveryRow, deliveryKey, MemoryStore, type MemoryState, readStore, updateStore } from "./store.ts"
import { storableText, UUID_TEXT } from "../repository-semantics.ts"

const millis = DateTime.toEpochMillis

const findWebhook = (state: MemoryState, accountId: number, webhookId: number): StoredWebhook | undefined =>
  state.webhooks.rows.find((w) => w.accountId === accountId && w.id === webhookId)

const targetOf = (webhook: StoredWebhook): DeliveryTarget => ({
  url: webhook.url,
  secretSealed: webhook.secretSealed,
  state: webhook.state
})

/** Pending and not leased at `now` (a lease ends at its `claimedUntil`). */
const isUnleasedPending = (row: DeliveryRow, now: number) =>
  row.status === "pending" && (row.claimedUntil === null || millis(row.claimedUntil) <= now)

/** Earliest next attempt first; ties keep insertion order. */
const byNextAttempt = (a: DeliveryRow, b: DeliveryRow) => millis(a.nextAttemptAt!) - millis(b.nextAttemptAt!)

/** The CHECKs of table `deliveries` (migration 0007) on a delivery's state, refused as defects. */
const checkState = (state: DeliveryState, id: string): void => {
  const valid = ["pending", "succeeded", "failed"].includes(state.status) && Number.isInteger(state.attempts) &&
    state.attempts >= 0 && (state.status === "pending") === (state.nextAttemptAt !== null)
  if (!valid) throw new Error(`new row for relation "deliveries" violates check constraint: delivery ${id}`)
}

const checkUuid = (value: string, column: string): void => {
  if (!UUID_TEXT.test(value)) throw new Error(`invalid input syntax for type uuid: "${value}" (deliveries.${column})`)
}

/** A `delivery_attempts` row as PostgreSQL keeps it; its primary key and CHECKs refused as defects. */
const storedAttempt = (row: DeliveryRow, attempt: DeliveryAttempt): DeliveryAttempt => {
  if (!Number.isInteger(attempt.number) || attempt.number < 1 || row.attemptLog.some((a) => a.number === attempt.number)) {
    throw new Error(`insert on table "delivery_attempts" violates a constraint: delivery ${row.id}, number ${attempt.number}`)
  }
  return {
    number: attempt.number,
    at: attempt.at,
    statusCode: attempt.statusCode,
    durationMillis: Math.max(0, Math.round(attempt.durationMillis)),
    error: storableText(attempt.error),
    responseExcerpt: storableText(attempt.responseExcerpt)
  }
}

const toView = (row: DeliveryRow): DeliveryView => ({
  id: row.id,
  event: row.event,
  status: row.status,
  attempts: row.attemptLog,
  nextAttemptAt: row.nextAttemptAt,
  createdAt: row.createdAt
})

/** Newest first, then by id (the order of `deliveries_log`). */
const newestFirst = (a: DeliveryRow, b: DeliveryRow) =>
  millis(b.createdAt) - millis(a.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * The delivery queue over the memory store, with DeliveryRepositoryPg's semantics: the table's
 * constraints (an existing account and webhook, UUID ids, the state CHECKs, at most one delivery
 * per (account, event, webhook) — a repeat is skipped), leases compared to Effect's `Clock`, a
 * record fenced by its lease, failures cleared with a success, deliveries deleted with their
 * webhook (webhook-repository-memory.ts). Each method is one atomic store operation, so claimers
 * never share a delivery; inside `TransactorMemory` they roll back with the transaction. Inserting
 * wakes the `deliveries` listeners of `QueueSignalsMemory` once the insert commits.
 */
export const DeliveryRepositoryMemory: Layer.Layer<DeliveryRepository, never, MemoryStore> = Layer.effect(
  DeliveryRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore

    const subscribers = (events: ReadonlyArray<{ readonly accountId: number; readonly event: EventName }>) =>
      events.length === 0 ? Effect.succeed([]) : readStore(store, (state) => {
        const wanted = new Set(events.map((e) => `${e.accountId}:${e.event}`))
        return [...state.webhooks.rows]
          .sort((a, b) => a.id - b.id)
          .filter((w) => w.state.isValidated && w.state.isActive)
          .flatMap((w) =>
            w.events
              .filter((e) => wanted.has(`${w.accountId}:${e.name}`))
              .map((e) => ({ accountId: w.accountId, webhookId: w.id, event: e.name }))
          )
      })

    const insert = (deliveries: ReadonlyArray<NewDelivery>) =>
      deliveries.length === 0 ? Effect.void : Effect.andThen(
        updateStore(store, (state) => {
          const rows = new Map(state.deliveries)
          const queued = new Set<string>()
          for (const row of rows.values()) {
            if (row.eventId !== null) queued.add(`${row.accountId}:${row.eventId}:${row.webhookId}`)
          }
          for (const d of deliveries) {
            if (!state.accounts.has(d.accountId)) {
              throw new Error(`insert on table "deliveries" violates foreign key constraint: account ${d.accountId}`)
            }
            if (!state.webhooks.rows.some((w) => w.id === d.webhookId)) {
              throw new Error(`insert on table "deliveries" violates foreign key constraint: webhook ${d.webhookId}`)
            }
            checkUuid(d.id, "id")
            if (d.eventId !== null) checkUuid(d.eventId, "event_id")
            checkState(d.state, d.id)
            const eventId = d.eventId === null ? null : d.eventId.toLowerCase()
            // ON CONFLICT (account_id, event_id, webhook_id) DO NOTHING: fan-out is idempotent.
            const unique = eventId === null ? undefined : `${d.accountId}:${eventId}:${d.webhookId}`
            if (unique !== undefined && queued.has(unique)) continue
            const key = deliveryKey(d.accountId, d.id)
            if (rows.has(key)) {
              throw new Error(`duplicate key value violates unique constraint "deliveries_pkey": ${d.id}`)
            }
            if (unique !== undefined) queued.add(unique)
            rows.set(key, {
              accountId: d.accountId,
              id: d.id.toLowerCase(),
              webhookId: d.webhookId,
              eventId,
              event: d.event,
              body: d.body,
              status: d.state.status,
              attempts: d.state.attempts,
              nextAttemptAt: d.state.nextAttemptAt,
              claimedUntil: null,
              recoveredAt: null,
              createdAt: d.createdAt,
              updatedAt: d.createdAt,
              attemptLog: [],
              ...traceParentField(d.traceParent)
            })
          }
          return [undefined, { ...state, deliveries: rows }] as const
        }),
        // The table's statement trigger: even an insert whose rows were all skipped notifies.
        signalAfterCommit(store, "deliveries")
      )

    const claimDue = (limit: number, leaseFor: Duration.Input) =>
      Effect.gen(function*() {
        const count = Math.floor(limit)
        if (!(count > 0)) return []
        const now = yield* DateTime.now
        const until = DateTime.addDuration(now, Duration.fromInputUnsafe(leaseFor))
        return yield* updateStore(store, (state): readonly [ReadonlyArray<ClaimedDelivery>, MemoryState] => {
          const at = millis(now)
          const due = [...state.deliveries.values()]
            .filter((row) => isUnleasedPending(row, at) && millis(row.nextAttemptAt!) <= at)
            .sort(byNextAttempt)
            .slice(0, count)
          if (due.length === 0) return [[], state]
          const rows = new Map(state.deliveries)
          const claimed: Array<ClaimedDelivery> = []
          for (const row of due) {
            rows.set(deliveryKey(row.accountId, row.id), { ...row, claimedUntil: until })
            const webhook = findWebhook(state, row.accountId, row.webhookId)
            if (webhook === undefined) continue
            claimed.push({
              accountId: row.accountId,
              id: row.id,
              webhookId: row.webhookId,
              event: row.event,
              body: row.body,
              state: { status: row.status, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt },
              claimedUntil: until,
              webhook: targetOf(webhook),
              ...traceParentField(row.traceParent)
            })
          }
          return [claimed, { ...state, deliveries: rows }]
        })
      })

    const nextDueAt = Effect.flatMap(DateTime.now, (now) =>
      readStore(store, (state) => {
        const pending = [...state.deliveries.values()].filter((row) => isUnleasedPending(row, millis(now)))
        return pending.length === 0 ? Option.none() : Option.some([...pending].sort(byNextAttempt)[0]!.nextAttemptAt!)
      }))

    const recordAttempts = (records: ReadonlyArray<AttemptRecord>) =>
      Effect.gen(function*() {
        const valid = records.filter((r) => UUID_TEXT.test(r.lease.id))
        if (valid.length === 0) return new Set<string>() as ReadonlySet<string>
        const now = yield* DateTime.now
        return yield* updateStore(store, (state) => {
          const recorded = new Set<string>()
          const rows = new Map(state.deliveries)
          const clears = new Set<string>()
          for (const record of valid) {
            const key = deliveryKey(record.lease.accountId, record.lease.id)
            const row = rows.get(key)
            // Fenced: only the holder of the current lease records.
            if (row === undefined || row.claimedUntil === null || millis(row.claimedUntil) !== millis(record.lease.claimedUntil)) {
              continue
            }
            checkState(record.state, row.id)
            rows.set(key, {
              ...row,
              status: record.state.status,
              attempts: record.state.attempts,
              nextAttemptAt: record.state.nextAttemptAt,
              claimedUntil: null,
              updatedAt: now,
              attemptLog: record.attempt === null ? row.attemptLog : [...row.attemptLog, storedAttempt(row, record.attempt)]
            })
            recorded.add(row.id)
            if (record.clearsFailures) clears.add(`${row.accountId}:${row.webhookId}`)
          }
          // `deliverySucceeded`: no write where the count is already 0.
          const webhooks = clears.size === 0 ? state.webhooks : {
            ...state.webhooks,
            rows: state.webhooks.rows.map((w) =>
              clears.has(`${w.accountId}:${w.id}`) && w.state.consecutiveFailures !== 0
                ? { ...w, state: { ...w.state, consecutiveFailures: 0 }, updatedAt: now }
                : w
            )
          }
          return [recorded as ReadonlySet<string>, { ...state, deliveries: rows, webhooks }] as const
        })
      })

    const release = (leases: ReadonlyArray<DeliveryLease>) =>
      updateStore(store, (state) => {
        const rows = new Map(state.deliveries)
        for (const lease of leases) {
          if (!UUID_TEXT.test(lease.id)) continue
          const key = deliveryKey(lease.accountId, lease.id)
          const row = rows.get(key)
          if (row?.claimedUntil != null && millis(row.claimedUntil) === millis(lease.claimedUntil)) {
            rows.set(key, { ...row, claimedUntil: null })
          }
        }
        return [undefined, { ...state, deliveries: rows }] as const
      })

    const lockWebhook = (accountId: number, webhookId: number) =>
      readStore(store, (state) => Option.map(Option.fromNullishOr(findWebhook(state, accountId, webhookId)), targetOf))

    const saveWebhookHealth = (accountId: number, webhookId: number, health: WebhookState) =>
      Effect.flatMap(DateTime.now, (now) =>
        updateStore(store, (state) => [undefined, {
          ...state,
          webhooks: {
            ...state.webhooks,
            rows: state.webhooks.rows.map((w) =>
              w.accountId === accountId && w.id === webhookId
                ? {
                  ...w,
                  state: {
                    isValidated: w.state.isValidated,
                    isActive: health.isActive,
                    consecutiveFailures: health.consecutiveFailures,
                    lastFailureAt: health.lastFailureAt
                  },
                  updatedAt: now
                }
                : w
            )
          }
        }] as const))

    const webhookExists = (accountId: number, webhookId: number) =>
      readStore(store, (state) => findWebhook(state, accountId, webhookId) !== undefined)

    const list = (accountId: number, webhookId: number, page: { readonly offset: number; readonly limit: number }) =>
      readStore(store, (state) => {
        if (page.offset < 0 || page.limit < 0) throw new Error("LIMIT and OFFSET must not be negative")
        const all = [...state.deliveries.values()]
          .filter((row) => row.accountId === accountId && row.webhookId === webhookId)
          .sort(newestFirst)
        return { items: all.slice(page.offset, page.offset + page.limit).map(toView), total: all.length }
      })

    const takeFailed = (window: FailedWindow) =>
      Effect.flatMap(DateTime.now, (now) =>
        updateStore(store, (state) => {
          const [since, until] = [millis(window.since), millis(window.until)]
          const taken = [...state.deliveries.values()]
            .filter((row) =>
              row.accountId === window.accountId && row.webhookId === window.webhookId && row.status === "failed" &&
              row.recoveredAt === null && millis(row.updatedAt) >= since && millis(row.updatedAt) <= until
            )
            .sort((a, b) => millis(a.updatedAt) - millis(b.updatedAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .slice(0, Math.max(0, Math.floor(window.limit)))
          if (taken.length === 0) return [[], state] as const
          const rows = new Map(state.deliveries)
          for (const row of taken) rows.set(deliveryKey(row.accountId, row.id), { ...row, recoveredAt: now })
          const answer: ReadonlyArray<RecoveredDelivery> = taken.map((row) => ({ id: row.id, event: row.event, body: row.body }))
          return [answer, { ...state, deliveries: rows }] as const
        }))

    const findBody = (accountId: number, webhookId: number, deliveryId: string) =>
      UUID_TEXT.test(deliveryId)
        ? readStore(store, (state) => {
          const row = state.deliveries.get(deliveryKey(accountId, deliveryId))
          return row === undefined || row.webhookId !== webhookId
            ? Option.none()
            : Option.some({ event: row.event, body: row.body })
        })
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
