/**
 * The managed one-time-password state machine's reference model, written from the OTP rules. The
 * model holds every verification sent to one recipient with one template, oldest first:
 *
 * | state | trigger | next state | answer |
 * |---|---|---|---|
 * | (none) | managed send | live, 5 attempts, expiring `lifetime` minutes later | Sent |
 * | live | a newer managed send to the same recipient and template | failed | Sent (for the new one) |
 * | live, before its expiry | verify, right code | approved | Approved |
 * | live, before its expiry | verify, wrong code | live, one attempt fewer; the fifth: max_attempts_reached | WrongCode (attempts left) |
 * | live, from its expiry on | verify | expired | NotLive (expired) |
 * | approved, failed, expired, max_attempts_reached | verify | unchanged | NotLive (the status) |
 *
 * The stored status changes only when a trigger touches the verification (a verify, or a newer
 * send that supersedes it): expiry alone changes the status as of now (what a read shows), and the
 * next touch stores `expired`. Invariants after every step: at most one verification is live as of
 * now (one live code per recipient and template); never more than 5 wrong codes; an ended
 * verification never changes again (the model never changes one).
 */
import { DateTime } from "effect"
import {
  attemptsRemaining,
  effectiveStatus,
  MAX_VERIFY_ATTEMPTS,
  type Verification,
  type VerificationStatus
} from "../messaging/otp-verification.ts"
import { differences } from "./differences.ts"
import type { ReferenceModel, Transition } from "./reference-model.ts"

/** What happens to a recipient's verifications. */
export type OtpTrigger =
  /** A managed send to the recipient with the template; the service drew `code`, valid `lifetimeMinutes`. */
  | { readonly _tag: "Send"; readonly code: string; readonly lifetimeMinutes: number }
  /** A verify attempt with `code` on the verification sent `back` sends ago (0: the latest). */
  | { readonly _tag: "Verify"; readonly back: number; readonly code: string }

/** What the system answers: the send happened, or how the verify attempt went. */
export type OtpAnswer =
  | { readonly _tag: "Sent" }
  | { readonly _tag: "Approved" }
  | { readonly _tag: "WrongCode"; readonly attemptsRemaining: number }
  | { readonly _tag: "NotLive"; readonly status: Exclude<VerificationStatus, "live"> }

/** The model's verification: its code, stored status and wrong attempts, expiry in epoch ms. */
export interface ModelVerification {
  /** The code that was sent. */
  readonly code: string
  /** The stored status (settled to expired only when a trigger touches it). */
  readonly status: VerificationStatus
  /** Wrong codes given so far. */
  readonly attempts: number
  /** When it expires, epoch ms: from that instant on it is expired. */
  readonly expiresAt: number
}

/** The model's state: the recipient's verifications, oldest first. */
export type OtpModelState = ReadonlyArray<ModelVerification>

const statusAsOf = (v: ModelVerification, nowMillis: number): VerificationStatus =>
  v.status === "live" && nowMillis >= v.expiresAt ? "expired" : v.status

const send = (all: OtpModelState, trigger: Extract<OtpTrigger, { _tag: "Send" }>, nowMillis: number): OtpModelState => [
  ...all.map((v): ModelVerification =>
    v.status !== "live" ? v : { ...v, status: statusAsOf(v, nowMillis) === "live" ? "failed" : "expired" }
  ),
  { code: trigger.code, status: "live", attempts: 0, expiresAt: nowMillis + trigger.lifetimeMinutes * 60_000 }
]

const attempt = (v: ModelVerification, code: string, nowMillis: number): Transition<ModelVerification, OtpAnswer> => {
  const status = statusAsOf(v, nowMillis)
  if (status !== "live") return { state: { ...v, status }, answer: { _tag: "NotLive", status } }
  if (code === v.code) return { state: { ...v, status: "approved" }, answer: { _tag: "Approved" } }
  const attempts = v.attempts + 1
  return {
    state: { ...v, attempts, status: attempts >= MAX_VERIFY_ATTEMPTS ? "max_attempts_reached" : "live" },
    answer: { _tag: "WrongCode", attemptsRemaining: MAX_VERIFY_ATTEMPTS - attempts }
  }
}

const apply = (all: OtpModelState, trigger: OtpTrigger, nowMillis: number): Transition<OtpModelState, OtpAnswer> => {
  if (trigger._tag === "Send") return { state: send(all, trigger, nowMillis), answer: { _tag: "Sent" } }
  const index = all.length - 1 - trigger.back
  const next = attempt(all[index]!, trigger.code, nowMillis)
  return { state: all.map((v, i) => (i === index ? next.state : v)), answer: next.answer }
}

const compare = (all: OtpModelState, observed: ReadonlyArray<Verification>, nowMillis: number): ReadonlyArray<string> => {
  const d = differences()
  const now = DateTime.makeUnsafe(nowMillis)
  d.field("the number of verifications", observed.length, all.length)
  observed.forEach((v, i) => {
    const m = all[i]
    if (m === undefined) return
    d.field(`verification ${i + 1}: stored status`, v.status, m.status)
    d.field(`verification ${i + 1}: status as of now`, effectiveStatus(v, now), statusAsOf(m, nowMillis))
    d.field(`verification ${i + 1}: attempts`, v.attempts, m.attempts)
    d.field(`verification ${i + 1}: attempts remaining`, attemptsRemaining(v), Math.max(0, MAX_VERIFY_ATTEMPTS - m.attempts))
    d.field(`verification ${i + 1}: expires_at`, DateTime.toEpochMillis(v.expires_at), m.expiresAt)
    d.rule(`never more than ${MAX_VERIFY_ATTEMPTS} wrong codes`, v.attempts <= MAX_VERIFY_ATTEMPTS)
    d.rule("an ended verification never becomes live again", m.status === "live" || v.status !== "live")
  })
  d.rule(
    "at most one live code per recipient and template",
    observed.filter((v) => effectiveStatus(v, now) === "live").length <= 1
  )
  return d.list
}

const show = (trigger: OtpTrigger): string =>
  trigger._tag === "Send"
    ? `send(code ${trigger.code}, ${trigger.lifetimeMinutes} min)`
    : `verify(${trigger.back === 0 ? "latest" : `${trigger.back} sends back`}, ${trigger.code})`

/**
 * The reference model of one recipient's managed verifications (see the table above). A verify
 * needs a verification `back` sends ago; fast-check skips it until there is one. Its boundaries
 * are the live codes' expiries.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(otpCommands(), (cmds) => fc.modelRun(otpModelSetup, cmds)))
 * ```
 */
export const otpModel: ReferenceModel<OtpModelState, OtpTrigger, OtpAnswer, ReadonlyArray<Verification>> = {
  canApply: (all, trigger) => trigger._tag === "Send" || trigger.back < all.length,
  apply,
  compare,
  show,
  // A live code's expiry: from that instant on the right code no longer verifies.
  boundaries: (all) => all.filter((v) => v.status === "live").map((v) => v.expiresAt)
}
