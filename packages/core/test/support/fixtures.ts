/** Shared set-ups for the use-case tests. Run them under `Effect.provide(TestPorts())`. */
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { bootstrapAccount, type BootstrapInput, TeamRepository, UserRepository } from "../../src/Accounts.ts"
import { authenticateToken, login, type Permission } from "../../src/Auth.ts"
import { fakePasswordHash } from "./password-hasher.ts"

/** 2026-11-21T17:24:05.123Z */
export const NOW = Date.UTC(2026, 10, 21, 17, 24, 5, 123)

export const OWNER = {
  account: "Acme",
  email: "jane.doe@example.com",
  password: "correct horse battery staple",
  plan: "business",
  otpCredits: 10
} as const satisfies BootstrapInput

export const BAD_CREDENTIALS = "These credentials do not match our records."

/** Sets the clock to NOW, bootstraps OWNER's account and authenticates its token. */
export const setup = (input: BootstrapInput = OWNER) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(NOW)
    const created = yield* bootstrapAccount(input)
    const principal = yield* authenticateToken(created.token)
    return { ...created, principal }
  })

/** A user in the account, in one team holding exactly `permissions`. */
export const addMember = Effect.fnUntraced(function*(
  accountId: number,
  email: string,
  permissions: ReadonlyArray<Permission>,
  password = "member password"
) {
  const users = yield* UserRepository
  const user = yield* users.create({ email, passwordHash: fakePasswordHash(password), firstname: "M", lastname: "Ember" })
  yield* users.addMembership(accountId, user.id)
  yield* (yield* TeamRepository).create(
    { accountId, name: `team of ${email}`, description: null, madeBy: null, permissions },
    [user.id]
  )
  return user
})

/** `login` for a user without two-factor authentication: the session it opens (a defect otherwise). */
export const loginSession = (email: string, password: string) =>
  Effect.flatMap(login(email, password), (result) =>
    result._tag === "Session" ? Effect.succeed(result) : Effect.die(new Error("login asked for a second factor")))
