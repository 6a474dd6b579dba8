import { type Platform, PlatformRepository, UNKNOWN_HEALTH } from "@wasl/core/Messaging"
import { DateTime, Effect, Layer, Option } from "effect"
import { requireAccount, withMessaging } from "./messaging-constraints.ts"
import { mapDelete, mapSet, MemoryStore, readStore, updateStore } from "./store.ts"

const digits = (p: Platform) => p.display_phone_number.replace(/[^0-9]/g, "")

/**
 * Sending numbers in the memory store: same semantics as PlatformRepositoryPg (ids from one
 * sequence across accounts, listed by id, the access token stored as sealed by the caller; a
 * removed number takes its broadcasts, their templates and OTP verifications, and leaves its
 * messages unlinked from them).
 */
export const PlatformRepositoryMemory: Layer.Layer<PlatformRepository, never, MemoryStore> = Layer.effect(
  PlatformRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    /** Applies `f` to the account's number `id` (stamping updated_at); none when there is no such number. */
    const change = (accountId: number, id: number, f: (p: Platform) => Platform) =>
      Effect.flatMap(DateTime.now, (now) =>
        updateStore(store, (state) => {
          const found = state.messaging.platforms.get(id)
          if (found?.account_id !== accountId) return [Option.none<Platform>(), state] as const
          const changed = { ...f(found), updated_at: now }
          return [Option.some(changed), withMessaging(state, {
            ...state.messaging,
            platforms: mapSet(state.messaging.platforms, id, changed)
          })] as const
        }))
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
              ...UNKNOWN_HEALTH,
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
            p.phone_id === null ? digits(p) === phoneNumberId : p.phone_id === phoneNumberId
          )),
      update: (accountId, id, changes) => change(accountId, id, (p) => ({
        ...p,
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.sealed_access_token === undefined ? {} : { sealed_access_token: changes.sealed_access_token })
      })),
      setHealth: (accountId, id, health) => change(accountId, id, (p) => ({ ...p, ...health })),
      setLimitTier: (wabaId, displayDigits, tier) =>
        Effect.flatMap(DateTime.now, (now) =>
          updateStore(store, (state) => {
            const matched = [...state.messaging.platforms.values()].filter((p) =>
              p.provider === "whatsapp_cloud" && p.waba_id === wabaId && digits(p) === displayDigits
            ).map((p): Platform => ({ ...p, messaging_limit_tier: tier, updated_at: now }))
            if (new Set(matched.map((p) => p.account_id)).size !== 1) return [[] as Array<Platform>, state] as const
            const platforms = matched.reduce((all, p) => mapSet(all, p.id, p), state.messaging.platforms)
            return [matched, withMessaging(state, { ...state.messaging, platforms })] as const
          })),
      remove: (accountId, id) =>
        updateStore(store, (state) => {
          const { platforms, broadcasts, templates, messages, verifications } = state.messaging
          if (platforms.get(id)?.account_id !== accountId) return [false, state] as const
          const gone = [...broadcasts.values()].filter((b) => b.account_id === accountId && b.platform_id === id)
          const goneIds = new Set(gone.map((b) => b.id))
          const kept = [...broadcasts.values()].filter((b) => !goneIds.has(b.id))
          const orphanTemplates = new Set(
            gone.map((b) => b.template_id).filter((t) => !kept.some((b) => b.template_id === t))
          )
          return [true, withMessaging(state, {
            ...state.messaging,
            platforms: mapDelete(platforms, id),
            broadcasts: new Map([...broadcasts].filter(([, b]) => !goneIds.has(b.id))),
            templates: new Map([...templates].filter(([tid]) => !orphanTemplates.has(tid))),
            verifications: new Map([...verifications].filter(([, v]) => !goneIds.has(v.broadcast_id))),
            messages: new Map([...messages].map(([key, m]) =>
              [key, m.broadcast_id !== null && goneIds.has(m.broadcast_id) ? { ...m, broadcast_id: null } : m] as const
            ))
          })] as const
        })
    })
  })
)
