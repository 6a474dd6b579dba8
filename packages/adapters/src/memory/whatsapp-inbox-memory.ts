import { type ClaimedWhatsAppWebhook, WhatsAppInbox } from "@wasl/core/WhatsApp"
import { DateTime, Duration, Effect, Layer } from "effect"
import { signalAfterCommit } from "./after-commit.ts"
import { MemoryStore, updateStore, type WhatsAppInboxRow } from "./store.ts"

/** A row's id as the port gives it: digits, as PostgreSQL's bigint id comes back as text. */
const idOf = (row: WhatsAppInboxRow) => String(row.id)

/**
 * The WhatsApp inbox over the memory store's `whatsappInbox` table, oldest first. Every operation
 * is one atomic store update, so claims never overlap. An insert wakes the `whatsapp` listeners of
 * `QueueSignalsMemory` (after the transaction it is in commits, as the table's NOTIFY does).
 */
export const WhatsAppInboxMemory: Layer.Layer<WhatsAppInbox, never, MemoryStore> = Layer.effect(
  WhatsAppInbox,
  Effect.gen(function*() {
    const store = yield* MemoryStore

    const insert = (body: string, receivedAt: DateTime.Utc) =>
      updateStore(store, (state) => {
        const table = state.whatsappInbox
        const row: WhatsAppInboxRow = { id: table.nextId, body, receivedAt, claimedUntil: null, attempts: 0 }
        return [undefined, { ...state, whatsappInbox: { nextId: table.nextId + 1, rows: [...table.rows, row] } }] as const
      }).pipe(Effect.andThen(signalAfterCommit(store, "whatsapp")))

    const claim = (limit: number, leaseFor: Duration.Input) =>
      Effect.gen(function*() {
        const count = Math.floor(limit)
        if (!(count > 0)) return []
        const now = yield* DateTime.now
        const claimedUntil = DateTime.addDuration(now, Duration.fromInputUnsafe(leaseFor))
        return yield* updateStore(store, (state) => {
          const claimed: Array<ClaimedWhatsAppWebhook> = []
          const rows = state.whatsappInbox.rows.map((row) => {
            if (claimed.length >= count || (row.claimedUntil !== null && DateTime.isGreaterThan(row.claimedUntil, now))) {
              return row
            }
            const next = { ...row, claimedUntil, attempts: row.attempts + 1 }
            claimed.push({ id: idOf(next), body: next.body, receivedAt: next.receivedAt, attempts: next.attempts })
            return next
          })
          return [claimed, { ...state, whatsappInbox: { ...state.whatsappInbox, rows } }] as const
        })
      })

    const complete = (ids: ReadonlyArray<string>) => {
      const done = new Set(ids)
      return updateStore(store, (state) => [undefined, {
        ...state,
        whatsappInbox: { ...state.whatsappInbox, rows: state.whatsappInbox.rows.filter((row) => !done.has(idOf(row))) }
      }] as const)
    }

    const retry = (id: string, at: DateTime.Utc) =>
      updateStore(store, (state) => [undefined, {
        ...state,
        whatsappInbox: {
          ...state.whatsappInbox,
          rows: state.whatsappInbox.rows.map((row) => idOf(row) === id ? { ...row, claimedUntil: at } : row)
        }
      }] as const)

    return WhatsAppInbox.of({ insert, claim, complete, retry })
  })
)
