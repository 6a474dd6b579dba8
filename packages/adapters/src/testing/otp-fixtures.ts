/** Set-ups the messaging and OTP contract suites share (not exported: the suites are the API). */
import { type Account, AccountRepository } from "@wasl/core"
import { DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"

/** A fresh account holding `otpCredits`. */
export const accountWithCredits = (
  otpCredits: number,
  name = "Messaging"
): Effect.Effect<number, never, AccountRepository> =>
  AccountRepository.use((accounts) =>
    accounts.create({ name, plan: "business", webhookLimit: null, otpCredits }).pipe(Effect.map((a) => a.id))
  )

/** The account with the id (a defect when there is none). */
export const accountOf = (id: number): Effect.Effect<Account, never, AccountRepository> =>
  AccountRepository.use((accounts) => accounts.findById(id)).pipe(Effect.map(Option.getOrThrow))

/** The account's OTP credit balance. */
export const creditsOf = (id: number): Effect.Effect<number, never, AccountRepository> => Effect.map(accountOf(id), (account) => account.otp_credits)

/** Runs `effect` on a TestClock of its own, set to `time`. */
export const atTime = <A, E, R>(
  time: DateTime.Utc,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, Exclude<R, TestClock.TestClock>> =>
  Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(time)), effect).pipe(Effect.provide(TestClock.layer()))

/** `time` moved by `ms` milliseconds. */
export const plusMillis = (time: DateTime.Utc, ms: number): DateTime.Utc => DateTime.add(time, { milliseconds: ms })

let sequence = 0
/** A record id (24 lowercase hex) unique in this process and unlikely to meet another run's. */
export const freshRecordId = (): string =>
  (Date.now().toString(16) + (sequence++).toString(16).padStart(6, "0") + Math.random().toString(16).slice(2))
    .slice(0, 24)
    .padEnd(24, "0")
