import { type CurrentUserParts, CurrentUserReader } from "@wasl/core/Accounts"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ACCOUNT_COLUMNS, decodeAccount, decodeSubscription, SUBSCRIPTION_COLUMNS } from "./account-repository-pg.ts"
import {
  decodePreferences,
  PREFERENCE_COLUMNS,
  preferencesOf,
  PREFERENCES_ORDER,
  toUnreadCount,
  unreadCountOf
} from "./notification-repository-pg.ts"
import { aggregateList, type Columns, selectList, unaggregate, unprefix } from "./rows.ts"
import { chosenViewsOf, toChosenViews } from "./saved-view-repository-pg.ts"
import { decodeTeams, TEAM_WITH_PIVOT_COLUMNS, TEAMS_ORDER, teamsOfUser } from "./team-repository-pg.ts"
import { decodeMembership, decodeUser, MEMBERSHIP_COLUMNS, USER_COLUMNS } from "./user-repository-pg.ts"

/**
 * A part of the combined row as the rows its own read would give: none when its subquery found
 * nothing, which its first column (a NOT NULL key in every part) tells.
 */
const part = (row: Readonly<Record<string, unknown>>, list: Columns, prefix: string) => {
  const columns = unprefix(row, list, prefix)
  return columns[list[0]![0]] === null ? [] : [columns]
}

/**
 * `GET /api/me`'s parts on PostgreSQL in one statement. Each part is selected with the columns of
 * the repository that owns it, under a prefix, and decoded with that repository's row schema; the
 * teams and the preferences come as one array per column (in the repositories' order), so every
 * value, timestamps included, still passes through the driver's codec for its type. The two
 * lists, the count and the chosen views are aggregates (always one row); the user, account, membership,
 * subscription and the message allowance (the custom limit, the latest month's count) are
 * left-joined to them.
 */
export const CurrentUserReaderPg: Layer.Layer<CurrentUserReader, never, SqlClient.SqlClient> = Layer.effect(
  CurrentUserReader,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const userColumns = sql.literal(selectList(USER_COLUMNS, "user."))
    const accountColumns = sql.literal(selectList(ACCOUNT_COLUMNS, "account."))
    const membershipColumns = sql.literal(selectList(MEMBERSHIP_COLUMNS, "membership."))
    const subscriptionColumns = sql.literal(selectList(SUBSCRIPTION_COLUMNS, "subscription."))
    const teamColumns = sql.literal(aggregateList(TEAM_WITH_PIVOT_COLUMNS, TEAMS_ORDER, "team.", ["permissions"]))
    const preferenceColumns = sql.literal(aggregateList(PREFERENCE_COLUMNS, PREFERENCES_ORDER, "preference."))

    const read = (accountId: number, userId: number) =>
      Effect.gen(function*() {
        const rows = yield* sql<Record<string, unknown> & { readonly unread: number }>`
          SELECT *
          FROM (${unreadCountOf(sql, accountId, userId)}) unread
          CROSS JOIN (SELECT ${teamColumns} ${teamsOfUser(sql, accountId, userId)}) teams
          CROSS JOIN (SELECT ${preferenceColumns} ${preferencesOf(sql, accountId, userId)}) preferences
          CROSS JOIN (${chosenViewsOf(sql, accountId, userId)}) views
          LEFT JOIN (SELECT ${userColumns} FROM users WHERE id = ${userId}) u ON true
          LEFT JOIN (SELECT ${accountColumns} FROM accounts WHERE id = ${accountId}) a ON true
          LEFT JOIN (
            SELECT ${membershipColumns} FROM account_user WHERE account_id = ${accountId} AND user_id = ${userId}
          ) m ON true
          LEFT JOIN (SELECT ${subscriptionColumns} FROM subscriptions WHERE account_id = ${accountId}) s ON true
          LEFT JOIN (SELECT message_limit AS "allowance.limit" FROM accounts WHERE id = ${accountId}) al ON true
          LEFT JOIN (
            SELECT to_char(month, 'YYYY-MM-DD') AS "allowance.month", used AS "allowance.used"
            FROM message_allowance_usage WHERE account_id = ${accountId} ORDER BY month DESC LIMIT 1
          ) au ON true
        `
        const row = rows[0]!
        const user = yield* decodeUser(part(row, USER_COLUMNS, "user."))
        const account = yield* decodeAccount(part(row, ACCOUNT_COLUMNS, "account."))
        const membership = yield* decodeMembership(part(row, MEMBERSHIP_COLUMNS, "membership."))
        if (Option.isNone(user) || Option.isNone(account) || Option.isNone(membership)) return Option.none()
        const teams = yield* decodeTeams(unaggregate(row, TEAM_WITH_PIVOT_COLUMNS, "team."))
        const preferences = yield* decodePreferences(unaggregate(row, PREFERENCE_COLUMNS, "preference."))
        return Option.some<CurrentUserParts>({
          user: user.value,
          account: account.value,
          membership: membership.value,
          teams,
          preferences,
          unreadCount: toUnreadCount(row),
          subscription: yield* decodeSubscription(part(row, SUBSCRIPTION_COLUMNS, "subscription.")),
          messageAllowance: {
            customLimit: row["allowance.limit"] === null ? null : Number(row["allowance.limit"]),
            month: (row["allowance.month"] as string | null) ?? null,
            used: Number(row["allowance.used"] ?? 0)
          },
          views: toChosenViews(row)
        })
      }).pipe(Effect.orDie)

    return CurrentUserReader.of({ read })
  })
)
