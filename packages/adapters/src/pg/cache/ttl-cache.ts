/**
 * A small in-process cache of values read from the database, for the reads every request makes
 * (a token, a member's grants, property definitions, `GET /api/me`'s parts). Entries live at most
 * `ttlMillis`; an invalidation drops entries at once and also keeps any read that was in flight
 * when it happened from being stored (the read may have seen the old row), so a value is only ever
 * kept if no invalidation came between the start of its read and its end.
 */
import { Clock, Effect } from "effect"

interface Entry<V> {
  readonly value: V
  readonly expiresAt: number
}

/** What `makeTtlCache` answers. */
export interface TtlCache<V> {
  /**
   * The value under `key`: the kept one if it has not expired, else `load`'s, kept when `keep`
   * says so at the end of the load (and no invalidation happened meanwhile).
   */
  readonly get: <E, R>(key: string, load: Effect.Effect<V, E, R>, keep: (value: V) => boolean) => Effect.Effect<V, E, R>
  /** Replaces the kept value under `key`, if any (its expiry unchanged). */
  readonly update: (key: string, f: (value: V) => V) => void
  /** Drops the entries whose key is `key` or starts with `key + ":"`; loads in flight are not kept. */
  readonly invalidate: (key: string) => void
  /** Drops every entry; loads in flight are not kept. */
  readonly clear: () => void
}

/** A cache of at most `maxEntries` (the oldest go first), each kept `ttlMillis`. */
export const makeTtlCache = <V>(options: { readonly ttlMillis: number; readonly maxEntries: number }): TtlCache<V> => {
  const entries = new Map<string, Entry<V>>()
  // Bumped by every invalidation: a load that saw another value than it started with is not kept.
  let epoch = 0
  const store = (key: string, value: V, now: number) => {
    if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!)
    entries.set(key, { value, expiresAt: now + options.ttlMillis })
  }
  return {
    // The time read off the fiber's clock in the same step as the lookup: a hit is one step.
    get: (key, load, keep) =>
      Clock.clockWith((clock) => {
        const now = clock.currentTimeMillisUnsafe()
        const hit = entries.get(key)
        if (hit !== undefined && hit.expiresAt > now) return Effect.succeed(hit.value)
        if (hit !== undefined) entries.delete(key)
        const started = epoch
        return Effect.map(load, (value) => {
          if (epoch === started && keep(value)) store(key, value, now)
          return value
        })
      }),
    update: (key, f) => {
      const hit = entries.get(key)
      if (hit !== undefined) entries.set(key, { value: f(hit.value), expiresAt: hit.expiresAt })
    },
    invalidate: (key) => {
      epoch++
      const prefix = `${key}:`
      for (const k of entries.keys()) if (k === key || k.startsWith(prefix)) entries.delete(k)
    },
    clear: () => {
      epoch++
      entries.clear()
    }
  }
}
