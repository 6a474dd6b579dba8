import { Context, type DateTime, type Effect, type Option } from "effect"

/** A user's two-factor authentication as stored: on once `confirmedAt` is set. */
export interface TwoFactorState {
  /** The TOTP secret (Base32) sealed by the `SecretBox`; none before enrolment and once turned off. */
  readonly sealedSecret: string | null
  /** When the user confirmed the secret with a code, turning two-factor on; null while off. */
  readonly confirmedAt: DateTime.Utc | null
  /** The `TokenHasher` hashes of the recovery codes not used yet. */
  readonly recoveryCodeHashes: ReadonlyArray<string>
  /** The latest TOTP time step a code was taken from; no code of it or of an earlier step is taken again. */
  readonly lastUsedStep: number | null
}

/** What {@link TwoFactorRepositoryShape.confirm} stores. */
export interface TwoFactorConfirmation {
  /** The sealed secret the user enrolled with, as {@link TwoFactorRepositoryShape.begin} stored it. */
  readonly sealedSecret: string
  /** Now: two-factor is on from then. */
  readonly confirmedAt: DateTime.Utc
  /** The time step of the confirming code, used from then on. */
  readonly step: number
  /** The hashes of the new recovery codes. */
  readonly recoveryCodeHashes: ReadonlyArray<string>
}

/** What the {@link TwoFactorRepository} port offers (implement this to write an adapter). */
export interface TwoFactorRepositoryShape {
  /** The user's two-factor state, or none when there is no such user. */
  readonly find: (userId: number) => Effect.Effect<Option.Option<TwoFactorState>>
  /**
   * Stores a new secret, not yet confirmed, in place of an unconfirmed one. False, and nothing
   * written, when two-factor is on (turning it off comes first) or there is no such user.
   */
  readonly begin: (userId: number, sealedSecret: string) => Effect.Effect<boolean>
  /**
   * Turns two-factor on with the confirmation's time, step and recovery codes, provided it is off
   * and the stored secret is still `sealedSecret` (false otherwise, and nothing written: another
   * enrolment or a confirmation came first).
   */
  readonly confirm: (userId: number, confirmation: TwoFactorConfirmation) => Effect.Effect<boolean>
  /**
   * Records `step` as the last used, provided it is later than the stored one (false otherwise:
   * a replayed code, or a concurrent request that took the same step first).
   */
  readonly useStep: (userId: number, step: number) => Effect.Effect<boolean>
  /** Removes the hash from the user's recovery codes; false when it is not among them (unknown or used). */
  readonly useRecoveryCode: (userId: number, codeHash: string) => Effect.Effect<boolean>
  /** Turns two-factor off: the secret, the confirmation, the recovery codes and the last step are cleared. */
  readonly disable: (userId: number) => Effect.Effect<void>
}

const TwoFactorRepositoryBase: Context.ServiceClass<
  TwoFactorRepository,
  "@wasl/core/TwoFactorRepository",
  TwoFactorRepositoryShape
> = Context.Service<TwoFactorRepository, TwoFactorRepositoryShape>()("@wasl/core/TwoFactorRepository")

/**
 * Each user's two-factor authentication: the sealed TOTP secret, when it was confirmed, the
 * hashed recovery codes and the last time step used. Every write that guards a rule (one use per
 * step, one use per recovery code) is a single conditional write, so concurrent requests cannot
 * both pass. Its operations: {@link TwoFactorRepositoryShape}.
 */
export class TwoFactorRepository extends TwoFactorRepositoryBase {}
