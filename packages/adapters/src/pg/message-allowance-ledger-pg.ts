import { allowanceMonthKey, MessageAllowanceLedger, Plan } from "@wasl/core/Accounts"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, decodeFirst, nowParam } from "./rows.ts"

const CountRow = Schema.Struct({ plan: Plan, message_limit: DbNullOr(DbInt), used: DbInt })
const decodeCount = decodeFirst(CountRow)

/**
 * The monthly message allowance on PostgreSQL (migration 0036).
 *
 * - `use`: one upsert on `message_allowance_usage (account_id, month)` that inserts 1 (when the
 *   limit allows any, and the account exists) or adds 1 only while `used` is below the limit. A concurrent upsert of the
 *   same row waits for the row lock and re-checks the condition on the row the other one left
 *   (READ COMMITTED), so exactly `limit` uses succeed however many race. No row back: used up.
 * - `giveBack`: `used - 1`, never below zero.
 * - `read`: the account's plan and custom limit with the month's count, in one statement.
 */
export const MessageAllowanceLedgerPg: Layer.Layer<MessageAllowanceLedger, never, SqlClient.SqlClient> = Layer.effect(
  MessageAllowanceLedger,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return MessageAllowanceLedger.of({
      use: (accountId, month, limit) =>
        Effect.gen(function*() {
          if (limit < 1) return false
          const rows = yield* sql`
            INSERT INTO message_allowance_usage (account_id, month, used)
            SELECT id, ${allowanceMonthKey(month)}, 1 FROM accounts WHERE id = ${accountId}
            ON CONFLICT (account_id, month) DO UPDATE SET used = message_allowance_usage.used + 1
            WHERE message_allowance_usage.used < ${limit}
            RETURNING used
          `
          return rows.length > 0
        }).pipe(Effect.orDie),
      // The row is made first (0 used) if the account has none this month; the update then locks
      // it and reads the count it changes, so racing calls queue on the row and never pass the limit.
      useUpTo: (accountId, month, limit, count) =>
        Effect.gen(function*() {
          const n = Math.floor(count)
          if (limit < 1 || n < 1) return 0
          const key = allowanceMonthKey(month)
          yield* sql`
            INSERT INTO message_allowance_usage (account_id, month, used)
            SELECT id, ${key}, 0 FROM accounts WHERE id = ${accountId}
            ON CONFLICT (account_id, month) DO NOTHING
          `
          const rows = yield* sql<{ readonly taken: number }>`
            WITH old AS (
              SELECT used FROM message_allowance_usage WHERE account_id = ${accountId} AND month = ${key} FOR UPDATE
            )
            UPDATE message_allowance_usage u SET used = LEAST(u.used + ${n}, ${limit})
            FROM old WHERE u.account_id = ${accountId} AND u.month = ${key} AND old.used < ${limit}
            RETURNING (LEAST(old.used + ${n}, ${limit}) - old.used)::int AS taken
          `
          return rows.length === 0 ? 0 : Number(rows[0]!.taken)
        }).pipe(Effect.orDie),
      giveBack: (accountId, month) =>
        sql`
          UPDATE message_allowance_usage SET used = used - 1
          WHERE account_id = ${accountId} AND month = ${allowanceMonthKey(month)} AND used > 0
        `.pipe(Effect.asVoid, Effect.orDie),
      read: (accountId, month) =>
        sql`
          SELECT a.plan, a.message_limit, COALESCE(u.used, 0) AS used
          FROM accounts a
          LEFT JOIN message_allowance_usage u ON u.account_id = a.id AND u.month = ${allowanceMonthKey(month)}
          WHERE a.id = ${accountId}
        `.pipe(
          Effect.flatMap(decodeCount),
          Effect.map(Option.map((row) => ({ plan: row.plan, customLimit: row.message_limit, used: row.used }))),
          Effect.orDie
        ),
      setCustomLimit: (accountId, limit) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const rows = yield* sql`
            UPDATE accounts SET message_limit = ${limit}, updated_at = ${now} WHERE id = ${accountId} RETURNING id
          `
          return rows.length > 0
        }).pipe(Effect.orDie)
    })
  })
)
