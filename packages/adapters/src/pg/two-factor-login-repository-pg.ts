import { type PendingTwoFactorLogin, TwoFactorLoginRepository } from "@wasl/core/Auth"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, nowParam } from "./rows.ts"

const PendingRow = Schema.Struct({
  id_hash: Schema.String,
  user_id: DbInt,
  expires_at: DbTimestamp,
  attempts: DbInt
})

const decodePending = decodeFirst(PendingRow)

/**
 * Logins waiting for their second factor on PostgreSQL (`two_factor_logins`), by the SHA-256 of
 * the challenge. An attempt is counted by one conditional `UPDATE`, so concurrent ones never pass
 * the limit.
 */
export const TwoFactorLoginRepositoryPg: Layer.Layer<TwoFactorLoginRepository, never, SqlClient.SqlClient> = Layer.effect(
  TwoFactorLoginRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const create = (login: Omit<PendingTwoFactorLogin, "attempts">) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        Effect.andThen(
          sql`DELETE FROM two_factor_logins WHERE user_id = ${login.userId} AND expires_at <= ${now}`,
          sql`
            INSERT INTO two_factor_logins (id_hash, user_id, attempts, expires_at, created_at)
            VALUES (${login.idHash}, ${login.userId}, 0, ${DateTime.toDateUtc(login.expiresAt)}, ${now})
          `
        ).pipe(Effect.asVoid, Effect.orDie))

    const claimAttempt = (idHash: string, maxAttempts: number) =>
      sql`
        UPDATE two_factor_logins SET attempts = attempts + 1
        WHERE id_hash = ${idHash} AND attempts < ${maxAttempts}
        RETURNING id_hash, user_id, expires_at, attempts
      `.pipe(
        Effect.flatMap(decodePending),
        Effect.map(Option.map((row): PendingTwoFactorLogin => ({
          idHash: row.id_hash,
          userId: row.user_id,
          expiresAt: row.expires_at,
          attempts: row.attempts
        }))),
        Effect.orDie
      )

    const remove = (idHash: string) =>
      sql`DELETE FROM two_factor_logins WHERE id_hash = ${idHash}`.pipe(Effect.asVoid, Effect.orDie)

    const removeOfUser = (userId: number) =>
      sql`DELETE FROM two_factor_logins WHERE user_id = ${userId}`.pipe(Effect.asVoid, Effect.orDie)

    return TwoFactorLoginRepository.of({ create, claimAttempt, remove, removeOfUser })
  })
)
