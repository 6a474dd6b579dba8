/**
 * The stores behind messaging (ARCHITECTURE rules 3 and 8): sending numbers, broadcasts with their
 * template, sent messages, managed-OTP verifications, and the OTP ledger (credits and cooldowns).
 * Every method takes the account and never sees another account's rows.
 */
import { Context, type DateTime, type Duration, type Effect, type Option } from "effect"
import type { Broadcast, BroadcastInput, BroadcastStatus } from "./broadcast.ts"
import type { Message } from "./message.ts"
import type { Verification } from "./otp-verification.ts"
import type { Platform, PlatformInput } from "./platform.ts"

export class PlatformRepository extends Context.Service<PlatformRepository, {
  /** Stores a sending number (`sealed_access_token` already sealed); created_at = updated_at = now. */
  readonly insert: (
    accountId: number,
    input: Omit<PlatformInput, "access_token"> & { readonly sealed_access_token: string | null }
  ) => Effect.Effect<Platform>
  /** The account's sending numbers, oldest first. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<Platform>>
  readonly findById: (accountId: number, id: number) => Effect.Effect<Option.Option<Platform>>
}>()("@wasl/core/PlatformRepository") {}

export class BroadcastRepository extends Context.Service<BroadcastRepository, {
  /** Stores the broadcast and its template together; the platform must be the account's. */
  readonly insert: (
    accountId: number,
    input: BroadcastInput,
    platform: Platform,
    status: BroadcastStatus
  ) => Effect.Effect<Broadcast>
  /** The account's broadcasts, oldest first, with template and platform. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<Broadcast>>
  readonly findById: (accountId: number, id: number) => Effect.Effect<Option.Option<Broadcast>>
}>()("@wasl/core/BroadcastRepository") {}

export class MessageRepository extends Context.Service<MessageRepository, {
  readonly insert: (message: Message) => Effect.Effect<void>
  readonly findById: (accountId: number, id: string) => Effect.Effect<Option.Option<Message>>
}>()("@wasl/core/MessageRepository") {}

export class VerificationRepository extends Context.Service<VerificationRepository, {
  readonly insert: (verification: Verification) => Effect.Effect<void>
  /**
   * The verification; with `forUpdate` its row stays locked until the caller's transaction ends,
   * so concurrent verify attempts are counted one after another.
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
}>()("@wasl/core/VerificationRepository") {}

export class OtpLedger extends Context.Service<OtpLedger, {
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
}>()("@wasl/core/OtpLedger") {}
