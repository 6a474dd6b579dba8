import { type Verification, VerificationRepository } from "@wasl/core/Otp"
import { DateTime, Effect, Layer, Option } from "effect"
import { accountKey } from "./messaging-tables.ts"
import { requireBroadcast, requireNewRecordKey, withMessaging } from "./messaging-constraints.ts"
import { mapSet, MemoryStore, readStore, updateStore } from "./store.ts"

const CODE_HASH = /^[0-9a-f]{64}$/

/** `CHECK (code_hash ~ '^[0-9a-f]{64}$')` and `CHECK (attempts BETWEEN 0 AND 5)`. */
const check = (v: Verification) => {
  if (!CODE_HASH.test(v.code_hash)) {
    throw new Error(`new row for relation "otp_verifications" violates check constraint: code_hash`)
  }
  if (!Number.isInteger(v.attempts) || v.attempts < 0 || v.attempts > 5) {
    throw new Error(`new row for relation "otp_verifications" violates check constraint: attempts = ${v.attempts}`)
  }
}

/**
 * Managed-OTP verifications in the memory store: same semantics as VerificationRepositoryPg. The
 * row locks of `forUpdate` and `listLive` need nothing here: a memory transaction holds the whole
 * store until it ends, so concurrent attempts already run one after another.
 */
export const VerificationRepositoryMemory: Layer.Layer<VerificationRepository, never, MemoryStore> = Layer.effect(
  VerificationRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return VerificationRepository.of({
      insert: (verification) =>
        updateStore(store, (state) => {
          const { verifications } = state.messaging
          requireNewRecordKey(verifications, verification.account_id, verification.id, "otp_verifications")
          requireBroadcast(state, verification.account_id, verification.broadcast_id, "otp_verifications")
          check(verification)
          const key = accountKey(verification.account_id, verification.id)
          return [undefined, withMessaging(state, {
            ...state.messaging,
            verifications: mapSet(verifications, key, verification)
          })] as const
        }),
      findById: (accountId, id) =>
        readStore(store, (state) => Option.fromNullishOr(state.messaging.verifications.get(accountKey(accountId, id)))),
      listLive: (accountId, broadcastId, to) =>
        readStore(store, (state) =>
          [...state.messaging.verifications.values()]
            .filter((v) => v.account_id === accountId && v.broadcast_id === broadcastId && v.to === to && v.status === "live")
            .sort((a, b) => DateTime.Order(a.created_at, b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))),
      update: (verification) =>
        updateStore(store, (state) => {
          const { verifications } = state.messaging
          const key = accountKey(verification.account_id, verification.id)
          const current = verifications.get(key)
          if (current === undefined) return [undefined, state] as const
          const next: Verification = {
            ...current,
            status: verification.status,
            attempts: verification.attempts,
            updated_at: verification.updated_at
          }
          check(next)
          return [undefined, withMessaging(state, { ...state.messaging, verifications: mapSet(verifications, key, next) })] as const
        })
    })
  })
)
