import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import { Ability, allows, authorize, Permission, PERMISSIONS, type Principal, requireToken } from "../../src/Auth.ts"

const principal = (
  kind: Principal["kind"],
  permissions: Iterable<Permission>,
  abilities: ReadonlyArray<Ability> | null
): Principal => ({
  kind,
  accountId: 1,
  userId: 1,
  permissions: new Set(permissions),
  abilities,
  tokenId: kind === "token" ? 1 : null,
  sessionId: kind === "session" ? "hash" : null
})

const Permissions = Schema.Array(Permission)
const Abilities = Schema.Array(Ability)

describe("allows", () => {
  it.prop(
    "a token is allowed iff the user holds the permission and an ability includes it or *",
    [Permissions, Abilities, Permission],
    ([held, abilities, permission]) => {
      const expected = held.includes(permission) && (abilities.includes("*") || abilities.includes(permission))
      assert.strictEqual(allows(principal("token", held, abilities), permission), expected)
    }
  )

  it.prop("a session is allowed iff the user holds the permission", [Permissions, Permission], ([held, permission]) => {
    assert.strictEqual(allows(principal("session", held, null), permission), held.includes(permission))
  })

  it.prop("`*` never grants what the user does not hold", [Permissions, Permission], ([held, permission]) => {
    const p = principal("token", held.filter((x) => x !== permission), ["*"])
    assert.isFalse(allows(p, permission))
  })

  it.prop("an ability never grants what the user does not hold", [Permission], ([permission]) => {
    assert.isFalse(allows(principal("token", [], PERMISSIONS), permission))
  })

  it.prop("a token with no abilities is allowed nothing", [Permission], ([permission]) => {
    assert.isFalse(allows(principal("token", PERMISSIONS, []), permission))
  })
})

describe("authorize and requireToken", () => {
  it.effect.prop("authorize fails Forbidden exactly when allows is false", [Permissions, Abilities, Permission], ([held, abilities, permission]) =>
    Effect.gen(function*() {
      const p = principal("token", held, abilities)
      const exit = yield* Effect.exit(authorize(p, permission))
      if (allows(p, permission)) {
        assert.isTrue(Exit.isSuccess(exit))
      } else {
        assert.isTrue(Exit.isFailure(exit))
        const error = yield* Effect.flip(authorize(p, permission))
        assert.strictEqual(error._tag, "Forbidden")
        assert.strictEqual(error.message, "This action is unauthorized.")
      }
    }))

  it.effect("requireToken refuses sessions with 403 and lets tokens through", () =>
    Effect.gen(function*() {
      yield* requireToken(principal("token", [], ["*"]))
      const error = yield* Effect.flip(requireToken(principal("session", PERMISSIONS, null)))
      assert.strictEqual(error._tag, "Forbidden")
    }))
})
