import {
  type ClaimedOutboxEvent,
  currentTraceParent,
  type NewOutboxEvent,
  Outbox,
  type OutboxEvent,
  type OutboxEventKey,
  traceParentField
} from "@wasl/core/Events"
import { Clock, DateTime, Duration, Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { signalAfterCommit } from "./after-commit.ts"
import { MemoryStore, updateStore } from "./store.ts"

/** The CHECK on `outbox_events.name` (migrations 0003, 0027 and 0053): the 72 record event names, the message and restore events. */
const EVENT_NAME =
  /^((contact|company|deal|ticket|invoice|product)-((property-group-|property-|note-)?(created|updated|deleted)|restored)|message-received|message-status-updated)$/

/** The payload as PostgreSQL's `json` column gives it back; not a JSON object is a defect (the CHECK). */
const asStoredPayload = (payload: unknown): unknown => {
  const text = JSON.stringify(payload)
  if (text === undefined || !text.startsWith("{")) {
    throw new Error(`outbox_events: the payload must be a JSON object, received ${text ?? typeof payload}`)
  }
  return JSON.parse(text)
}

const keyOf = (event: OutboxEventKey) => `${event.accountId}:${event.id.toLowerCase()}`

/**
 * The outbox over the memory store: the `outbox` slice, oldest first. Every operation is one atomic
 * store update, and a `TransactorMemory` transaction that fails restores its snapshot, so its
 * appended events are gone as on PostgreSQL. Claims are serialised by the store, hence never
 * overlap. Same constraints as the table (existing account, event name, JSON object payload),
 * refused as defects. Appended events keep the current span's trace context, as `OutboxPg`'s do.
 * Appending (once its transaction commits) and releasing wake the `outbox`
 * listeners of `QueueSignalsMemory`, as the table's NOTIFY does.
 */
export const OutboxMemory: Layer.Layer<Outbox, never, MemoryStore | SecureRandom.SecureRandom> = Layer.effect(
  Outbox,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const random = yield* SecureRandom.SecureRandom

    const append = (events: ReadonlyArray<NewOutboxEvent>) =>
      Effect.gen(function*() {
        if (events.length === 0) return []
        const micros = Number((yield* Clock.currentTimeNanos) / 1000n)
        const traceParent = yield* currentTraceParent
        const rows: Array<OutboxEvent> = []
        for (const event of events) {
          rows.push({
            id: yield* random.uuidV4(),
            accountId: event.accountId,
            name: event.name,
            payload: asStoredPayload(event.payload),
            occurredAtMicros: micros,
            claimedUntil: null,
            attempts: 0,
            ...traceParentField(traceParent)
          })
        }
        const appended = yield* updateStore(store, (state) => {
          for (const row of rows) {
            if (!state.accounts.has(row.accountId)) {
              throw new Error(
                `insert on table "outbox_events" violates foreign key constraint: account ${row.accountId} does not exist`
              )
            }
            if (!EVENT_NAME.test(row.name)) {
              throw new Error(`new row for relation "outbox_events" violates check constraint: name ${row.name}`)
            }
          }
          return [rows, { ...state, outbox: [...state.outbox, ...rows] }] as const
        })
        yield* signalAfterCommit(store, "outbox")
        return appended
      })

    const claim = (limit: number, leaseFor: Duration.Input) =>
      Effect.gen(function*() {
        const count = Math.floor(limit)
        if (!(count > 0)) return []
        const now = yield* DateTime.now
        const claimedUntil = DateTime.addDuration(now, Duration.fromInputUnsafe(leaseFor))
        return yield* updateStore(store, (state) => {
          const claimed: Array<ClaimedOutboxEvent> = []
          const outbox = state.outbox.map((event) => {
            if (
              claimed.length >= count ||
              (event.claimedUntil !== null && DateTime.isGreaterThan(event.claimedUntil, now))
            ) {
              return event
            }
            const next: ClaimedOutboxEvent = { ...event, claimedUntil, attempts: event.attempts + 1 }
            claimed.push(next)
            return next
          })
          return [claimed, { ...state, outbox }] as const
        })
      })

    const complete = (events: ReadonlyArray<OutboxEventKey>) => {
      const keys = new Set(events.map(keyOf))
      return updateStore(store, (state) => [
        undefined,
        { ...state, outbox: state.outbox.filter((event) => !keys.has(keyOf(event))) }
      ] as const)
    }

    const release = (events: ReadonlyArray<OutboxEventKey>) => {
      const keys = new Set(events.map(keyOf))
      return updateStore(store, (state) => {
        const released = state.outbox.some((event) => keys.has(keyOf(event)))
        return [released, {
          ...state,
          outbox: state.outbox.map((event) => keys.has(keyOf(event)) ? { ...event, claimedUntil: null } : event)
        }] as const
      }).pipe(
        // Like OutboxPg: a release that found an event wakes the claimers, so it is taken again at once.
        Effect.flatMap((released) => released ? signalAfterCommit(store, "outbox") : Effect.void)
      )
    }

    return Outbox.of({ append, claim, complete, release })
  })
)
