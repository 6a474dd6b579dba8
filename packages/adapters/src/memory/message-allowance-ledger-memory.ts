import { allowanceMonthKey, MessageAllowanceLedger } from "@wasl/core/Accounts"
import { Effect, Layer, Option } from "effect"
import { withMessaging } from "./messaging-constraints.ts"
import { accountKey } from "./messaging-tables.ts"
import { mapDelete, mapSet, MemoryStore, readStore, updateStore } from "./store.ts"

/**
 * The monthly message allowance in the memory store: same semantics as MessageAllowanceLedgerPg.
 * Each method is one atomic change of the store, so racing uses run one after another and never
 * pass the limit.
 */
export const MessageAllowanceLedgerMemory: Layer.Layer<MessageAllowanceLedger, never, MemoryStore> = Layer.effect(
  MessageAllowanceLedger,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return MessageAllowanceLedger.of({
      use: (accountId, month, limit) =>
        updateStore(store, (state) => {
          const key = accountKey(accountId, allowanceMonthKey(month))
          const used = state.messaging.allowanceUsage.get(key) ?? 0
          if (!state.accounts.has(accountId) || used >= limit) return [false, state] as const
          return [true, withMessaging(state, {
            ...state.messaging,
            allowanceUsage: mapSet(state.messaging.allowanceUsage, key, used + 1)
          })] as const
        }),
      useUpTo: (accountId, month, limit, count) =>
        updateStore(store, (state) => {
          const key = accountKey(accountId, allowanceMonthKey(month))
          const used = state.messaging.allowanceUsage.get(key) ?? 0
          const taken = Math.max(0, Math.min(Math.floor(count), limit - used))
          if (!state.accounts.has(accountId) || taken === 0) return [0, state] as const
          return [taken, withMessaging(state, {
            ...state.messaging,
            allowanceUsage: mapSet(state.messaging.allowanceUsage, key, used + taken)
          })] as const
        }),
      giveBack: (accountId, month) =>
        updateStore(store, (state) => {
          const key = accountKey(accountId, allowanceMonthKey(month))
          const used = state.messaging.allowanceUsage.get(key) ?? 0
          if (used === 0) return [undefined, state] as const
          return [undefined, withMessaging(state, {
            ...state.messaging,
            allowanceUsage: mapSet(state.messaging.allowanceUsage, key, used - 1)
          })] as const
        }),
      read: (accountId, month) =>
        readStore(store, (state) =>
          Option.fromNullishOr(state.accounts.get(accountId)).pipe(Option.map((account) => ({
            plan: account.plan,
            customLimit: state.messaging.messageLimits.get(accountId) ?? null,
            used: state.messaging.allowanceUsage.get(accountKey(accountId, allowanceMonthKey(month))) ?? 0
          })))),
      setCustomLimit: (accountId, limit) =>
        updateStore(store, (state) => {
          if (!state.accounts.has(accountId)) return [false, state] as const
          const { messageLimits } = state.messaging
          return [true, withMessaging(state, {
            ...state.messaging,
            messageLimits: limit === null ? mapDelete(messageLimits, accountId) : mapSet(messageLimits, accountId, limit)
          })] as const
        })
    })
  })
)
