import { type Platform, PlatformRepository } from "@wasl/core"
import { DateTime, Effect, Layer, Option } from "effect"
import { requireAccount, withMessaging } from "./messaging-constraints.ts"
import { mapSet, MemoryStore, readStore, updateStore } from "./store.ts"

/**
 * Sending numbers in the memory store: same semantics as PlatformRepositoryPg (ids from one
 * sequence across accounts, listed by id, the access token stored as sealed by the caller).
 */
export const PlatformRepositoryMemory: Layer.Layer<PlatformRepository, never, MemoryStore> = Layer.effect(
  PlatformRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return PlatformRepository.of({
      insert: (accountId, input) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            requireAccount(state, accountId, "platforms")
            const { platforms, sequences } = state.messaging
            const platform: Platform = {
              id: sequences.platforms,
              account_id: accountId,
              name: input.name,
              display_phone_number: input.display_phone_number,
              provider: input.provider,
              phone_id: input.phone_id,
              waba_id: input.waba_id,
              sealed_access_token: input.sealed_access_token,
              created_at: now,
              updated_at: now
            }
            return [platform, withMessaging(state, {
              ...state.messaging,
              sequences: { ...sequences, platforms: platform.id + 1 },
              platforms: mapSet(platforms, platform.id, platform)
            })] as const
          })),
      list: (accountId) =>
        readStore(store, (state) => [...state.messaging.platforms.values()].filter((p) => p.account_id === accountId)),
      findById: (accountId, id) =>
        readStore(store, (state) =>
          Option.fromNullishOr(state.messaging.platforms.get(id)).pipe(Option.filter((p) => p.account_id === accountId))),
      findByProviderNumber: (phoneNumberId) =>
        readStore(store, (state) =>
          [...state.messaging.platforms.values()].filter((p) =>
            p.phone_id === null ? p.display_phone_number.replace(/[^0-9]/g, "") === phoneNumberId : p.phone_id === phoneNumberId
          ))
    })
  })
)
