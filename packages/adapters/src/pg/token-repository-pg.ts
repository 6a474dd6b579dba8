import { Ability, type ApiToken, type StoredToken, TokenRepository } from "@wasl/core/Auth"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeFirst, decodeRows, nowParam } from "./rows.ts"

const TokenRow = Schema.Struct({
  id: DbInt,
  name: Schema.String,
  abilities: Schema.Array(Ability),
  last_used_at: DbNullOr(DbTimestamp),
  created_at: DbTimestamp
})

const StoredTokenRow = Schema.Struct({
  ...TokenRow.fields,
  account_id: DbInt,
  user_id: DbInt,
  secret_hash: Schema.String
})

const TOKEN_COLUMNS = "id, name, abilities, last_used_at, created_at"

const decodeToken = decodeFirst(TokenRow)
const decodeTokens = decodeRows(TokenRow)
const decodeStoredToken = decodeFirst(StoredTokenRow)

/**
 * API tokens on PostgreSQL: only the SHA-256 of the secret is stored. A token
 * belongs to a membership (foreign key to account_user), so it goes when the
 * user leaves the account. `findById` and `touch` are by id alone: the bearer
 * carries only the token id.
 */
export const TokenRepositoryPg: Layer.Layer<TokenRepository, never, SqlClient.SqlClient> = Layer.effect(
  TokenRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tokenColumns = sql.literal(TOKEN_COLUMNS)

    const create = (input: Parameters<TokenRepository["Service"]["create"]>[0]) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const row = yield* sql`
          INSERT INTO api_tokens (account_id, user_id, name, secret_hash, abilities, created_at, updated_at)
          VALUES (${input.accountId}, ${input.userId}, ${input.name}, ${input.secretHash},
                  ${JSON.stringify(input.abilities)}::jsonb, ${now}, ${now})
          RETURNING ${tokenColumns}
        `.pipe(Effect.flatMap(decodeToken))
        return Option.getOrThrow(row) satisfies ApiToken
      }).pipe(Effect.orDie)

    const findById = (id: number) =>
      sql`
        SELECT ${tokenColumns}, account_id, user_id, secret_hash FROM api_tokens WHERE id = ${id}
      `.pipe(
        Effect.flatMap(decodeStoredToken),
        Effect.map(Option.map(({ account_id, user_id, secret_hash, ...token }): StoredToken => ({
          token,
          accountId: account_id,
          userId: user_id,
          secretHash: secret_hash
        }))),
        Effect.orDie
      )

    const list = (accountId: number, userId: number, page: { readonly offset: number; readonly limit: number }) =>
      Effect.gen(function*() {
        const items = yield* sql`
          SELECT ${tokenColumns} FROM api_tokens WHERE account_id = ${accountId} AND user_id = ${userId}
          ORDER BY id LIMIT ${page.limit} OFFSET ${page.offset}
        `.pipe(Effect.flatMap(decodeTokens))
        const [counted] = yield* sql<{ count: number }>`
          SELECT count(*)::int4 AS count FROM api_tokens WHERE account_id = ${accountId} AND user_id = ${userId}
        `
        return { items, total: Number(counted?.count ?? 0) }
      }).pipe(Effect.orDie)

    const revoke = (accountId: number, userId: number, id: number) =>
      sql`
        DELETE FROM api_tokens WHERE account_id = ${accountId} AND user_id = ${userId} AND id = ${id} RETURNING id
      `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    const touch = (id: number) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`UPDATE api_tokens SET last_used_at = ${now} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie))

    return TokenRepository.of({ create, findById, list, revoke, touch })
  })
)
