import {
  type Membership,
  type MemberPreferences,
  MembershipStatus,
  type User,
  UserRepository
} from "@wasl/core/Accounts"
import { invalid } from "@wasl/core/Errors"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { EMAIL_TAKEN } from "../repository-semantics.ts"
import { SqlClient } from "effect/sql"
import { type Columns, columns, DbInt, DbNullOr, DbSqlDateTime, DbTimestamp, decodeFirst, decodeRows, nowParam, selectList } from "./rows.ts"

const NullableString = Schema.NullOr(Schema.String)

const UserRow = Schema.Struct({
  id: DbInt,
  email: Schema.String,
  email_verified_at: DbNullOr(DbTimestamp),
  firstname: Schema.String,
  lastname: Schema.String,
  image: NullableString,
  locale: Schema.String,
  contacts_view_id: NullableString,
  deals_view_id: NullableString,
  tickets_view_id: NullableString,
  change_email_to: NullableString,
  two_factor_confirmed_at: DbNullOr(DbTimestamp),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

/** The columns of a user. */
export const USER_COLUMNS: Columns = columns("id", "email", "email_verified_at", "firstname", "lastname", "image", "locale",
  "contacts_view_id", "deals_view_id", "tickets_view_id", "change_email_to", "two_factor_confirmed_at", "created_at", "updated_at")

const UserWithPasswordRow = Schema.Struct({ ...UserRow.fields, password_hash: Schema.String })

const MembershipRow = Schema.Struct({
  user_id: DbInt,
  account_id: DbInt,
  status: MembershipStatus,
  last_used: DbNullOr(DbSqlDateTime),
  timeZone: Schema.String,
  calendar: NullableString,
  hour12: Schema.Boolean,
  locale: NullableString,
  currency: NullableString,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

/** The columns of a membership. */
export const MEMBERSHIP_COLUMNS: Columns = columns("user_id", "account_id", "status", "last_used", ["timeZone", "time_zone"],
  "calendar", "hour12", "locale", "currency", "created_at", "updated_at")

/** The first row of {@link USER_COLUMNS}, as `User`. */
export const decodeUser: (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<User>> = decodeFirst(UserRow)
const decodeUserWithPassword = decodeFirst(UserWithPasswordRow)
/** The first row of {@link MEMBERSHIP_COLUMNS}, as `Membership`. */
export const decodeMembership: (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<Membership>> = decodeFirst(
  MembershipRow
)
const decodeMemberships = decodeRows(MembershipRow)

/**
 * Users and memberships on PostgreSQL. E-mail uniqueness is the unique index
 * on `lower(email)`: `create` inserts with `ON CONFLICT DO NOTHING`, so a taken
 * address is a ValidationFailed on `email` without aborting the caller's
 * transaction.
 */
export const UserRepositoryPg: Layer.Layer<UserRepository, never, SqlClient.SqlClient> = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const userColumns = sql.literal(selectList(USER_COLUMNS))
    const membershipColumns = sql.literal(selectList(MEMBERSHIP_COLUMNS))

    const create = (input: Parameters<UserRepository["Service"]["create"]>[0]) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const created = yield* sql`
          INSERT INTO users (email, password_hash, firstname, lastname, created_at, updated_at)
          VALUES (${input.email}, ${input.passwordHash}, ${input.firstname}, ${input.lastname}, ${now}, ${now})
          ON CONFLICT ((lower(email))) DO NOTHING
          RETURNING ${userColumns}
        `.pipe(Effect.flatMap(decodeUser), Effect.orDie)
        if (Option.isNone(created)) return yield* invalid("email", EMAIL_TAKEN)
        return created.value satisfies User
      })

    const findById = (id: number) =>
      sql`SELECT ${userColumns} FROM users WHERE id = ${id}`.pipe(Effect.flatMap(decodeUser), Effect.orDie)

    const findByEmail = (email: string) =>
      sql`SELECT ${userColumns}, password_hash FROM users WHERE lower(email) = lower(${email})`.pipe(
        Effect.flatMap(decodeUserWithPassword),
        Effect.map(Option.map(({ password_hash, ...user }) => ({ user, passwordHash: password_hash }))),
        Effect.orDie
      )

    const findPasswordHash = (id: number) =>
      sql<{ readonly password_hash: string }>`SELECT password_hash FROM users WHERE id = ${id}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => row.password_hash)),
        Effect.orDie
      )

    const setProfile = (id: number, profile: Parameters<UserRepository["Service"]["setProfile"]>[1]) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          UPDATE users SET firstname = ${profile.firstname}, lastname = ${profile.lastname}, locale = ${profile.locale},
                           image = ${profile.image}, updated_at = ${now}
          WHERE id = ${id}
          RETURNING ${userColumns}
        `.pipe(Effect.flatMap(decodeUser), Effect.orDie))

    const setPasswordHash = (id: number, passwordHash: string) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`UPDATE users SET password_hash = ${passwordHash}, updated_at = ${now} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ))

    /** Idempotent: an existing membership is returned unchanged. */
    const addMembership = (accountId: number, userId: number) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const row = yield* sql`
          INSERT INTO account_user (account_id, user_id, status, time_zone, hour12, created_at, updated_at)
          VALUES (${accountId}, ${userId}, 'active', 'UTC', false, ${now}, ${now})
          ON CONFLICT (account_id, user_id) DO UPDATE SET status = account_user.status
          RETURNING ${membershipColumns}
        `.pipe(Effect.flatMap(decodeMembership), Effect.orDie)
        return Option.getOrThrow(row) satisfies Membership
      })

    const findMembership = (accountId: number, userId: number) =>
      sql`
        SELECT ${membershipColumns} FROM account_user WHERE account_id = ${accountId} AND user_id = ${userId}
      `.pipe(Effect.flatMap(decodeMembership), Effect.orDie)

    const listMemberships = (userId: number) =>
      sql`
        SELECT ${membershipColumns} FROM account_user
        WHERE user_id = ${userId} AND status = 'active'
        ORDER BY last_used DESC NULLS LAST, account_id
      `.pipe(Effect.flatMap(decodeMemberships), Effect.orDie)

    const touchMembership = (accountId: number, userId: number) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          UPDATE account_user SET last_used = ${now} WHERE account_id = ${accountId} AND user_id = ${userId}
        `.pipe(Effect.asVoid, Effect.orDie))

    const touchMembershipUnlessSince = (accountId: number, userId: number, after: DateTime.Utc) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          UPDATE account_user SET last_used = ${now}
          WHERE account_id = ${accountId} AND user_id = ${userId}
            AND (last_used IS NULL OR last_used <= ${DateTime.toDateUtc(after)})
        `.pipe(Effect.asVoid, Effect.orDie))

    const setMemberPreferences = (accountId: number, userId: number, preferences: MemberPreferences) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          UPDATE account_user
          SET time_zone = ${preferences.timeZone}, calendar = ${preferences.calendar}, hour12 = ${preferences.hour12},
              locale = ${preferences.locale}, currency = ${preferences.currency}, updated_at = ${now}
          WHERE account_id = ${accountId} AND user_id = ${userId}
          RETURNING ${membershipColumns}
        `.pipe(Effect.flatMap(decodeMembership), Effect.orDie))

    const setChangeEmailTo = (id: number, email: string | null) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`UPDATE users SET change_email_to = ${email}, updated_at = ${now} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie))

    // An address another user holds matches nothing (`NOT EXISTS`): "taken". Two users racing for
    // one free address are decided by the unique index on lower(email) (the loser's statement fails).
    const setEmail = (id: number, email: string, verifiedAt: DateTime.Utc) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const updated = yield* sql`
          UPDATE users SET email = ${email}, email_verified_at = ${DateTime.toDateUtc(verifiedAt)}, change_email_to = NULL,
                           updated_at = ${now}
          WHERE id = ${id} AND NOT EXISTS (SELECT 1 FROM users other WHERE lower(other.email) = lower(${email}) AND other.id <> ${id})
          RETURNING ${userColumns}
        `.pipe(Effect.flatMap(decodeUser), Effect.orDie)
        if (Option.isSome(updated)) return updated
        const exists = yield* Effect.orDie(sql`SELECT 1 FROM users WHERE id = ${id}`)
        return exists.length === 0 ? Option.none<User>() : yield* invalid("email", EMAIL_TAKEN)
      })

    const markEmailVerified = (id: number, email: string, verifiedAt: DateTime.Utc) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          UPDATE users SET email_verified_at = ${DateTime.toDateUtc(verifiedAt)}, updated_at = ${now}
          WHERE id = ${id} AND lower(email) = lower(${email})
          RETURNING id
        `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie))

    return UserRepository.of({
      create,
      findById,
      findByEmail,
      findPasswordHash,
      setProfile,
      setPasswordHash,
      addMembership,
      findMembership,
      listMemberships,
      touchMembership,
      touchMembershipUnlessSince,
      setMemberPreferences,
      setChangeEmailTo,
      setEmail,
      markEmailVerified
    })
  })
)
