/**
 * The managed-OTP system under test: the core's real transitions (`startVerification`,
 * `supersede`, `verify`) applied to a recipient's stored verifications, the way send-otp and the
 * verify use-case apply them.
 */
import type { DateTime } from "effect"
import { startVerification, supersede, type Verification, verify } from "../messaging/otp-verification.ts"
import type { SystemUnderTest, Transition } from "./reference-model.ts"
import type { OtpAnswer, OtpTrigger } from "./otp-model.ts"
import { memoryStore, type SnapshotStore, storedSystem } from "./snapshot-store.ts"

/** A system under test for the OTP model: it holds one recipient's verifications, oldest first. */
export type OtpSystem = SystemUnderTest<OtpTrigger, OtpAnswer, ReadonlyArray<Verification>>

const recordId = (n: number): string => n.toString(16).padStart(24, "0")

/**
 * One trigger applied to a recipient's stored verifications with the core's transitions. A send
 * supersedes the earlier ones and starts a new verification. The code itself is kept as the
 * verification's `code_hash` and compared as it is: hashing belongs to the verify use-case, not to
 * the state machine this checks.
 */
export const applyOtpTrigger = (
  stored: ReadonlyArray<Verification>,
  trigger: OtpTrigger,
  now: DateTime.Utc
): Transition<ReadonlyArray<Verification>, OtpAnswer> => {
  if (trigger._tag === "Send") {
    const started = startVerification({
      id: recordId(stored.length + 1),
      account_id: 1,
      broadcast_id: 1,
      contact_id: recordId(0),
      to: "+966500000000",
      code_hash: trigger.code,
      lifetimeMinutes: trigger.lifetimeMinutes
    }, now)
    return { state: [...stored.map((v) => supersede(v, now)), started], answer: { _tag: "Sent" } }
  }
  const index = stored.length - 1 - trigger.back
  const target = stored[index]!
  const outcome = verify(target, target.code_hash === trigger.code, now)
  const answer: OtpAnswer = outcome._tag === "Approved"
    ? { _tag: "Approved" }
    : outcome._tag === "WrongCode"
    ? { _tag: "WrongCode", attemptsRemaining: outcome.attemptsRemaining }
    : { _tag: "NotLive", status: outcome.status }
  return { state: stored.map((v, i) => (i === index ? outcome.next : v)), answer }
}

/**
 * The core's OTP transitions over `store` (by default a variable that starts with no
 * verification). Pass your own store to check your persistence of verifications.
 *
 * @example
 * ```ts
 * fc.modelRun(() => otpModelSetup({ system: otpSystem(myVerificationStore()) }), cmds)
 * ```
 */
export const otpSystem = (
  store: SnapshotStore<ReadonlyArray<Verification>> = memoryStore<ReadonlyArray<Verification>>([])
): OtpSystem => storedSystem(store, applyOtpTrigger)
