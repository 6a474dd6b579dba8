/**
 * First run (decisions §9): when the database holds no account, create one
 * (plan business) owned by admin@localhost with a random password and an
 * owner token, so a newcomer can call the API at once.
 */
import { Effect, Option } from "effect"
import { AccountRepository } from "../account/account-repository.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { bootstrapAccount } from "./bootstrap.ts"

export const FIRST_RUN_EMAIL = "admin@localhost"
const PASSWORD_LENGTH = 24

export const ensureFirstAccount = Effect.fn("ensureFirstAccount")(function*() {
  if ((yield* (yield* AccountRepository).count) > 0) return Option.none()
  const password = yield* randomAlphanumeric(PASSWORD_LENGTH)
  return yield* bootstrapAccount({
    account: "My account",
    email: FIRST_RUN_EMAIL,
    password,
    plan: "business",
    otpCredits: 0
  }).pipe(
    Effect.map((created) => Option.some({ ...created, email: FIRST_RUN_EMAIL, password })),
    // Another process won the race: its transaction created the owner, ours rolled back.
    Effect.catchTag("ValidationFailed", () => Effect.succeedNone)
  )
})
