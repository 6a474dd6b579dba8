import { MessageStatusHoldRepository, type StatusReport } from "@wasl/core/Messaging"
import { DateTime, Effect, Layer } from "effect"
import { requireAccount, withMessaging } from "./messaging-constraints.ts"
import { accountKey } from "./messaging-tables.ts"
import { mapSet, MemoryStore, readStore, updateStore } from "./store.ts"

/** Statuses held for messages not stored yet, in the memory store: the twin of MessageStatusHoldRepositoryPg. */
export const MessageStatusHoldRepositoryMemory: Layer.Layer<MessageStatusHoldRepository, never, MemoryStore> = Layer.effect(
  MessageStatusHoldRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const take = (accountId: number, providerMessageId: string) =>
      updateStore(store, (state) => {
        const taken: Array<StatusReport> = []
        const kept = [...state.messaging.statusHolds].filter(([, hold]) => {
          const mine = hold.account_id === accountId && hold.provider_message_id === providerMessageId
          if (mine) taken.push({ status: hold.status, at: hold.at, error: hold.error })
          return !mine
        })
        if (taken.length === 0) return [taken, state] as const
        return [taken, withMessaging(state, { ...state.messaging, statusHolds: new Map(kept) })] as const
      })
    return MessageStatusHoldRepository.of({
      hold: (accountId, providerMessageId, report, tracking) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
          requireAccount(state, accountId, "message_status_holds")
          const key = accountKey(accountId, `${providerMessageId} ${report.status}`)
          if (state.messaging.statusHolds.has(key)) return [undefined, state] as const
          const statusHolds = mapSet(state.messaging.statusHolds, key, {
            ...report,
            account_id: accountId,
            provider_message_id: providerMessageId,
            tracking,
            created_at: now
          })
          return [undefined, withMessaging(state, { ...state.messaging, statusHolds })] as const
        })),
      findTracked: (accountId, trackings) =>
        readStore(store, (state) => {
          const wanted = new Set(trackings)
          const found = new Map<string, string>()
          for (const hold of state.messaging.statusHolds.values()) {
            if (hold.account_id === accountId && hold.tracking !== null && wanted.has(hold.tracking)) {
              found.set(hold.tracking, hold.provider_message_id)
            }
          }
          return found as ReadonlyMap<string, string>
        }),
      take,
      takeMany: (accountId, providerMessageIds) =>
        Effect.map(
          Effect.forEach(providerMessageIds, (id) => Effect.map(take(accountId, id), (taken) => [id, taken] as const)),
          (pairs) => new Map(pairs.filter(([, taken]) => taken.length > 0))
        )
    })
  })
)
