/**
 * The reads every request makes, kept in memory for a few seconds (and dropped by this process at
 * once after its own writes of them, members and teams included): an API token by id
 * (`TokenRepository.findById`), a member's grants (`TeamRepository.grantsOf`), an account's
 * property definitions of a kind (`PropertyRepository.list`) and a member's `GET /api/me` parts
 * (`CurrentUserReader.read`, current-user-cache.ts). Without it an authenticated list request
 * sends four statements where the list itself is one.
 *
 * How stale a kept value may be, and why:
 *
 * - Every change to what is kept, whoever makes it (a replica, the CLI, an operator's SQL, a
 *   cascade), NOTIFYs `wasl_cache` at commit (migration 0017's triggers). Each process LISTENs
 *   from its first cached read on and drops what a notification names as soon as it arrives:
 *   a revoked token is refused, a changed property applies, on every replica within the
 *   notification's delivery (milliseconds on a healthy connection).
 * - Nothing is kept while the process is not listening (before the first LISTEN is confirmed,
 *   and from a lost listening connection until it listens again, when everything kept is
 *   dropped): a notification missed cannot leave a stale value behind.
 * - Whatever is kept expires after `ttl` (10 seconds by default) regardless: the bound for
 *   anything that bypassed the triggers (a disabled trigger, a restored backup).
 * - On the process that made a change, its own write drops the entry at once and again at
 *   commit, and a read inside a transaction never uses nor fills the cache (it must see the
 *   transaction's own uncommitted writes, and what it reads may yet be rolled back).
 *
 * Unknown tokens and non-members are not kept (a new token or membership works at once).
 */
import { type CurrentUserParts, MemberRepository, TeamRepository } from "@wasl/core/Accounts"
import { type StoredToken, TokenRepository } from "@wasl/core/Auth"
import { PropertyRepository } from "@wasl/core/Records"
import type { Permission } from "@wasl/core/Auth"
import type { PropertyDefinition } from "@wasl/core/Records"
import { PgClient } from "@effect/sql-pg"
import { Context, DateTime, Duration, Effect, Layer, Option, Queue, Schedule } from "effect"
import { currentUserCaching, currentUserKey, type CurrentUserPorts } from "./current-user-cache.ts"
import { makeTtlCache, type TtlCache } from "./ttl-cache.ts"

/** The channel migration 0017's triggers NOTIFY with what to forget. */
export const CACHE_CHANNEL = "wasl_cache"

/** How long a kept value lives at most when no notification drops it first. */
export const DEFAULT_CACHE_TTL: Duration.Duration = Duration.seconds(10)

/** Options of {@link RepositoryCachesPg}. */
export interface RepositoryCachesOptions {
  /** How long a kept value lives at most (default {@link DEFAULT_CACHE_TTL}). */
  readonly ttl?: Duration.Input | undefined
  /** How many values of each kind a process keeps at most (default 10,000; the oldest go first). */
  readonly maxEntries?: number | undefined
}

/** The ports whose hot reads {@link RepositoryCachesPg} keeps. */
export type CachedRepositories = TokenRepository | TeamRepository | MemberRepository | PropertyRepository | CurrentUserPorts

/**
 * Decorates the token, team and property repositories and the current user's reader it is given
 * (usually the PostgreSQL ones), with the writers of what that reader reads, with a per-process
 * cache of their per-request reads, dropped across processes by
 * PostgreSQL notifications (see the module's comment for the guarantees). Provide it over the
 * repositories: `RepositoryCachesPg().pipe(Layer.provideMerge(RepositoriesPg))`.
 */
export const RepositoryCachesPg = (
  options: RepositoryCachesOptions = {}
): Layer.Layer<CachedRepositories, never, CachedRepositories | PgClient.PgClient> =>
  Layer.effectContext(Effect.gen(function*() {
    const client = yield* PgClient.PgClient
    const tokens = yield* TokenRepository
    const teams = yield* TeamRepository
    const members = yield* MemberRepository
    const properties = yield* PropertyRepository
    const sizes = { ttlMillis: Duration.toMillis(options.ttl ?? DEFAULT_CACHE_TTL), maxEntries: options.maxEntries ?? 10_000 }
    const tokenCache = makeTtlCache<Option.Option<StoredToken>>(sizes)
    const grantCache = makeTtlCache<Option.Option<ReadonlyArray<Permission>>>(sizes)
    const propertyCache = makeTtlCache<ReadonlyArray<PropertyDefinition>>(sizes)
    const currentUserCache = makeTtlCache<Option.Option<CurrentUserParts>>(sizes)
    const caches: ReadonlyArray<TtlCache<any>> = [tokenCache, grantCache, propertyCache, currentUserCache]
    const clearAll = () => caches.forEach((cache) => cache.clear())

    const forget = (payload: string) => {
      const colon = payload.indexOf(":")
      const what = payload.slice(0, colon)
      const key = payload.slice(colon + 1)
      if (colon > 0 && what === "token") tokenCache.invalidate(key)
      else if (colon > 0 && what === "grants") grantCache.invalidate(key)
      else if (colon > 0 && what === "properties") propertyCache.invalidate(key)
      else if (colon > 0 && what === "me") currentUserCache.invalidate(key)
      // A user's row: the parts of every account they belong to, whose keys this cache cannot
      // find by the user alone (users rows change rarely: only an operator's SQL changes them).
      else if (colon > 0 && what === "me-user") currentUserCache.clear()
      else clearAll()
    }

    let listening = false
    const listen = Effect.scoped(Effect.gen(function*() {
      const notifications = yield* client.listen(CACHE_CHANNEL)
      // Whatever was read before this point may have missed a notification: start afresh.
      clearAll()
      listening = true
      while (true) forget((yield* Queue.take(notifications)).payload)
    })).pipe(
      Effect.ensuring(Effect.sync(() => {
        listening = false
        clearAll()
      })),
      Effect.tapCause((cause) => Effect.logWarning(`listening on ${CACHE_CHANNEL} failed; not caching until it listens again`, cause)),
      Effect.retry(Schedule.spaced(Duration.seconds(1))),
      Effect.ignore
    )
    // Started by the first read, in the layer's scope: a process that reads none of these (a
    // worker) holds no listening connection.
    const scope = yield* Effect.scope
    let started = false
    const startListening = Effect.suspend(() => {
      if (started) return Effect.void
      started = true
      return Effect.asVoid(Effect.forkIn(listen, scope))
    })

    /**
     * `load` through `cache` when the process listens and no transaction is open, else `load` alone.
     * Whether a transaction is open is read off the fiber in one step: every authenticated request
     * makes three or four of these reads.
     */
    const cached = <V>(cache: TtlCache<V>, key: string, load: Effect.Effect<V>, keep: (value: V) => boolean) =>
      Effect.withFiber((fiber) => {
        if (listening && Context.getOrUndefined(fiber.context, client.transactionService) === undefined) {
          return cache.get(key, load, keep)
        }
        return Effect.andThen(startListening, load)
      })
    /** After a write of this process: drop the entry (without a key, every entry) now, and again at commit. */
    const written = <V>(cache: TtlCache<V>, key?: string) => {
      const drop = Effect.sync(() => key === undefined ? cache.clear() : cache.invalidate(key))
      return Effect.andThen(drop, client.afterCommit(drop))
    }

    const tokenRepository = TokenRepository.of({
      ...tokens,
      findById: (id) => cached(tokenCache, String(id), tokens.findById(id), Option.isSome),
      revoke: (accountId, userId, id) => Effect.tap(tokens.revoke(accountId, userId, id), () => written(tokenCache, String(id))),
      // The kept copy learns the new last use, so the next request does not write it again.
      touch: (id) =>
        Effect.andThen(
          tokens.touch(id),
          Effect.map(DateTime.now, (now) =>
            tokenCache.update(String(id), Option.map((stored) => ({ ...stored, token: { ...stored.token, last_used_at: now } }))))
        )
    })
    // What a member holds, and its `GET /api/me` parts, of one member or (without `userId`) every member of the account.
    const grantsChanged = (accountId: number, userId?: number) =>
      Effect.andThen(
        written(grantCache, userId === undefined ? String(accountId) : `${accountId}:${userId}`),
        written(currentUserCache, currentUserKey(accountId, userId))
      )
    const teamRepository = TeamRepository.of({
      ...teams,
      create: (input, members) => Effect.tap(teams.create(input, members), () => grantsChanged(input.accountId)),
      update: (accountId, id, changes) => Effect.tap(teams.update(accountId, id, changes), () => grantsChanged(accountId)),
      remove: (accountId, id) => Effect.tap(teams.remove(accountId, id), () => grantsChanged(accountId)),
      setMembers: (accountId, id, userIds) => Effect.tap(teams.setMembers(accountId, id, userIds), () => grantsChanged(accountId)),
      grantsOf: (accountId, userId) => cached(grantCache, `${accountId}:${userId}`, teams.grantsOf(accountId, userId), Option.isSome)
    })
    // A suspended or removed member is refused at once by this process too; a removal takes its
    // tokens with it (every kept token is dropped: the cache cannot find them by member, and it is rare).
    const memberRepository = MemberRepository.of({
      ...members,
      setStatus: (accountId, userId, status) =>
        Effect.tap(members.setStatus(accountId, userId, status), () => grantsChanged(accountId, userId)),
      setTeams: (accountId, userId, teamIds) =>
        Effect.tap(members.setTeams(accountId, userId, teamIds), () => grantsChanged(accountId, userId)),
      remove: (accountId, userId) =>
        Effect.tap(members.remove(accountId, userId), () => Effect.andThen(grantsChanged(accountId, userId), written(tokenCache)))
    })
    const propertiesOf = (accountId: number | null, kind: string) => written(propertyCache, `${accountId}:${kind}`)
    const propertyRepository = PropertyRepository.of({
      ...properties,
      list: (accountId, kind) => cached(propertyCache, `${accountId}:${kind}`, properties.list(accountId, kind), () => true),
      insert: (d) => Effect.tap(properties.insert(d), () => propertiesOf(d.account_id, d.kind)),
      update: (d) => Effect.tap(properties.update(d), () => propertiesOf(d.account_id, d.kind)),
      delete: (accountId, kind, id) => Effect.tap(properties.delete(accountId, kind, id), () => propertiesOf(accountId, kind))
    })
    const currentUserPorts = currentUserCaching({ cached, written }, currentUserCache, yield* Effect.context<CurrentUserPorts>())
    return Context.merge(
      currentUserPorts,
      Context.make(TokenRepository, tokenRepository).pipe(
        Context.add(TeamRepository, teamRepository),
        Context.add(MemberRepository, memberRepository),
        Context.add(PropertyRepository, propertyRepository)
      )
    )
  }))
