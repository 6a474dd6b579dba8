/**
 * Managed-OTP verifications. Every method takes the account and never sees another account's rows.
 */
import { Context, type Effect, type Option } from "effect"
import type { Verification } from "./otp-verification.ts"

/** What the VerificationRepository port offers (implement this to write an adapter). */
export interface VerificationRepositoryShape {
  /** Stores a new verification. */
  readonly insert: (verification: Verification) => Effect.Effect<void>
  /**
   * The account's verification with that id, or none; with `forUpdate` its row stays locked until
   * the caller's transaction ends, so concurrent verify attempts are counted one after another.
   */
  readonly findById: (
    accountId: number,
    id: string,
    options?: { readonly forUpdate?: boolean }
  ) => Effect.Effect<Option.Option<Verification>>
  /** The live verifications of a recipient and broadcast (locked for the caller's transaction). */
  readonly listLive: (accountId: number, broadcastId: number, to: string) => Effect.Effect<ReadonlyArray<Verification>>
  /** Writes status, attempts and updated_at of the stored verification. */
  readonly update: (verification: Verification) => Effect.Effect<void>
}

const VerificationRepositoryBase: Context.ServiceClass<
  VerificationRepository,
  "@wasl/core/VerificationRepository",
  VerificationRepositoryShape
> = Context.Service<VerificationRepository, VerificationRepositoryShape>()("@wasl/core/VerificationRepository")

/** The account's managed one-time-password verifications. */
export class VerificationRepository extends VerificationRepositoryBase {}
