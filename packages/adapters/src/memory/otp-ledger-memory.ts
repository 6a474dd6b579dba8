import { cooldownSecondsLeft, OtpLedger } from "@wasl/core/Otp"
import { DateTime, Effect, Layer, Option } from "effect"
import { accountKey } from "./messaging-tables.ts"
import { requireAccount, withMessaging } from "./messaging-constraints.ts"
import { mapDelete, mapSet, MemoryStore, readStore, updateStore } from "./store.ts"

/**
 * OTP credits and cooldowns in the memory store: same semantics as OtpLedgerPg. Each method is one
 * atomic change of the store, so racing charges and claims run one after another; `lockRecipient`
 * only waits for a running transaction, which already holds the whole store until it ends.
 */
export const OtpLedgerMemory: Layer.Layer<OtpLedger, never, MemoryStore> = Layer.effect(
  OtpLedger,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return OtpLedger.of({
      chargeCredit: (accountId) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const account = state.accounts.get(accountId)
            if (account === undefined || account.otp_credits < 1) return [false, state] as const
            const charged = { ...account, otp_credits: account.otp_credits - 1, updated_at: now }
            return [true, { ...state, accounts: mapSet(state.accounts, accountId, charged) }] as const
          })),
      claimCooldown: (accountId, recipient, now, cooldown) =>
        updateStore(store, (state) => {
          const { cooldowns } = state.messaging
          const key = accountKey(accountId, recipient)
          const last = cooldowns.get(key)
          if (last !== undefined && DateTime.isGreaterThan(last, DateTime.subtractDuration(now, cooldown))) {
            return [Option.some(cooldownSecondsLeft(last, now, cooldown)), state] as const
          }
          requireAccount(state, accountId, "otp_cooldowns")
          return [Option.none<number>(), withMessaging(state, {
            ...state.messaging,
            cooldowns: mapSet(cooldowns, key, now)
          })] as const
        }),
      releaseCooldown: (accountId, recipient, claimedAt) =>
        updateStore(store, (state) => {
          const { cooldowns } = state.messaging
          const key = accountKey(accountId, recipient)
          const last = cooldowns.get(key)
          if (last === undefined || !DateTime.Equivalence(last, claimedAt)) return [undefined, state] as const
          return [undefined, withMessaging(state, { ...state.messaging, cooldowns: mapDelete(cooldowns, key) })] as const
        }),
      lockRecipient: () => readStore(store, () => undefined)
    })
  })
)
