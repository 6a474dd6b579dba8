import { SessionRepository, type StoredSession } from "@wasl/core/Auth"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, nowParam } from "./rows.ts"

const SessionRow = Schema.Struct({
  id_hash: Schema.String,
  account_id: DbInt,
  user_id: DbInt,
  expires_at: DbTimestamp
})

const decodeSession = decodeFirst(SessionRow)

/** First-party sessions on PostgreSQL, keyed by the SHA-256 of the cookie value. */
export const SessionRepositoryPg: Layer.Layer<SessionRepository, never, SqlClient.SqlClient> = Layer.effect(
  SessionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const create = (session: StoredSession) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          INSERT INTO sessions (account_id, id_hash, user_id, expires_at, created_at)
          VALUES (${session.accountId}, ${session.idHash}, ${session.userId},
                  ${DateTime.toDateUtc(session.expiresAt)}, ${now})
        `.pipe(Effect.asVoid, Effect.orDie))

    const find = (idHash: string) =>
      sql`SELECT id_hash, account_id, user_id, expires_at FROM sessions WHERE id_hash = ${idHash}`.pipe(
        Effect.flatMap(decodeSession),
        Effect.map(Option.map((row): StoredSession => ({
          idHash: row.id_hash,
          accountId: row.account_id,
          userId: row.user_id,
          expiresAt: row.expires_at
        }))),
        Effect.orDie
      )

    const remove = (idHash: string) =>
      sql`DELETE FROM sessions WHERE id_hash = ${idHash}`.pipe(Effect.asVoid, Effect.orDie)

    // `IS DISTINCT FROM`: with no session to keep (NULL), every one of the user's goes.
    const removeOthersOfUser = (userId: number, keepIdHash: string | null) =>
      sql`DELETE FROM sessions WHERE user_id = ${userId} AND id_hash IS DISTINCT FROM ${keepIdHash}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    // The session's membership of the new account is its foreign key: a non-member's dies here,
    // which the use-case's membership check keeps from happening.
    const switchAccount = (idHash: string, accountId: number) =>
      sql`UPDATE sessions SET account_id = ${accountId} WHERE id_hash = ${idHash} RETURNING id_hash`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    return SessionRepository.of({ create, find, remove, removeOthersOfUser, switchAccount })
  })
)
