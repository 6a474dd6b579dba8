/**
 * The stores behind messaging: sending numbers, broadcasts with their template, sent messages,
 * managed-OTP verifications, the OTP ledger (credits and cooldowns) and the OTP reservations
 * (credits charged for sends whose outcome is not yet stored). Every method takes the account and
 * never sees another account's rows.
 */
import { Context, DateTime, Duration, type Effect, type Option } from "effect"
import type { Broadcast, BroadcastInput, BroadcastStatus } from "./broadcast.ts"
import type { Message } from "./message.ts"
import type { OtpReservation } from "./otp-reservation.ts"
import type { Verification } from "./otp-verification.ts"
import type { Platform, PlatformInput } from "./platform.ts"

/** What the PlatformRepository port offers (implement this to write an adapter). */
export interface PlatformRepositoryShape {
  /** Stores a sending number (`sealed_access_token` already sealed); created_at = updated_at = now. */
  readonly insert: (
    accountId: number,
    input: Omit<PlatformInput, "access_token"> & { readonly sealed_access_token: string | null }
  ) => Effect.Effect<Platform>
  /** The account's sending numbers, oldest first. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<Platform>>
  /** The account's sending number with that id, or none. */
  readonly findById: (accountId: number, id: number) => Effect.Effect<Option.Option<Platform>>
}

/** @ignore */
export const PlatformRepositoryBase: Context.ServiceClass<
  PlatformRepository,
  "@wasl/core/PlatformRepository",
  PlatformRepositoryShape
> = Context.Service<PlatformRepository, PlatformRepositoryShape>()("@wasl/core/PlatformRepository")

/** The account's sending numbers (platforms). */
export class PlatformRepository extends PlatformRepositoryBase {}

/** What the BroadcastRepository port offers (implement this to write an adapter). */
export interface BroadcastRepositoryShape {
  /** Stores the broadcast and its template together; the platform must be the account's. */
  readonly insert: (
    accountId: number,
    input: BroadcastInput,
    platform: Platform,
    status: BroadcastStatus
  ) => Effect.Effect<Broadcast>
  /** The account's broadcasts, oldest first, with template and platform. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<Broadcast>>
  /** The account's broadcast with that id (with template and platform), or none. */
  readonly findById: (accountId: number, id: number) => Effect.Effect<Option.Option<Broadcast>>
}

/** @ignore */
export const BroadcastRepositoryBase: Context.ServiceClass<
  BroadcastRepository,
  "@wasl/core/BroadcastRepository",
  BroadcastRepositoryShape
> = Context.Service<BroadcastRepository, BroadcastRepositoryShape>()("@wasl/core/BroadcastRepository")

/** The account's broadcasts, each with its template and sending number. */
export class BroadcastRepository extends BroadcastRepositoryBase {}

/** What the MessageRepository port offers (implement this to write an adapter). */
export interface MessageRepositoryShape {
  /** Stores a sent message. */
  readonly insert: (message: Message) => Effect.Effect<void>
  /** The account's message with that `_id`, or none. */
  readonly findById: (accountId: number, id: string) => Effect.Effect<Option.Option<Message>>
}

/** @ignore */
export const MessageRepositoryBase: Context.ServiceClass<
  MessageRepository,
  "@wasl/core/MessageRepository",
  MessageRepositoryShape
> = Context.Service<MessageRepository, MessageRepositoryShape>()("@wasl/core/MessageRepository")

/** The messages the account sent. */
export class MessageRepository extends MessageRepositoryBase {}

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

/** @ignore */
export const VerificationRepositoryBase: Context.ServiceClass<
  VerificationRepository,
  "@wasl/core/VerificationRepository",
  VerificationRepositoryShape
> = Context.Service<VerificationRepository, VerificationRepositoryShape>()("@wasl/core/VerificationRepository")

/** The account's managed one-time-password verifications. */
export class VerificationRepository extends VerificationRepositoryBase {}

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

/** @ignore */
export const OtpLedgerBase: Context.ServiceClass<OtpLedger, "@wasl/core/OtpLedger", OtpLedgerShape> =
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

/** What the OtpReservationRepository port offers (implement this to write an adapter). */
export interface OtpReservationRepositoryShape {
  /** Records a credit just charged for `reservation`'s send, `open`. */
  readonly open: (reservation: OtpReservation) => Effect.Effect<void>
  /**
   * open → settled: the send happened and keeps its credit. False when it was no longer open (the
   * sweeper released it first); the row stays locked until the caller's transaction ends.
   */
  readonly settle: (accountId: number, id: string, now: DateTime.Utc) => Effect.Effect<boolean>
  /**
   * open → released with its credit given back to the account, in one statement. False (nothing
   * changes) when it was no longer open, so a credit is never refunded twice.
   */
  readonly release: (accountId: number, id: string, now: DateTime.Utc) => Effect.Effect<boolean>
  /**
   * The sweeper, across accounts: releases (and refunds) up to `limit` reservations still open that
   * were opened at or before `openedBy`, oldest first, skipping rows another transaction holds
   * (`FOR UPDATE SKIP LOCKED`), so any number of workers can run it. Returns how many it released.
   */
  readonly releaseStale: (openedBy: DateTime.Utc, limit: number, now: DateTime.Utc) => Effect.Effect<number>
  /** The account's reservation with that id, or none. */
  readonly findById: (accountId: number, id: string) => Effect.Effect<Option.Option<OtpReservation>>
}

/** @ignore */
export const OtpReservationRepositoryBase: Context.ServiceClass<
  OtpReservationRepository,
  "@wasl/core/OtpReservationRepository",
  OtpReservationRepositoryShape
> = Context.Service<OtpReservationRepository, OtpReservationRepositoryShape>()("@wasl/core/OtpReservationRepository")

/**
 * The OTP credits charged for sends whose outcome is not stored yet: opened before the provider
 * call, then settled or released (refunded), by the send or by the sweeper.
 */
export class OtpReservationRepository extends OtpReservationRepositoryBase {}
