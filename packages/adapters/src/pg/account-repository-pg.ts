import { type Account, AccountRepository, type AccountSettings, Plan, type Subscription } from "@wasl/core/Accounts"
import { NotFound } from "@wasl/core/Errors"
import { newRecordId } from "@wasl/core/Wire"
import { Effect, Layer, Option, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { SqlClient } from "effect/sql"
import { InsufficientOtpCredits } from "../repository-semantics.ts"
import { type Columns, columns, DbInt, DbNullOr, DbTimestamp, decodeFirst, nowParam, selectList } from "./rows.ts"

const NullableString = Schema.NullOr(Schema.String)

const AccountRow = Schema.Struct({
  id: DbInt,
  name: Schema.String,
  plan: Plan,
  webhook_limit: Schema.NullOr(DbInt),
  otp_credits: DbInt,
  industry: NullableString,
  logo: NullableString,
  address: NullableString,
  timeZone: NullableString,
  calendar: NullableString,
  hour12: Schema.NullOr(Schema.Boolean),
  locale: NullableString,
  currency: NullableString,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

/** The columns of an account. */
export const ACCOUNT_COLUMNS: Columns = columns("id", "name", "plan", "webhook_limit", "otp_credits", "industry", "logo",
  "address", ["timeZone", "time_zone"], "calendar", "hour12", "locale", "currency", "created_at", "updated_at")

const NullableTimestamp = DbNullOr(DbTimestamp)

const SubscriptionRow = Schema.Struct({
  id: Schema.String,
  account_id: DbInt,
  name: Schema.String,
  status: Schema.String,
  trial_ends_at: NullableTimestamp,
  paused_at: NullableTimestamp,
  ends_at: NullableTimestamp,
  canceled_at: NullableTimestamp,
  created_at: DbTimestamp,
  updated_at: DbTimestamp,
  provider: Schema.String,
  will_change_at: NullableTimestamp,
  will_change_to: NullableString,
  interval: DbInt
})

/** The columns of a subscription. */
export const SUBSCRIPTION_COLUMNS: Columns = columns("id", "account_id", "name", "status", "trial_ends_at", "paused_at",
  "ends_at", "canceled_at", "created_at", "updated_at", "provider", "will_change_at", "will_change_to", "interval")

/** The first row of {@link ACCOUNT_COLUMNS}, as `Account`. */
export const decodeAccount: (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<Account>> = decodeFirst(AccountRow)
/** The first row of {@link SUBSCRIPTION_COLUMNS}, as `Subscription`. */
export const decodeSubscription: (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<Subscription>> = decodeFirst(
  SubscriptionRow
)

/**
 * Accounts and their subscription on PostgreSQL. `addOtpCredits` is one
 * atomic `UPDATE ... SET otp_credits = otp_credits + n ... RETURNING` guarded
 * by `otp_credits + n >= 0`: a negative amount larger than the balance changes
 * nothing and dies with `InsufficientOtpCredits` (the port has no typed error
 * for it); an unknown account fails `NotFound`.
 */
export const AccountRepositoryPg: Layer.Layer<AccountRepository, never, SqlClient.SqlClient | SecureRandom.SecureRandom> =
  Layer.effect(
    AccountRepository,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const random = yield* SecureRandom.SecureRandom
      const accountColumns = sql.literal(selectList(ACCOUNT_COLUMNS))
      const subscriptionColumns = sql.literal(selectList(SUBSCRIPTION_COLUMNS))

      const create = (input: Parameters<AccountRepository["Service"]["create"]>[0]) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const subscriptionId = yield* Effect.provideService(newRecordId, SecureRandom.SecureRandom, random)
          const account = yield* sql`
            INSERT INTO accounts (name, plan, webhook_limit, otp_credits, created_at, updated_at)
            VALUES (${input.name}, ${input.plan}, ${input.webhookLimit}, ${input.otpCredits}, ${now}, ${now})
            RETURNING ${accountColumns}
          `.pipe(Effect.flatMap(decodeAccount), Effect.map(Option.getOrThrow))
          yield* sql`
            INSERT INTO subscriptions (account_id, id, name, status, provider, interval, created_at, updated_at)
            VALUES (${account.id}, ${subscriptionId}, 'default', 'active', 'wasl', 30, ${now}, ${now})
          `
          return account satisfies Account
        }).pipe((effect) => sql.withTransaction(effect), Effect.orDie)

      const findById = (id: number) =>
        sql`SELECT ${accountColumns} FROM accounts WHERE id = ${id}`.pipe(
          Effect.flatMap(decodeAccount),
          Effect.orDie
        )

      const count = sql<{ count: number }>`SELECT count(*)::int4 AS count FROM accounts`.pipe(
        Effect.map((rows) => Number(rows[0]?.count ?? 0)),
        Effect.orDie
      )

      const subscription = (accountId: number) =>
        sql`SELECT ${subscriptionColumns} FROM subscriptions WHERE account_id = ${accountId}`.pipe(
          Effect.flatMap(decodeSubscription),
          Effect.orDie,
          Effect.flatMap((row): Effect.Effect<Subscription, NotFound> =>
            Option.match(row, { onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })
          )
        )

      const orNotFound = (row: Option.Option<Account>) =>
        Option.match(row, { onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })

      const addOtpCredits = (accountId: number, amount: number) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const updated = yield* sql`
            UPDATE accounts
            SET otp_credits = otp_credits + ${amount}, updated_at = ${now}
            WHERE id = ${accountId} AND otp_credits + ${amount} >= 0
            RETURNING ${accountColumns}
          `.pipe(Effect.flatMap(decodeAccount), Effect.orDie)
          if (Option.isSome(updated)) return updated.value
          // Nothing changed: either no such account, or the balance is too small.
          const exists = yield* Effect.orDie(sql`SELECT 1 FROM accounts WHERE id = ${accountId}`)
          if (exists.length === 0) return yield* new NotFound()
          return yield* Effect.die(new InsufficientOtpCredits(accountId, amount))
        })

      const setPlan = (accountId: number, plan: Plan, webhookLimit: number | null) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const updated = yield* sql`
            UPDATE accounts SET plan = ${plan}, webhook_limit = ${webhookLimit}, updated_at = ${now}
            WHERE id = ${accountId}
            RETURNING ${accountColumns}
          `.pipe(Effect.flatMap(decodeAccount), Effect.orDie)
          return yield* orNotFound(updated)
        })

      const setSettings = (accountId: number, settings: AccountSettings) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const updated = yield* sql`
            UPDATE accounts
            SET name = ${settings.name}, industry = ${settings.industry}, logo = ${settings.logo}, address = ${settings.address},
                time_zone = ${settings.timeZone}, calendar = ${settings.calendar}, hour12 = ${settings.hour12},
                locale = ${settings.locale}, currency = ${settings.currency}, updated_at = ${now}
            WHERE id = ${accountId}
            RETURNING ${accountColumns}
          `.pipe(Effect.flatMap(decodeAccount), Effect.orDie)
          return yield* orNotFound(updated)
        })

      return AccountRepository.of({ create, findById, count, subscription, addOtpCredits, setPlan, setSettings })
    })
  )
