import { Context, type DateTime, type Effect, type Option } from "effect"

/** What an e-mail link is for: changing the login e-mail to a new address, or verifying the current one. */
export type EmailTokenPurpose = "change" | "verify"

/** A single-use e-mail link's token as stored: only its hash, never the token. */
export interface StoredEmailToken {
  /** SHA-256 (hex) of the token in the link. */
  readonly tokenHash: string
  /** The user the link was sent for. */
  readonly userId: number
  /** What following it does. */
  readonly purpose: EmailTokenPurpose
  /** The address it was sent to: the new e-mail of a change, the e-mail being verified. */
  readonly email: string
  /** When it stops being accepted. */
  readonly expiresAt: DateTime.Utc
}

/** What the {@link EmailTokenRepository} port offers (implement this to write an adapter). */
export interface EmailTokenRepositoryShape {
  /**
   * Stores a new token; the user's earlier tokens of the same purpose are removed (only the latest
   * link works).
   */
  readonly create: (token: StoredEmailToken) => Effect.Effect<void>
  /**
   * Removes the token of that hash and purpose and answers it: one conditional write, so two
   * concurrent uses cannot both take it. None when there is no such token (an expired one is
   * still answered; the caller checks).
   */
  readonly take: (tokenHash: string, purpose: EmailTokenPurpose) => Effect.Effect<Option.Option<StoredEmailToken>>
}

const EmailTokenRepositoryBase: Context.ServiceClass<
  EmailTokenRepository,
  "@wasl/core/EmailTokenRepository",
  EmailTokenRepositoryShape
> = Context.Service<EmailTokenRepository, EmailTokenRepositoryShape>()("@wasl/core/EmailTokenRepository")

/**
 * The tokens of the e-mail links a user follows to change or verify their e-mail, found by
 * hash. Its operations: {@link EmailTokenRepositoryShape}.
 */
export class EmailTokenRepository extends EmailTokenRepositoryBase {}
