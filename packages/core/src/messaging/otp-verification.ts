/**
 * The managed-OTP state machine (spec §3.3, §4.2, decisions §7), as data and pure transitions
 * (ARCHITECTURE rule 4). A verification is created `live` by a managed send and ends in exactly one
 * of:
 *
 * - `approved`: the right code was given while live and unexpired;
 * - `expired`: the expiry passed while it was live (noticed lazily, by `effectiveStatus` / `verify`);
 * - `failed`: a later managed send to the same recipient with the same template superseded it
 *   (one live code per recipient and template);
 * - `max_attempts_reached`: the fifth wrong code.
 *
 * None of the end states leads anywhere. Transitions take `now` (from the Clock) so tests drive
 * time with TestClock. The code itself never enters here: the use-case compares the hash and
 * passes only whether it matched.
 */
import { DateTime, Duration } from "effect"

export const VERIFICATION_STATUSES = ["live", "approved", "expired", "failed", "max_attempts_reached"] as const
export type VerificationStatus = typeof VERIFICATION_STATUSES[number]

/** Wrong codes a verification takes before it locks (decisions §7). */
export const MAX_VERIFY_ATTEMPTS = 5

export interface Verification {
  readonly id: string
  readonly account_id: number
  readonly broadcast_id: number
  readonly contact_id: string
  /** The recipient's number as it was sent to. */
  readonly to: string
  /** HMAC-SHA256(server key, id + code), hex. */
  readonly code_hash: string
  readonly status: VerificationStatus
  /** Wrong codes given so far. */
  readonly attempts: number
  readonly expires_at: DateTime.Utc
  readonly created_at: DateTime.Utc
  readonly updated_at: DateTime.Utc
}

export interface NewVerification {
  readonly id: string
  readonly account_id: number
  readonly broadcast_id: number
  readonly contact_id: string
  readonly to: string
  readonly code_hash: string
  readonly lifetimeMinutes: number
}

/** (none) → live: expires `lifetimeMinutes` after `now`, no attempts used. */
export const startVerification = (input: NewVerification, now: DateTime.Utc): Verification => ({
  id: input.id,
  account_id: input.account_id,
  broadcast_id: input.broadcast_id,
  contact_id: input.contact_id,
  to: input.to,
  code_hash: input.code_hash,
  status: "live",
  attempts: 0,
  expires_at: DateTime.addDuration(now, Duration.minutes(input.lifetimeMinutes)),
  created_at: now,
  updated_at: now
})

const isPast = (v: Verification, now: DateTime.Utc) => DateTime.isGreaterThanOrEqualTo(now, v.expires_at)

/** The status as of `now`: a live verification whose expiry has passed is expired. */
export const effectiveStatus = (v: Verification, now: DateTime.Utc): VerificationStatus =>
  v.status === "live" && isPast(v, now) ? "expired" : v.status

/** Wrong codes still allowed (0 once locked). */
export const attemptsRemaining = (v: Verification): number => Math.max(0, MAX_VERIFY_ATTEMPTS - v.attempts)

/** The verification as of `now`, with a passed expiry made explicit (what to persist on a read). */
export const settle = (v: Verification, now: DateTime.Utc): Verification =>
  effectiveStatus(v, now) === v.status ? v : { ...v, status: "expired", updated_at: now }

export type VerifyOutcome =
  /** live → approved. */
  | { readonly _tag: "Approved"; readonly next: Verification }
  /** live → live (attempts + 1), or → max_attempts_reached on the last allowed attempt. */
  | { readonly _tag: "WrongCode"; readonly next: Verification; readonly attemptsRemaining: number }
  /** Not live (any end state, or expired as of now): `next` is `settle(v, now)`. */
  | { readonly _tag: "NotLive"; readonly next: Verification; readonly status: Exclude<VerificationStatus, "live"> }

/** A verify attempt: `codeMatches` is the constant-time comparison of the given code's hash. */
export const verify = (v: Verification, codeMatches: boolean, now: DateTime.Utc): VerifyOutcome => {
  const settled = settle(v, now)
  if (settled.status !== "live") return { _tag: "NotLive", next: settled, status: settled.status }
  if (codeMatches) return { _tag: "Approved", next: { ...v, status: "approved", updated_at: now } }
  const attempts = v.attempts + 1
  const next: Verification = {
    ...v,
    attempts,
    status: attempts >= MAX_VERIFY_ATTEMPTS ? "max_attempts_reached" : "live",
    updated_at: now
  }
  return { _tag: "WrongCode", next, attemptsRemaining: attemptsRemaining(next) }
}

/** A newer managed send to the same recipient with the same template: live → failed; others unchanged. */
export const supersede = (v: Verification, now: DateTime.Utc): Verification => {
  const settled = settle(v, now)
  return settled.status === "live" ? { ...v, status: "failed", updated_at: now } : settled
}

/** `expires_at` as spec §4.2 writes it: ISO 8601 with a `+00:00` offset (seconds precision). */
export const formatExpiresAt = (at: DateTime.Utc): string => `${DateTime.formatIso(at).slice(0, 19)}+00:00`

/** The read shape of decisions §7. */
export const verificationJson = (v: Verification, now: DateTime.Utc) => ({
  verification_id: v.id,
  status: effectiveStatus(v, now),
  to: v.to,
  contact_id: v.contact_id,
  expires_at: formatExpiresAt(v.expires_at),
  attempts_remaining: attemptsRemaining(v)
})
