import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { AccountRepository, ensureFirstAccount, FIRST_RUN_EMAIL } from "../../src/Accounts.ts"
import { authenticateToken, login } from "../../src/Auth.ts"
import { NOW, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"

describe("ensureFirstAccount", () => {
  it.effect("on an empty database creates a business account for admin@localhost", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const created = Option.getOrThrow(yield* ensureFirstAccount())
      assert.strictEqual(created.email, FIRST_RUN_EMAIL)
      assert.match(created.password, /^[A-Za-z0-9]{24}$/)
      const account = Option.getOrThrow(yield* (yield* AccountRepository).findById(created.account_id))
      assert.strictEqual(account.plan, "business")
      const principal = yield* authenticateToken(created.token)
      assert.deepStrictEqual(principal.abilities, ["*"])
      yield* login(FIRST_RUN_EMAIL, created.password)
      // Second run: nothing to do.
      assert.isTrue(Option.isNone(yield* ensureFirstAccount()))
      assert.strictEqual(yield* (yield* AccountRepository).count, 1)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("does nothing when an account exists", () =>
    Effect.gen(function*() {
      yield* setup()
      assert.isTrue(Option.isNone(yield* ensureFirstAccount()))
      assert.strictEqual(yield* (yield* AccountRepository).count, 1)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("is deterministic under a seeded SecureRandom", () =>
    Effect.gen(function*() {
      const run = Effect.gen(function*() {
        yield* TestClock.setTime(NOW)
        return Option.getOrThrow(yield* ensureFirstAccount())
      })
      const a = yield* run.pipe(Effect.provide(TestPorts(7)))
      const b = yield* run.pipe(Effect.provide(TestPorts(7)))
      const c = yield* run.pipe(Effect.provide(TestPorts(8)))
      assert.strictEqual(a.password, b.password)
      assert.strictEqual(a.token, b.token)
      assert.notStrictEqual(a.password, c.password)
    }))
})
