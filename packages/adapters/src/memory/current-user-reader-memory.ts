import {
  AccountRepository,
  allowanceMonth,
  allowanceMonthKey,
  CurrentUserReader,
  type CurrentUserParts,
  MessageAllowanceLedger,
  TeamRepository,
  UserRepository
} from "@wasl/core/Accounts"
import { NotificationRepository } from "@wasl/core/Notifications"
import { SavedViewRepository } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Option } from "effect"

/**
 * `GET /api/me`'s parts from the memory repositories' own reads; the twin of
 * `CurrentUserReaderPg`. Provide it over the repositories it reads.
 */
export const CurrentUserReaderMemory: Layer.Layer<
  CurrentUserReader,
  never,
  AccountRepository | MessageAllowanceLedger | NotificationRepository | SavedViewRepository | TeamRepository | UserRepository
> = Layer.effect(
  CurrentUserReader,
  Effect.gen(function*() {
    const users = yield* UserRepository
    const accounts = yield* AccountRepository
    const teams = yield* TeamRepository
    const notifications = yield* NotificationRepository
    const allowances = yield* MessageAllowanceLedger
    const views = yield* SavedViewRepository

    const read = Effect.fnUntraced(function*(accountId: number, userId: number) {
      const [user, account, membership] = yield* Effect.all([
        users.findById(userId),
        accounts.findById(accountId),
        users.findMembership(accountId, userId)
      ])
      if (Option.isNone(user) || Option.isNone(account) || Option.isNone(membership)) return Option.none()
      // The Clock's month stands for the latest one counted: a month without a count shows 0 either way.
      const month = allowanceMonth(yield* DateTime.now)
      const count = yield* allowances.read(accountId, month)
      return Option.some<CurrentUserParts>({
        user: user.value,
        account: account.value,
        membership: membership.value,
        teams: yield* teams.listForUser(accountId, userId),
        preferences: yield* notifications.listPreferences(accountId, userId),
        unreadCount: yield* notifications.unreadCount(accountId, userId),
        subscription: yield* Effect.option(accounts.subscription(accountId)),
        messageAllowance: {
          customLimit: Option.match(count, { onNone: () => null, onSome: (c) => c.customLimit }),
          month: allowanceMonthKey(month),
          used: Option.match(count, { onNone: () => 0, onSome: (c) => c.used })
        },
        views: yield* views.chosen(accountId, userId)
      })
    })

    return CurrentUserReader.of({ read })
  })
)
