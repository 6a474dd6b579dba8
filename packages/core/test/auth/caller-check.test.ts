import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import {
  authorize,
  CallerCheck,
  createToken,
  type Permission,
  type Principal,
  recheckCaller,
  requireToken,
  withCallerChecks
} from "../../src/Auth.ts"
import { setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"

const principal = (kind: Principal["kind"], permissions: Iterable<Permission>): Principal => ({
  kind,
  accountId: 1,
  userId: 1,
  permissions: new Set(permissions),
  abilities: kind === "token" ? ["*"] : null,
  tokenId: kind === "token" ? 1 : null,
  sessionId: kind === "session" ? "hash" : null
})

describe("withCallerChecks", () => {
  it.effect("answers the checks made of the caller, in order, each once", () =>
    Effect.gen(function*() {
      const caller = principal("token", ["contact-create", "contact-update"])
      const [value, checks] = yield* withCallerChecks(Effect.gen(function*() {
        yield* authorize(caller, "contact-create")
        yield* requireToken(caller)
        yield* authorize(caller, "contact-update")
        yield* authorize(caller, "contact-create")
        return "done"
      }))
      assert.strictEqual(value, "done")
      assert.deepStrictEqual(checks, [
        { _tag: "Permission", anyOf: ["contact-create"] },
        { _tag: "TokenOnly" },
        { _tag: "Permission", anyOf: ["contact-update"] }
      ])
    }))

  it.effect("keeps the abilities a token creation gives as checks of its caller", () =>
    Effect.gen(function*() {
      const { principal: owner } = yield* setup()
      const [, checks] = yield* withCallerChecks(createToken(owner, { name: "reader", abilities: ["deal-index", "*"] }))
      assert.deepStrictEqual(checks, [
        { _tag: "Permission", anyOf: ["token-manage"] },
        { _tag: "Grant", ability: "deal-index" },
        { _tag: "Grant", ability: "*" }
      ])
    }).pipe(Effect.provide(TestPorts())))
})

describe("recheckCaller", () => {
  const checks: ReadonlyArray<CallerCheck> = [
    { _tag: "Permission", anyOf: ["token-manage"] },
    { _tag: "TokenOnly" },
    { _tag: "Grant", ability: "deal-index" }
  ]

  it.effect("passes a caller who still may, and refuses as the first failing check would, in order", () =>
    Effect.gen(function*() {
      yield* recheckCaller(principal("token", ["token-manage", "deal-index"]), checks)
      const refusal = (caller: Principal) => Effect.map(Effect.flip(recheckCaller(caller, checks)), (e) => e.message)
      assert.strictEqual(yield* refusal(principal("token", ["deal-index"])), "This action is unauthorized.")
      assert.strictEqual(yield* refusal(principal("session", ["token-manage", "deal-index"])), "This action requires an API token.")
      assert.strictEqual(
        yield* refusal(principal("token", ["token-manage"])),
        "A token cannot be given an ability the caller does not hold: deal-index."
      )
    }))

  it.effect("asks again that a caller may still grant a permission to a team (Delegate), naming it", () =>
    Effect.gen(function*() {
      const delegation: ReadonlyArray<CallerCheck> = [{ _tag: "Delegate", permission: "webhook-delete" }]
      yield* recheckCaller(principal("session", ["webhook-delete"]), delegation)
      const refused = yield* Effect.flip(recheckCaller(principal("session", ["deal-index"]), delegation))
      assert.strictEqual(refused.message, "A permission the caller does not hold cannot be granted: webhook-delete.")
      const codec = Schema.fromJsonString(Schema.Array(CallerCheck))
      assert.deepStrictEqual(Schema.decodeUnknownSync(codec)(Schema.encodeSync(codec)(delegation)), delegation)
    }))

  it("round-trips the checks through JSON, as a store keeps them", () => {
    const codec = Schema.fromJsonString(Schema.Array(CallerCheck))
    assert.deepStrictEqual(Schema.decodeUnknownSync(codec)(Schema.encodeSync(codec)(checks)), checks)
  })
})
