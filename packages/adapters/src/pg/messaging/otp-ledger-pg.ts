import { cooldownSecondsLeft, OtpLedger } from "@wasl/core/Otp"
import { DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { nowParam } from "../rows.ts"

/**
 * OTP credits and cooldowns on PostgreSQL.
 *
 * - `chargeCredit`: one `UPDATE accounts SET otp_credits = otp_credits - 1 WHERE ... AND
 *   otp_credits >= 1`. The row lock it takes is held to the end of the caller's transaction, so
 *   concurrent charges of one account run one after another and each sees the balance the previous
 *   one left (READ COMMITTED re-checks the WHERE on the updated row).
 * - `claimCooldown`: one upsert on `otp_cooldowns (account_id, recipient)` that only moves
 *   `last_sent_at` when the previous send is at least `cooldown` old; no row back means the
 *   cooldown holds, and the remaining time is read from the existing row.
 * - `releaseCooldown`: deletes the recipient's row only while it still holds that claim's time
 *   (a later claim has a later time). Deleting is the same as restoring the previous time, which
 *   was at least a cooldown old when the claim was made.
 * - `lockRecipient`: `SELECT ... FOR UPDATE` on the recipient's row.
 */
export const OtpLedgerPg: Layer.Layer<OtpLedger, never, SqlClient.SqlClient> = Layer.effect(
  OtpLedger,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return OtpLedger.of({
      chargeCredit: (accountId) =>
        Effect.gen(function*() {
          const { param: now } = yield* nowParam
          const rows = yield* sql`
            UPDATE accounts SET otp_credits = otp_credits - 1, updated_at = ${now}
            WHERE id = ${accountId} AND otp_credits >= 1
            RETURNING id
          `
          return rows.length > 0
        }).pipe(Effect.orDie),
      claimCooldown: (accountId, recipient, now, cooldown) =>
        Effect.gen(function*() {
          const at = DateTime.toDateUtc(now)
          const threshold = DateTime.toDateUtc(DateTime.subtractDuration(now, cooldown))
          const claimed = yield* sql`
            INSERT INTO otp_cooldowns (account_id, recipient, last_sent_at)
            VALUES (${accountId}, ${recipient}, ${at})
            ON CONFLICT (account_id, recipient) DO UPDATE SET last_sent_at = EXCLUDED.last_sent_at
            WHERE otp_cooldowns.last_sent_at <= ${threshold}
            RETURNING recipient
          `
          if (claimed.length > 0) return Option.none<number>()
          const [row] = yield* sql<{ readonly last_sent_at: string | Date }>`
            SELECT last_sent_at FROM otp_cooldowns WHERE account_id = ${accountId} AND recipient = ${recipient}
          `
          // No row: a release deleted it between the two statements; answer as for a claim made just now.
          const last = row === undefined ? now : DateTime.makeUnsafe(new Date(row.last_sent_at))
          return Option.some(cooldownSecondsLeft(last, now, cooldown))
        }).pipe(Effect.orDie),
      releaseCooldown: (accountId, recipient, claimedAt) =>
        sql`
          DELETE FROM otp_cooldowns
          WHERE account_id = ${accountId} AND recipient = ${recipient} AND last_sent_at = ${DateTime.toDateUtc(claimedAt)}
        `.pipe(Effect.asVoid, Effect.orDie),
      lockRecipient: (accountId, recipient) =>
        sql`
          SELECT recipient FROM otp_cooldowns WHERE account_id = ${accountId} AND recipient = ${recipient} FOR UPDATE
        `.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
