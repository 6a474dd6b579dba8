/**
 * The managed-OTP state machine, as data and pure transitions. A verification is created `live` by
 * a managed send and ends in exactly one of:
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

/** The statuses of a verification. */
export const VERIFICATION_STATUSES = ["live", "approved", "expired", "failed", "max_attempts_reached"] as const
/**
 * Where a verification stands: `live` (waiting for the code), or one of the end states
 * `approved`, `expired`, `failed` (superseded) and `max_attempts_reached`, which never change.
 */
export type VerificationStatus = typeof VERIFICATION_STATUSES[number]

/** Wrong codes a verification takes: the fifth wrong code locks it (`max_attempts_reached`). */
export const MAX_VERIFY_ATTEMPTS = 5

/** A managed one-time-password verification as stored. */
export interface Verification {
  /** The verification's id (the `verification_id` a caller verifies with). */
  readonly id: string
  /** The account that sent the code. */
  readonly account_id: number
  /** The authentication broadcast that sent it. */
  readonly broadcast_id: number
  /** The contact it went to. */
  readonly contact_id: string
  /** The recipient's number as it was sent to. */
  readonly to: string
  /** HMAC-SHA256(server key, id + code), hex. */
  readonly code_hash: string
  /** The stored status (a live one may be expired as of now: see `effectiveStatus`). */
  readonly status: VerificationStatus
  /** Wrong codes given so far. */
  readonly attempts: number
  /** The instant from which the code no longer verifies. */
  readonly expires_at: DateTime.Utc
  /** When the code was sent. */
  readonly created_at: DateTime.Utc
  /** When the verification last changed. */
  readonly updated_at: DateTime.Utc
}

/** What `startVerification` needs. */
export interface NewVerification {
  /** The new verification's id. */
  readonly id: string
  /** The account that sends the code. */
  readonly account_id: number
  /** The authentication broadcast that sends it. */
  readonly broadcast_id: number
  /** The contact it goes to. */
  readonly contact_id: string
  /** The recipient's number. */
  readonly to: string
  /** The code's hash (`OtpCodeHasher.hash(id, code)`). */
  readonly code_hash: string
  /** How long the code lives, in minutes (the template's `code_expiration_minutes`, 5 by default). */
  readonly lifetimeMinutes: number
}

/**
 * (none) → live: `expires_at` is `now + lifetimeMinutes`, no attempts used, `created_at` and
 * `updated_at` are `now`.
 */
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

/**
 * The status as of `now`: a `live` verification whose `expires_at` is at or before `now` is
 * `expired`; any other status is the stored one.
 */
export const effectiveStatus = (v: Verification, now: DateTime.Utc): VerificationStatus =>
  v.status === "live" && isPast(v, now) ? "expired" : v.status

/** Wrong codes still allowed (0 once locked). */
export const attemptsRemaining = (v: Verification): number => Math.max(0, MAX_VERIFY_ATTEMPTS - v.attempts)

/**
 * The verification as of `now`, with a passed expiry made explicit (what to persist on a read):
 * live and expired as of `now` → `expired` with `updated_at` now; otherwise the same value,
 * unchanged.
 */
export const settle = (v: Verification, now: DateTime.Utc): Verification =>
  effectiveStatus(v, now) === v.status ? v : { ...v, status: "expired", updated_at: now }

/** What a verify attempt did: approved, a wrong code (maybe the last allowed), or not live. */
export type VerifyOutcome =
  /** live → approved. */
  | { readonly _tag: "Approved"; readonly next: Verification }
  /** live → live (attempts + 1), or → max_attempts_reached on the last allowed attempt. */
  | { readonly _tag: "WrongCode"; readonly next: Verification; readonly attemptsRemaining: number }
  /** Not live (any end state, or expired as of now): `next` is `settle(v, now)`. */
  | { readonly _tag: "NotLive"; readonly next: Verification; readonly status: Exclude<VerificationStatus, "live"> }

/**
 * A verify attempt at `now`; `codeMatches` is the constant-time comparison of the given code's
 * hash. First the verification is settled (`settle`), then:
 * - not live (an end state, or expired as of `now`) → `NotLive` with the settled verification and
 *   its status; nothing else changes (not even `attempts`);
 * - live and the code matches → `Approved`: status `approved`, `updated_at` now;
 * - live and the code is wrong → `WrongCode`: `attempts` + 1, `updated_at` now, and status
 *   `max_attempts_reached` when attempts reaches `MAX_VERIFY_ATTEMPTS` (else still `live`);
 *   `attemptsRemaining` is what is left after this attempt (0 once locked).
 */
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

/**
 * A newer managed send to the same recipient with the same template at `now`: a live, unexpired
 * verification becomes `failed` (`updated_at` now); a live one expired as of `now` becomes
 * `expired` (as `settle`); an end state is returned unchanged.
 */
export const supersede = (v: Verification, now: DateTime.Utc): Verification => {
  const settled = settle(v, now)
  return settled.status === "live" ? { ...v, status: "failed", updated_at: now } : settled
}

/** `expires_at` as the API writes it: ISO 8601 with a `+00:00` offset, whole seconds. */
export const formatExpiresAt = (at: DateTime.Utc): string => `${DateTime.formatIso(at).slice(0, 19)}+00:00`

/** A verification as the API shows it. */
export interface VerificationJson {
  /** The verification's id. */
  readonly verification_id: string
  /** Its status as of the read (`effectiveStatus`). */
  readonly status: VerificationStatus
  /** The recipient's number. */
  readonly to: string
  /** The contact the code went to. */
  readonly contact_id: string
  /** When the code stops verifying (`formatExpiresAt`). */
  readonly expires_at: string
  /** Wrong codes still allowed. */
  readonly attempts_remaining: number
}

/** The read shape of a verification as of `now`. */
export const verificationJson = (v: Verification, now: DateTime.Utc): VerificationJson => ({
  verification_id: v.id,
  status: effectiveStatus(v, now),
  to: v.to,
  contact_id: v.contact_id,
  expires_at: formatExpiresAt(v.expires_at),
  attempts_remaining: attemptsRemaining(v)
})
