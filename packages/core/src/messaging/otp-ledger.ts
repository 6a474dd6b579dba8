/**
 * The OTP ledger: credits and per-recipient send cooldowns. Every method takes the account and
 * never sees another account's rows.
 */
import { Context, DateTime, Duration, type Effect, type Option } from "effect"

/** What the OtpLedger port offers (implement this to write an adapter). */
export interface OtpLedgerShape {
  /**
   * Takes one OTP credit from the account, atomically: false (and nothing changes) when the balance
   * is 0. Inside a transaction the account row stays locked until it ends, so concurrent charges
   * queue and the balance never goes below zero.
   */
  readonly chargeCredit: (accountId: number) => Effect.Effect<boolean>
  /**
   * Marks a send to `recipient` at `now` unless one was marked within `cooldown`: None when marked,
   * else the whole seconds until the cooldown ends (at least 1). Atomic per account and recipient.
   */
  readonly claimCooldown: (
    accountId: number,
    recipient: string,
    now: DateTime.Utc,
    cooldown: Duration.Duration
  ) => Effect.Effect<Option.Option<number>>
  /**
   * Undoes the claim `claimCooldown` made at `claimedAt` (a send that did not happen), unless a
   * later send has claimed the recipient since.
   */
  readonly releaseCooldown: (accountId: number, recipient: string, claimedAt: DateTime.Utc) => Effect.Effect<void>
  /**
   * Holds the recipient's cooldown row locked until the caller's transaction ends, so the outcomes
   * of sends to one recipient are stored one after another (one live code per recipient).
   */
  readonly lockRecipient: (accountId: number, recipient: string) => Effect.Effect<void>
}

const OtpLedgerBase: Context.ServiceClass<OtpLedger, "@wasl/core/OtpLedger", OtpLedgerShape> =
  Context.Service<OtpLedger, OtpLedgerShape>()("@wasl/core/OtpLedger")

/** The accounts' OTP credits and the per-recipient send cooldowns. */
export class OtpLedger extends OtpLedgerBase {}

/**
 * What `OtpLedger.claimCooldown` answers when a send to the recipient was marked at `lastSentAt`,
 * less than `cooldown` before `now`: the whole seconds until the cooldown ends, at least 1.
 */
export const cooldownSecondsLeft = (lastSentAt: DateTime.Utc, now: DateTime.Utc, cooldown: Duration.Duration): number => {
  const remainingMs = DateTime.toEpochMillis(lastSentAt) + Duration.toMillis(cooldown) - DateTime.toEpochMillis(now)
  return Math.max(1, Math.ceil(remainingMs / 1000))
}
