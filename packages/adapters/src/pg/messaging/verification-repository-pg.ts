import { type Verification, VerificationRepository, VERIFICATION_STATUSES } from "@wasl/core/Otp"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, decodeRows } from "../rows.ts"

const VerificationRow = Schema.Struct({
  id: Schema.String,
  account_id: DbInt,
  broadcast_id: DbInt,
  contact_id: Schema.String,
  to: Schema.String,
  code_hash: Schema.String,
  status: Schema.Literals(VERIFICATION_STATUSES),
  attempts: DbInt,
  expires_at: DbTimestamp,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const COLUMNS =
  `id, account_id, broadcast_id, contact_id, recipient AS "to", code_hash, status, attempts, expires_at, created_at, updated_at`

const decodeAll = decodeRows(VerificationRow)
const decodeOne = decodeFirst(VerificationRow)

/** Managed-OTP verifications on PostgreSQL (table `otp_verifications`, migration 0008). */
export const VerificationRepositoryPg: Layer.Layer<VerificationRepository, never, SqlClient.SqlClient> = Layer.effect(
  VerificationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)
    return VerificationRepository.of({
      insert: (v: Verification) =>
        sql`
          INSERT INTO otp_verifications
            (account_id, id, broadcast_id, contact_id, recipient, code_hash, status, attempts, expires_at, created_at, updated_at)
          VALUES (${v.account_id}, ${v.id}, ${v.broadcast_id}, ${v.contact_id}, ${v.to}, ${v.code_hash}, ${v.status},
                  ${v.attempts}, ${DateTime.toDateUtc(v.expires_at)}, ${DateTime.toDateUtc(v.created_at)},
                  ${DateTime.toDateUtc(v.updated_at)})
        `.pipe(Effect.asVoid, Effect.orDie),
      findById: (accountId, id, options) =>
        (options?.forUpdate === true
          ? sql`SELECT ${columns} FROM otp_verifications WHERE account_id = ${accountId} AND id = ${id} FOR UPDATE`
          : sql`SELECT ${columns} FROM otp_verifications WHERE account_id = ${accountId} AND id = ${id}`).pipe(
            Effect.flatMap(decodeOne),
            Effect.orDie
          ),
      listLive: (accountId, broadcastId, to) =>
        sql`
          SELECT ${columns} FROM otp_verifications
          WHERE account_id = ${accountId} AND broadcast_id = ${broadcastId} AND recipient = ${to} AND status = 'live'
          ORDER BY created_at, id
          FOR UPDATE
        `.pipe(Effect.flatMap(decodeAll), Effect.orDie),
      update: (v) =>
        sql`
          UPDATE otp_verifications
          SET status = ${v.status}, attempts = ${v.attempts}, updated_at = ${DateTime.toDateUtc(v.updated_at)}
          WHERE account_id = ${v.account_id} AND id = ${v.id}
        `.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
