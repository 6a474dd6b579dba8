import { Context, type DateTime, type Effect, type Option } from "effect"

/** A login whose password was right, waiting for its second factor. */
export interface PendingTwoFactorLogin {
  /** SHA-256 (hex) of the challenge the client holds (the `wasl_two_factor` cookie); never the challenge itself. */
  readonly idHash: string
  /** The user logging in. */
  readonly userId: number
  /** When it stops being completed. */
  readonly expiresAt: DateTime.Utc
  /** The attempts made at it so far, the one being counted included. */
  readonly attempts: number
}

/** What the {@link TwoFactorLoginRepository} port offers (implement this to write an adapter). */
export interface TwoFactorLoginRepositoryShape {
  /** Stores a new pending login with no attempts; the user's expired ones are removed. */
  readonly create: (login: Omit<PendingTwoFactorLogin, "attempts">) => Effect.Effect<void>
  /**
   * Counts one attempt at the pending login and answers it, provided fewer than `maxAttempts`
   * were made; none when there is no such login or its attempts are spent. One conditional
   * write, so concurrent attempts never exceed `maxAttempts`. An expired one is still answered
   * (the caller checks).
   */
  readonly claimAttempt: (idHash: string, maxAttempts: number) => Effect.Effect<Option.Option<PendingTwoFactorLogin>>
  /** Removes the pending login; nothing happens when there is none. */
  readonly remove: (idHash: string) => Effect.Effect<void>
  /** Removes every pending login of the user (their password changed: none may complete). */
  readonly removeOfUser: (userId: number) => Effect.Effect<void>
}

const TwoFactorLoginRepositoryBase: Context.ServiceClass<
  TwoFactorLoginRepository,
  "@wasl/core/TwoFactorLoginRepository",
  TwoFactorLoginRepositoryShape
> = Context.Service<TwoFactorLoginRepository, TwoFactorLoginRepositoryShape>()("@wasl/core/TwoFactorLoginRepository")

/**
 * Logins waiting for their second factor, found by the hash of the challenge the first step gave
 * the client. Its operations: {@link TwoFactorLoginRepositoryShape}.
 */
export class TwoFactorLoginRepository extends TwoFactorLoginRepositoryBase {}
