/**
 * `GET /api/me`'s parts kept per account and user (`CurrentUserReader.read`): one statement of
 * seven parts over eight tables, about 45 % of the request's CPU (≈ 180 µs of ≈ 400 on a pinned
 * server, which answered 1.7x the requests with the read kept: bench/README.md). Kept like the
 * other per-request reads of `RepositoryCachesPg`, with the same guarantees:
 *
 * - any change to those tables, by any process, is announced by migration 0020's triggers and
 *   drops the parts it touches on every listening process (`me:<account>:<user>`, `me:<account>`,
 *   or, for a user row, every kept part: `me-user:<user>`);
 * - a write of this process through the ports below drops the parts it touches at once and again
 *   at commit, so a process reads its own writes immediately (the ports are every writer of those
 *   tables: the account's credits, plan and settings, memberships (their use and settings), notification
 *   preferences, notifications written or read, OTP credits charged or refunded, the message
 *   allowance used, given back or set, a user's profile, password, e-mail and two-factor
 *   authentication, saved views and the member's chosen ones; a team's creation drops them in
 *   `RepositoryCachesPg`, which decorates `TeamRepository` for the grants already);
 * - nothing is kept while the process is not listening, nor read or kept inside a transaction, and
 *   whatever is kept expires after the TTL regardless.
 *
 * An unknown member (no parts) is not kept: a membership made meanwhile works at once.
 */
import {
  AccountRepository,
  CurrentUserReader,
  type CurrentUserParts,
  MessageAllowanceLedger,
  UserRepository
} from "@wasl/core/Accounts"
import { TwoFactorRepository } from "@wasl/core/Auth"
import { NotificationRepository } from "@wasl/core/Notifications"
import { OtpLedger, OtpReservationRepository } from "@wasl/core/Otp"
import { SavedViewRepository } from "@wasl/core/Records"
import { Context, Effect, Option } from "effect"
import type { TtlCache } from "./ttl-cache.ts"

/**
 * The ports `RepositoryCachesPg` decorates for `GET /api/me`'s parts: the current user's reader
 * and every writer of what it reads.
 */
export type CurrentUserPorts =
  | CurrentUserReader
  | AccountRepository
  | UserRepository
  | NotificationRepository
  | OtpLedger
  | OtpReservationRepository
  | TwoFactorRepository
  | MessageAllowanceLedger
  | SavedViewRepository

/** What `RepositoryCachesPg` lends: reads through a cache when it may, drops after a write. */
export interface CacheAccess {
  readonly cached: <V>(cache: TtlCache<V>, key: string, load: Effect.Effect<V>, keep: (value: V) => boolean) => Effect.Effect<V>
  /** After a write of this process: drops `key` (every entry without one) now, and again at commit. */
  readonly written: <V>(cache: TtlCache<V>, key?: string) => Effect.Effect<void>
}

/** The cache key of an account's parts (`invalidate` of it drops every member's) or of one member's. */
export const currentUserKey = (accountId: number, userId?: number): string =>
  userId === undefined ? String(accountId) : `${accountId}:${userId}`

/** The ports of `context`, decorated to keep the current user's parts in `cache`. */
export const currentUserCaching = (
  access: CacheAccess,
  cache: TtlCache<Option.Option<CurrentUserParts>>,
  context: Context.Context<CurrentUserPorts>
): Context.Context<CurrentUserPorts> => {
  const { cached, written } = access
  const reader = Context.get(context, CurrentUserReader)
  const accounts = Context.get(context, AccountRepository)
  const users = Context.get(context, UserRepository)
  const notifications = Context.get(context, NotificationRepository)
  const ledger = Context.get(context, OtpLedger)
  const reservations = Context.get(context, OtpReservationRepository)
  const twoFactor = Context.get(context, TwoFactorRepository)
  const allowances = Context.get(context, MessageAllowanceLedger)
  const views = Context.get(context, SavedViewRepository)
  const ofAccount = (accountId: number) => written(cache, currentUserKey(accountId))
  const ofMember = (accountId: number, userId: number) => written(cache, currentUserKey(accountId, userId))
  return Context.make(CurrentUserReader, {
    read: (accountId, userId) =>
      cached(cache, currentUserKey(accountId, userId), reader.read(accountId, userId), Option.isSome)
  }).pipe(
    Context.add(AccountRepository, {
      ...accounts,
      addOtpCredits: (accountId, amount) => Effect.tap(accounts.addOtpCredits(accountId, amount), () => ofAccount(accountId)),
      setPlan: (accountId, plan, limit) => Effect.tap(accounts.setPlan(accountId, plan, limit), () => ofAccount(accountId)),
      setSettings: (accountId, settings) => Effect.tap(accounts.setSettings(accountId, settings), () => ofAccount(accountId))
    }),
    Context.add(UserRepository, {
      ...users,
      addMembership: (accountId, userId) => Effect.tap(users.addMembership(accountId, userId), () => ofMember(accountId, userId)),
      touchMembership: (accountId, userId) =>
        Effect.tap(users.touchMembership(accountId, userId), () => ofMember(accountId, userId)),
      touchMembershipUnlessSince: (accountId, userId, after) =>
        Effect.tap(users.touchMembershipUnlessSince(accountId, userId, after), () => ofMember(accountId, userId)),
      setMemberPreferences: (accountId, userId, preferences) =>
        Effect.tap(users.setMemberPreferences(accountId, userId, preferences), () => ofMember(accountId, userId)),
      // The user row shows in every account's parts of the user: drop every kept part, as the
      // trigger's `me-user` does (a profile or password change is rare).
      setProfile: (id, profile) => Effect.tap(users.setProfile(id, profile), () => written(cache)),
      setPasswordHash: (id, passwordHash) => Effect.tap(users.setPasswordHash(id, passwordHash), () => written(cache)),
      setChangeEmailTo: (id, email) => Effect.tap(users.setChangeEmailTo(id, email), () => written(cache)),
      setEmail: (id, email, verifiedAt) => Effect.tap(users.setEmail(id, email, verifiedAt), () => written(cache)),
      markEmailVerified: (id, email, verifiedAt) =>
        Effect.tap(users.markEmailVerified(id, email, verifiedAt), () => written(cache))
    }),
    Context.add(NotificationRepository, {
      ...notifications,
      savePreference: (accountId, userId, ...rest) =>
        Effect.tap(notifications.savePreference(accountId, userId, ...rest), () => ofMember(accountId, userId)),
      insert: (notification) =>
        Effect.tap(notifications.insert(notification), () => ofMember(notification.accountId, notification.userId)),
      markRead: (accountId, userId, id, now) =>
        Effect.tap(notifications.markRead(accountId, userId, id, now), () => ofMember(accountId, userId))
    }),
    Context.add(OtpLedger, {
      ...ledger,
      chargeCredit: (accountId) => Effect.tap(ledger.chargeCredit(accountId), () => ofAccount(accountId))
    }),
    Context.add(OtpReservationRepository, {
      ...reservations,
      release: (accountId, id, now) => Effect.tap(reservations.release(accountId, id, now), () => ofAccount(accountId)),
      // Refunds to any number of accounts: drop every kept part (the sweep is rare).
      releaseStale: (openedBy, limit, now) =>
        Effect.tap(reservations.releaseStale(openedBy, limit, now), (released) => released > 0 ? written(cache) : Effect.void)
    }),
    // Every member's parts show the account's message allowance.
    Context.add(MessageAllowanceLedger, {
      ...allowances,
      use: (accountId, month, limit) => Effect.tap(allowances.use(accountId, month, limit), () => ofAccount(accountId)),
      giveBack: (accountId, month) => Effect.tap(allowances.giveBack(accountId, month), () => ofAccount(accountId)),
      setCustomLimit: (accountId, limit) =>
        Effect.tap(allowances.setCustomLimit(accountId, limit), () => ofAccount(accountId))
    }),
    // A view saved or deleted may change what any member's choice shows (a view made private).
    Context.add(SavedViewRepository, {
      ...views,
      save: (view) => Effect.tap(views.save(view), () => ofAccount(view.account_id)),
      delete: (accountId, kind, id) => Effect.tap(views.delete(accountId, kind, id), () => ofAccount(accountId)),
      choose: (accountId, userId, kind, viewId) =>
        Effect.tap(views.choose(accountId, userId, kind, viewId), () => ofMember(accountId, userId))
    }),
    // As the user's profile: turning two-factor on or off is rare.
    Context.add(TwoFactorRepository, {
      ...twoFactor,
      begin: (userId, sealed) => Effect.tap(twoFactor.begin(userId, sealed), () => written(cache)),
      confirm: (userId, confirmation) => Effect.tap(twoFactor.confirm(userId, confirmation), () => written(cache)),
      disable: (userId) => Effect.tap(twoFactor.disable(userId), () => written(cache))
    })
  )
}
