/**
 * First run: when the database holds no account, create one (plan business) owned by
 * admin@localhost with a random password and an owner token, so a newcomer can call the API at
 * once.
 */
import { Effect, Option } from "effect"
import { AccountRepository } from "../account/account-repository.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { bootstrapAccount, type BootstrapResult, type BootstrapServices } from "./bootstrap.ts"

/** The e-mail of the owner the first run creates. */
export const FIRST_RUN_EMAIL = "admin@localhost"
const PASSWORD_LENGTH = 24

/** The account the first run made, with its owner's credentials (shown only now). */
export interface FirstAccount extends BootstrapResult {
  /** The owner's e-mail, {@link FIRST_RUN_EMAIL}. */
  readonly email: string
  /** The owner's password: 24 random characters. */
  readonly password: string
}

/**
 * On a database without any account, creates one (plan business, no OTP credits) owned by
 * {@link FIRST_RUN_EMAIL} with a random password and an owner token, and answers them; answers
 * none when an account exists (also when another process created the first one meanwhile).
 *
 * @example
 * ```ts
 * import { Console, Effect, Option } from "effect"
 * import { ensureFirstAccount } from "@wasl/core"
 *
 * const announce = Effect.gen(function*() {
 *   const created = yield* ensureFirstAccount()
 *   if (Option.isSome(created)) yield* Console.log(`token: ${created.value.token}`)
 * })
 * ```
 */
export const ensureFirstAccount: () => Effect.Effect<Option.Option<FirstAccount>, never, BootstrapServices> = Effect.fn("ensureFirstAccount")(function*() {
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
