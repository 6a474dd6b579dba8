import { Context, type Effect, type Option } from "effect"
import type { Account, Membership, Subscription } from "./account.ts"
import type { ChosenViews } from "./chosen-views.ts"
import type { NotificationPreference, Team, User } from "./user.ts"

/** What `GET /api/me` is built from, read together. */
export interface CurrentUserParts {
  /** The user. */
  readonly user: User
  /** The account. */
  readonly account: Account
  /** The user's membership of the account. */
  readonly membership: Membership
  /** The user's teams in the account, each with the user's pivot (as `TeamRepository.listForUser`). */
  readonly teams: ReadonlyArray<Team>
  /** The user's stored preferences in the account (as `NotificationRepository.listPreferences`). */
  readonly preferences: ReadonlyArray<NotificationPreference>
  /** Unread notifications the user can see (as `NotificationRepository.unreadCount`). */
  readonly unreadCount: number
  /** The account's subscription; none only when the account has lost it (a broken invariant). */
  readonly subscription: Option.Option<Subscription>
  /** The account's monthly message allowance count (as `MessageAllowanceLedger` keeps it). */
  readonly messageAllowance: MessageAllowanceParts
  /** The user's chosen views in the account (as `SavedViewRepository.chosen`). */
  readonly views: ChosenViews
}

/** What `GET /api/me`'s message allowance is made of, besides the plan and the Clock. */
export interface MessageAllowanceParts {
  /** The allowance of a `custom` plan; null when none is set. */
  readonly customLimit: number | null
  /** The latest month with a count (`YYYY-MM-DD`, its first day), or null when none was ever counted. */
  readonly month: string | null
  /** The messages used in that month. */
  readonly used: number
}

/** What the {@link CurrentUserReader} port offers (implement this to write an adapter). */
export interface CurrentUserReaderShape {
  /**
   * Everything `GET /api/me` shows of the user in the account, in one read; none when the user,
   * the account or the user's membership of it does not exist.
   */
  readonly read: (accountId: number, userId: number) => Effect.Effect<Option.Option<CurrentUserParts>>
}

const CurrentUserReaderBase: Context.ServiceClass<
  CurrentUserReader,
  "@wasl/core/CurrentUserReader",
  CurrentUserReaderShape
> = Context.Service<CurrentUserReader, CurrentUserReaderShape>()("@wasl/core/CurrentUserReader")

/**
 * The current user's parts in one read, so the most frequent authenticated request costs the
 * database one round trip. Each part is exactly what the repository that owns it reads.
 * Its operations: {@link CurrentUserReaderShape}.
 */
export class CurrentUserReader extends CurrentUserReaderBase {}
