import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import {
  AccountRepository,
  addOtpCredits,
  createTokenForMember,
  Plan,
  setPlan,
  webhookLimit
} from "../../src/Accounts.ts"
import { authenticateToken, authorize } from "../../src/Auth.ts"
import { addMember, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { UserRepository } from "../../src/Accounts.ts"

const balance = (accountId: number) =>
  Effect.map(
    AccountRepository.use((accounts) => accounts.findById(accountId)),
    (a) => Option.getOrThrow(a).otp_credits
  )

const Positive = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000 }))
/** Zero, negatives, fractions and non-finite numbers. */
const NotPositiveInteger = Schema.Union([
  Schema.Int.check(Schema.isBetween({ minimum: -1_000_000, maximum: 0 })),
  Schema.Number.check(Schema.makeFilter((n: number) => !Number.isInteger(n) || n <= 0))
])

describe("addOtpCredits", () => {
  it.effect.prop("adds a positive amount", [Positive, Positive], ([a, b]) =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      assert.strictEqual((yield* addOtpCredits(account_id, a)).otp_credits, OWNER.otpCredits + a)
      assert.strictEqual((yield* addOtpCredits(account_id, b)).otp_credits, OWNER.otpCredits + a + b)
      assert.strictEqual(yield* balance(account_id), OWNER.otpCredits + a + b)
    }).pipe(Effect.provide(TestPorts())), { arbitrary: { runs: 20 } })

  it.effect.prop("rejects a non-positive or non-integer amount on `amount`, changing nothing", [NotPositiveInteger], ([amount]) =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const error = yield* Effect.flip(addOtpCredits(account_id, amount))
      assert.strictEqual(error._tag, "ValidationFailed")
      if (error._tag === "ValidationFailed") assert.deepStrictEqual(Object.keys(error.errors), ["amount"])
      assert.strictEqual(yield* balance(account_id), OWNER.otpCredits)
    }).pipe(Effect.provide(TestPorts())), { arbitrary: { runs: 40 } })

  it.effect.each([0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2])(
    "rejects %s",
    (amount) =>
      Effect.gen(function*() {
        const { account_id } = yield* setup()
        const error = yield* Effect.flip(addOtpCredits(account_id, amount))
        assert.strictEqual(error._tag, "ValidationFailed")
      }).pipe(Effect.provide(TestPorts()))
  )

  it.effect("an unknown account is NotFound", () =>
    Effect.gen(function*() {
      yield* setup()
      assert.strictEqual((yield* Effect.flip(addOtpCredits(999, 5)))._tag, "NotFound")
    }).pipe(Effect.provide(TestPorts())))
})

describe("setPlan", () => {
  const Limit = Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })))

  it.effect.prop("sets the plan and the custom limit", [Plan, Limit], ([plan, limit]) =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const account = yield* setPlan(account_id, plan, limit)
      assert.strictEqual(account.plan, plan)
      assert.strictEqual(account.webhook_limit, limit)
      const stored = Option.getOrThrow(yield* (yield* AccountRepository).findById(account_id))
      assert.strictEqual(webhookLimit(stored.plan, stored.webhook_limit), webhookLimit(plan, limit))
    }).pipe(Effect.provide(TestPorts())), { arbitrary: { runs: 20 } })

  it.effect.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects the webhook limit %s", (limit) =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const error = yield* Effect.flip(setPlan(account_id, "custom", limit))
      assert.strictEqual(error._tag, "ValidationFailed")
      if (error._tag === "ValidationFailed") assert.deepStrictEqual(Object.keys(error.errors), ["webhook_limit"])
      assert.strictEqual(Option.getOrThrow(yield* (yield* AccountRepository).findById(account_id)).plan, "business")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an unknown account is NotFound", () =>
    Effect.gen(function*() {
      yield* setup()
      assert.strictEqual((yield* Effect.flip(setPlan(999, "free", null)))._tag, "NotFound")
    }).pipe(Effect.provide(TestPorts())))
})

describe("createTokenForMember", () => {
  it.effect("issues a token for a member, named cli by default", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const member = yield* addMember(account_id, "member@example.com", ["deal-index", "deal-show"])
      const { token, plainText } = yield* createTokenForMember({
        accountId: account_id,
        userId: member.id,
        abilities: ["deal-index"]
      })
      assert.strictEqual(token.name, "cli")
      const principal = yield* authenticateToken(plainText)
      assert.strictEqual(principal.userId, member.id)
      yield* authorize(principal, "deal-index")
      assert.strictEqual((yield* Effect.flip(authorize(principal, "deal-show")))._tag, "Forbidden")
      const named = yield* createTokenForMember({ accountId: account_id, userId: member.id, abilities: [], name: "ops" })
      assert.strictEqual(named.token.name, "ops")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a user who is not a member of the account is NotFound", () =>
    Effect.gen(function*() {
      const first = yield* setup()
      const second = yield* setup({ ...OWNER, account: "Other", email: "owner@other.example" })
      const outsider = yield* (yield* UserRepository).create({
        email: "outsider@example.com",
        passwordHash: "x",
        firstname: "O",
        lastname: "S"
      })
      for (const userId of [second.user_id, outsider.id, 999]) {
        const error = yield* Effect.flip(createTokenForMember({ accountId: first.account_id, userId, abilities: ["*"] }))
        assert.strictEqual(error._tag, "NotFound")
      }
      assert.strictEqual(
        (yield* Effect.flip(createTokenForMember({ accountId: 999, userId: first.user_id, abilities: ["*"] })))._tag,
        "NotFound"
      )
    }).pipe(Effect.provide(TestPorts())))
})
