/** Semantics shared by the PG repositories and their in-memory twins. */

/** The message of the ValidationFailed on `email` when the address is taken (case-insensitively). */
export const EMAIL_TAKEN = "The email has already been taken."

/**
 * The defect both AccountRepository adapters raise when a negative
 * `addOtpCredits` would take the balance below zero. The balance is left
 * unchanged. It is a defect, not a typed failure, because the port's error
 * channel (`NotFound` only) has no case for it: callers must not ask for more
 * than the balance (core's `addOtpCredits` use-case only adds positive amounts).
 */
export class InsufficientOtpCredits extends Error {
  /** The account whose balance was too low. */
  readonly accountId: number
  /** The (negative) amount that was refused. */
  readonly amount: number
  /** The defect for `amount` refused on `accountId`. */
  constructor(accountId: number, amount: number) {
    super(`Account ${accountId} does not hold enough OTP credits to add ${amount}.`)
    this.name = "InsufficientOtpCredits"
    this.accountId = accountId
    this.amount = amount
  }
}

/** A UUID as PostgreSQL's `uuid` type reads it (any case); anything else matches no row. */
export const UUID_TEXT: RegExp = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Text as a PostgreSQL `text` column can hold it: NUL, which it cannot, becomes U+FFFD. */
export const storableText = (text: string | null): string | null => (text === null ? null : text.replace(/\u0000/g, "\uFFFD"))
