import { type OtpReservation, OtpReservationRepository } from "@wasl/core/Otp"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst } from "../rows.ts"

const ReservationRow = Schema.Struct({
  id: Schema.String,
  account_id: DbInt,
  recipient: Schema.String,
  status: Schema.Literals(["open", "settled", "released"]),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const decodeOne = decodeFirst(ReservationRow)

/**
 * OTP reservations on PostgreSQL (table `otp_reservations`, migration 0009).
 *
 * Every change is one statement that moves a row out of `open` only if it is still open, so a
 * reservation is settled or released exactly once whoever races for it (the send's second
 * transaction, any number of sweepers). `release` and `releaseStale` give the credits back in the
 * same statement (data-modifying CTEs), so a refund and its release commit together even outside
 * a transaction. `releaseStale` takes its rows `FOR UPDATE SKIP LOCKED`: a reservation a send is
 * settling right now, or another sweeper holds, is left alone.
 */
export const OtpReservationRepositoryPg: Layer.Layer<OtpReservationRepository, never, SqlClient.SqlClient> = Layer.effect(
  OtpReservationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return OtpReservationRepository.of({
      open: (r: OtpReservation) =>
        sql`
          INSERT INTO otp_reservations (account_id, id, recipient, status, created_at, updated_at)
          VALUES (${r.account_id}, ${r.id}, ${r.recipient}, ${r.status}, ${DateTime.toDateUtc(r.created_at)},
                  ${DateTime.toDateUtc(r.updated_at)})
        `.pipe(Effect.asVoid, Effect.orDie),
      settle: (accountId, id, now) =>
        sql`
          UPDATE otp_reservations SET status = 'settled', updated_at = ${DateTime.toDateUtc(now)}
          WHERE account_id = ${accountId} AND id = ${id} AND status = 'open'
          RETURNING id
        `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      release: (accountId, id, now) => {
        const at = DateTime.toDateUtc(now)
        return sql`
          WITH released AS (
            UPDATE otp_reservations SET status = 'released', updated_at = ${at}
            WHERE account_id = ${accountId} AND id = ${id} AND status = 'open'
            RETURNING account_id
          )
          UPDATE accounts a SET otp_credits = a.otp_credits + 1, updated_at = ${at}
          FROM released WHERE a.id = released.account_id
          RETURNING a.id
        `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
      },
      releaseStale: (openedBy, limit, now) => {
        const count = Math.floor(limit)
        if (!(count > 0)) return Effect.succeed(0)
        const at = DateTime.toDateUtc(now)
        return sql<{ readonly refunded: number | string }>`
          WITH due AS (
            SELECT account_id, id FROM otp_reservations
            WHERE status = 'open' AND created_at <= ${DateTime.toDateUtc(openedBy)}
            ORDER BY created_at
            LIMIT ${count}
            FOR UPDATE SKIP LOCKED
          ), released AS (
            UPDATE otp_reservations r SET status = 'released', updated_at = ${at}
            FROM due WHERE r.account_id = due.account_id AND r.id = due.id
            RETURNING r.account_id
          ), refunds AS (
            SELECT account_id, count(*) AS n FROM released GROUP BY account_id
          ), refunded AS (
            UPDATE accounts a SET otp_credits = a.otp_credits + refunds.n, updated_at = ${at}
            FROM refunds WHERE a.id = refunds.account_id
            RETURNING refunds.n
          )
          SELECT coalesce(sum(n), 0) AS refunded FROM refunded
        `.pipe(Effect.map((rows) => Number(rows[0]?.refunded ?? 0)), Effect.orDie)
      },
      findById: (accountId, id) =>
        sql`
          SELECT id, account_id, recipient, status, created_at, updated_at FROM otp_reservations
          WHERE account_id = ${accountId} AND id = ${id}
        `.pipe(Effect.flatMap(decodeOne), Effect.orDie)
    })
  })
)
