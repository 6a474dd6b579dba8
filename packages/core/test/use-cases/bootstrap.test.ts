import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Option, Schema } from "effect"
import { TestClock } from "effect/testing"
import { AccountRepository, bootstrapAccount, Plan, TeamRepository, UserRepository } from "../../src/Accounts.ts"
import {
  authenticateToken,
  authorize,
  parseBearer,
  Permission,
  PERMISSIONS,
  TokenRepository
} from "../../src/Auth.ts"
import { NOW, loginSession, OWNER, setup } from "../support/fixtures.ts"
import { disarmFault } from "../support/faults.ts"
import { TestPorts, TestPortsWithFault } from "../support/layers.ts"
import { fakePasswordHash } from "../support/password-hasher.ts"
import { memoryState } from "../support/store.ts"
import { TransactionCounts } from "../support/transactions.ts"

describe("bootstrapAccount", () => {
  it.effect("creates the account, its owner, the Administrators team and an owner token", () =>
    Effect.gen(function*() {
      const created = yield* setup()
      const account = Option.getOrThrow(yield* (yield* AccountRepository).findById(created.account_id))
      assert.strictEqual(account.name, "Acme")
      assert.strictEqual(account.plan, "business")
      assert.strictEqual(account.otp_credits, 10)
      assert.strictEqual(account.webhook_limit, null)
      assert.strictEqual(DateTime.toEpochMillis(account.created_at), NOW)

      const users = yield* UserRepository
      const user = Option.getOrThrow(yield* users.findById(created.user_id))
      assert.strictEqual(user.email, OWNER.email)
      assert.strictEqual(user.firstname, "jane")
      assert.strictEqual(user.lastname, "doe")
      const stored = Option.getOrThrow(yield* users.findByEmail(OWNER.email))
      assert.strictEqual(stored.passwordHash, fakePasswordHash(OWNER.password), "the password goes through the hasher")
      assert.notStrictEqual(stored.passwordHash, OWNER.password)
      const membership = Option.getOrThrow(yield* users.findMembership(created.account_id, created.user_id))
      assert.strictEqual(membership.status, "active")

      const teams = yield* (yield* TeamRepository).listForUser(created.account_id, created.user_id)
      assert.strictEqual(teams.length, 1)
      assert.strictEqual(teams[0]!.id, created.team_id)
      assert.strictEqual(teams[0]!.name, "Administrators")
      assert.strictEqual(teams[0]!.made_by, created.user_id)
      assert.sameMembers([...teams[0]!.permissions], [...PERMISSIONS])

      const { items: tokens, total } = yield* (yield* TokenRepository).list(created.account_id, created.user_id, { offset: 0, limit: 15 })
      assert.strictEqual(total, 1)
      assert.deepStrictEqual(tokens[0]!.abilities, ["*"])
      assert.strictEqual(tokens[0]!.name, "owner")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("the token authenticates with every permission", () =>
    Effect.gen(function*() {
      const created = yield* setup()
      const parts = parseBearer(created.token)
      assert.isDefined(parts)
      const principal = yield* authenticateToken(created.token)
      assert.strictEqual(principal.kind, "token")
      assert.strictEqual(principal.accountId, created.account_id)
      assert.strictEqual(principal.userId, created.user_id)
      assert.strictEqual(principal.tokenId, parts!.id)
      assert.deepStrictEqual(principal.abilities, ["*"])
      assert.sameMembers([...principal.permissions], [...PERMISSIONS])
      for (const permission of PERMISSIONS) yield* authorize(principal, permission)
      // Only the hash of the secret is stored.
      const stored = Option.getOrThrow(yield* (yield* TokenRepository).findById(parts!.id))
      assert.match(stored.secretHash, /^[0-9a-f]{64}$/)
      assert.notInclude(stored.secretHash, parts!.secret)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("the owner can log in with the password", () =>
    Effect.gen(function*() {
      const created = yield* setup()
      const { user } = yield* loginSession(OWNER.email, OWNER.password)
      assert.strictEqual(user.id, created.user_id)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a custom plan keeps its webhook limit", () =>
    Effect.gen(function*() {
      const created = yield* setup({ ...OWNER, plan: "custom", webhookLimit: 12 })
      const account = Option.getOrThrow(yield* (yield* AccountRepository).findById(created.account_id))
      assert.strictEqual(account.plan, "custom")
      assert.strictEqual(account.webhook_limit, 12)
    }).pipe(Effect.provide(TestPorts())))

  it.effect.prop(
    "stores the plan and credits given",
    [Plan, Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 }))],
    ([plan, otpCredits]) =>
      Effect.gen(function*() {
        const created = yield* setup({ ...OWNER, plan, otpCredits })
        const account = Option.getOrThrow(yield* (yield* AccountRepository).findById(created.account_id))
        assert.strictEqual(account.plan, plan)
        assert.strictEqual(account.otp_credits, otpCredits)
      }).pipe(Effect.provide(TestPorts())),
    { arbitrary: { runs: 25 } }
  )

  it.effect("a duplicate e-mail fails on `email` and leaves no account behind", () =>
    Effect.gen(function*() {
      yield* setup()
      const sizes = Effect.map(memoryState, (s) => ({ accounts: s.accounts.size, teams: s.teams.size, tokens: s.tokens.size }))
      const before = yield* sizes
      const error = yield* Effect.flip(bootstrapAccount({ ...OWNER, account: "Other", email: "JANE.DOE@example.com" }))
      assert.strictEqual(error._tag, "ValidationFailed")
      assert.deepStrictEqual(Object.keys(error.errors), ["email"])
      // The account row was written before the user failed: it must be rolled back.
      assert.strictEqual(yield* (yield* AccountRepository).count, 1)
      assert.isFalse([...(yield* memoryState).accounts.values()].some((a) => a.name === "Other"))
      assert.deepStrictEqual(yield* sizes, before)
      assert.strictEqual((yield* TransactionCounts).rolledBack, 1)
    }).pipe(Effect.provide(TestPorts())))

  it.effect.each(["UserRepository.addMembership", "TeamRepository.create", "TokenRepository.create"] as const)(
    "a defect at %s rolls everything back",
    (fault) =>
      Effect.gen(function*() {
        yield* TestClock.setTime(NOW)
        const exit = yield* Effect.exit(bootstrapAccount(OWNER))
        assert.isTrue(Exit.hasDies(exit))
        assert.strictEqual(yield* (yield* AccountRepository).count, 0)
        assert.isTrue(Option.isNone(yield* (yield* UserRepository).findByEmail(OWNER.email)))
        const state = yield* memoryState
        assert.strictEqual(state.memberships.size, 0)
        assert.strictEqual(state.teams.size, 0)
        assert.strictEqual(state.tokens.size, 0)
        // And a retry once the fault is gone succeeds.
        yield* disarmFault
        const created = yield* bootstrapAccount(OWNER)
        yield* authenticateToken(created.token)
      }).pipe(Effect.provide(TestPortsWithFault(fault)))
  )

  it.effect("each permission name is a valid Permission", () =>
    Effect.sync(() => {
      for (const p of PERMISSIONS) assert.isTrue(Schema.is(Permission)(p))
      assert.strictEqual(new Set(PERMISSIONS).size, PERMISSIONS.length)
    }))
})
