import {
  AccountRepository,
  CurrentUserReader,
  type CurrentUserParts,
  NotificationRepository,
  TeamRepository,
  UserRepository
} from "@wasl/core"
import { Effect, Layer, Option } from "effect"

/**
 * `GET /api/me`'s parts from the memory repositories' own reads; the twin of
 * `CurrentUserReaderPg`. Provide it over the repositories it reads.
 */
export const CurrentUserReaderMemory: Layer.Layer<
  CurrentUserReader,
  never,
  AccountRepository | NotificationRepository | TeamRepository | UserRepository
> = Layer.effect(
  CurrentUserReader,
  Effect.gen(function*() {
    const users = yield* UserRepository
    const accounts = yield* AccountRepository
    const teams = yield* TeamRepository
    const notifications = yield* NotificationRepository

    const read = Effect.fnUntraced(function*(accountId: number, userId: number) {
      const [user, account, membership] = yield* Effect.all([
        users.findById(userId),
        accounts.findById(accountId),
        users.findMembership(accountId, userId)
      ])
      if (Option.isNone(user) || Option.isNone(account) || Option.isNone(membership)) return Option.none()
      return Option.some<CurrentUserParts>({
        user: user.value,
        account: account.value,
        membership: membership.value,
        teams: yield* teams.listForUser(accountId, userId),
        preferences: yield* notifications.listPreferences(accountId, userId),
        unreadCount: yield* notifications.unreadCount(accountId, userId),
        subscription: yield* Effect.option(accounts.subscription(accountId))
      })
    })

    return CurrentUserReader.of({ read })
  })
)
