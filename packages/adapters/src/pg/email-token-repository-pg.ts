import { EmailTokenRepository, type EmailTokenPurpose, type StoredEmailToken } from "@wasl/core/Accounts"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, nowParam } from "./rows.ts"

const EmailTokenRow = Schema.Struct({
  token_hash: Schema.String,
  user_id: DbInt,
  purpose: Schema.Literals(["change", "verify"]),
  email: Schema.String,
  expires_at: DbTimestamp
})

const decodeEmailToken = decodeFirst(EmailTokenRow)

/**
 * The tokens of e-mail links on PostgreSQL (`email_tokens`), by SHA-256. A new one replaces the
 * user's token of the same purpose (the unique key `(user_id, purpose)`); taking one is a single
 * `DELETE … RETURNING`, so of two concurrent uses only one gets it.
 */
export const EmailTokenRepositoryPg: Layer.Layer<EmailTokenRepository, never, SqlClient.SqlClient> = Layer.effect(
  EmailTokenRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const create = (token: StoredEmailToken) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          INSERT INTO email_tokens (token_hash, user_id, purpose, email, expires_at, created_at)
          VALUES (${token.tokenHash}, ${token.userId}, ${token.purpose}, ${token.email},
                  ${DateTime.toDateUtc(token.expiresAt)}, ${now})
          ON CONFLICT (user_id, purpose) DO UPDATE
          SET token_hash = EXCLUDED.token_hash, email = EXCLUDED.email, expires_at = EXCLUDED.expires_at,
              created_at = EXCLUDED.created_at
        `.pipe(Effect.asVoid, Effect.orDie))

    const take = (tokenHash: string, purpose: EmailTokenPurpose) =>
      sql`
        DELETE FROM email_tokens WHERE token_hash = ${tokenHash} AND purpose = ${purpose}
        RETURNING token_hash, user_id, purpose, email, expires_at
      `.pipe(
        Effect.flatMap(decodeEmailToken),
        Effect.map(Option.map((row): StoredEmailToken => ({
          tokenHash: row.token_hash,
          userId: row.user_id,
          purpose: row.purpose,
          email: row.email,
          expiresAt: row.expires_at
        }))),
        Effect.orDie
      )

    return EmailTokenRepository.of({ create, take })
  })
)
