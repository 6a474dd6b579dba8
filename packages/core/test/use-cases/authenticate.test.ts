import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Schema } from "effect"
import { TestClock } from "effect/testing"
import { createTokenForMember, TeamRepository, UserRepository } from "../../src/Accounts.ts"
import {
  authenticateSession,
  authenticateToken,
  authorize,
  login,
  logout,
  parseBearer,
  Permission,
  PERMISSIONS,
  SESSION_LIFETIME,
  TokenHasher,
  TokenRepository
} from "../../src/Auth.ts"
import { addMember, NOW, loginSession, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { removeMembership, setMembershipStatus } from "../support/store.ts"

const ALPHANUMERIC_40 = /^[A-Za-z0-9]{40}$/

describe("authenticateToken", () => {
  it.effect("a valid token gives a token principal and marks the token used", () =>
    Effect.gen(function*() {
      const { token, account_id, user_id } = yield* setup()
      yield* TestClock.adjust(Duration.minutes(5))
      const principal = yield* authenticateToken(token)
      assert.strictEqual(principal.kind, "token")
      assert.strictEqual(principal.accountId, account_id)
      assert.strictEqual(principal.userId, user_id)
      assert.isNull(principal.sessionId)
      const stored = Option.getOrThrow(yield* (yield* TokenRepository).findById(principal.tokenId!))
      assert.strictEqual(
        Option.map(Option.fromNullishOr(stored.token.last_used_at), DateTime.toEpochMillis).pipe(Option.getOrNull),
        NOW + 5 * 60_000
      )
    }).pipe(Effect.provide(TestPorts())))

  it.effect("records use at most once a minute", () =>
    Effect.gen(function*() {
      const { token } = yield* setup()
      const lastUsed = Effect.gen(function*() {
        const principal = yield* authenticateToken(token)
        const stored = Option.getOrThrow(yield* (yield* TokenRepository).findById(principal.tokenId!))
        return stored.token.last_used_at === null ? null : DateTime.toEpochMillis(stored.token.last_used_at)
      })
      assert.strictEqual(yield* lastUsed, NOW)
      yield* TestClock.adjust(Duration.seconds(59))
      assert.strictEqual(yield* lastUsed, NOW)
      yield* TestClock.adjust(Duration.seconds(1))
      assert.strictEqual(yield* lastUsed, NOW + 60_000)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a wrong secret for an existing id is Unauthenticated", () =>
    Effect.gen(function*() {
      const { token } = yield* setup()
      const { id, secret } = parseBearer(token)!
      const wrong = secret.slice(0, 39) + (secret.endsWith("A") ? "B" : "A")
      const error = yield* Effect.flip(authenticateToken(`${id}|${wrong}`))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect.prop("any other 40-character secret is Unauthenticated", [Schema.String.check(Schema.isPattern(ALPHANUMERIC_40))], ([secret]) =>
    Effect.gen(function*() {
      const { token } = yield* setup()
      const parts = parseBearer(token)!
      if (secret === parts.secret) return
      const error = yield* Effect.flip(authenticateToken(`${parts.id}|${secret}`))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())), { arbitrary: { runs: 30 } })

  it.effect("an unknown id is Unauthenticated", () =>
    Effect.gen(function*() {
      const { token } = yield* setup()
      const { secret } = parseBearer(token)!
      const error = yield* Effect.flip(authenticateToken(`999|${secret}`))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect.prop("a malformed bearer is Unauthenticated", [Schema.String], ([bearer]) =>
    Effect.gen(function*() {
      yield* setup()
      if (parseBearer(bearer) !== undefined) return
      const error = yield* Effect.flip(authenticateToken(bearer))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())), { arbitrary: { runs: 30 } })

  it.effect.each([
    (token: string) => `Bearer ${token}`,
    (token: string) => token.toLowerCase(),
    (token: string) => `${token} `,
    (token: string) => token.replace("|", ":"),
    (token: string) => token.split("|")[1]!,
    (token: string) => "0" + token
  ])("a malformed variant of a valid token is Unauthenticated (%#)", (variant) =>
    Effect.gen(function*() {
      const { token } = yield* setup()
      if (variant(token) === token) return
      const error = yield* Effect.flip(authenticateToken(variant(token)))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a revoked token is Unauthenticated", () =>
    Effect.gen(function*() {
      const { token, account_id, user_id } = yield* setup()
      yield* (yield* TokenRepository).revoke(account_id, user_id, parseBearer(token)!.id)
      const error = yield* Effect.flip(authenticateToken(token))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a suspended membership is Unauthenticated", () =>
    Effect.gen(function*() {
      const { token, account_id, user_id } = yield* setup()
      yield* setMembershipStatus(account_id, user_id, "suspended")
      const error = yield* Effect.flip(authenticateToken(token))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an absent membership is Unauthenticated", () =>
    Effect.gen(function*() {
      const { token, account_id, user_id } = yield* setup()
      yield* removeMembership(account_id, user_id)
      const error = yield* Effect.flip(authenticateToken(token))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect.prop(
    "a token's abilities are respected by authorize",
    [Schema.Array(Permission).check(Schema.isMinLength(1)), Permission],
    ([abilities, permission]) =>
      Effect.gen(function*() {
        const { account_id, user_id } = yield* setup()
        const { plainText } = yield* createTokenForMember({ accountId: account_id, userId: user_id, abilities })
        const principal = yield* authenticateToken(plainText)
        assert.deepStrictEqual(principal.abilities, [...new Set(abilities)])
        const result = yield* Effect.exit(authorize(principal, permission))
        assert.strictEqual(result._tag === "Success", abilities.includes(permission), permission)
      }).pipe(Effect.provide(TestPorts())),
    { arbitrary: { runs: 40 } }
  )

  it.effect("`*` grants exactly what the user holds", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const member = yield* addMember(account_id, "viewer@example.com", ["webhook-index", "deal-show"])
      const { plainText } = yield* createTokenForMember({ accountId: account_id, userId: member.id, abilities: ["*"] })
      const principal = yield* authenticateToken(plainText)
      assert.sameMembers([...principal.permissions], ["webhook-index", "deal-show"])
      for (const permission of PERMISSIONS) {
        const result = yield* Effect.exit(authorize(principal, permission))
        assert.strictEqual(result._tag === "Success", permission === "webhook-index" || permission === "deal-show")
      }
    }).pipe(Effect.provide(TestPorts())))

  it.effect("permissions are the union of the user's teams in that account only", () =>
    Effect.gen(function*() {
      const first = yield* setup()
      const second = yield* setup({ ...OWNER, account: "Other", email: "owner@other.example" })
      // jane joins the second account through two teams.
      const jane = first.user_id
      yield* (yield* UserRepository).addMembership(second.account_id, jane)
      const teams = yield* TeamRepository
      yield* teams.create(
        { accountId: second.account_id, name: "Sales", description: null, madeBy: null, permissions: ["deal-index"] },
        [jane]
      )
      yield* teams.create(
        {
          accountId: second.account_id,
          name: "Support",
          description: null,
          madeBy: null,
          permissions: ["ticket-index", "deal-index"]
        },
        [jane]
      )
      const { plainText } = yield* createTokenForMember({ accountId: second.account_id, userId: jane, abilities: ["*"] })
      const principal = yield* authenticateToken(plainText)
      assert.sameMembers([...principal.permissions], ["deal-index", "ticket-index"])
      const original = yield* authenticateToken(first.token)
      assert.sameMembers([...original.permissions], [...PERMISSIONS])
    }).pipe(Effect.provide(TestPorts())))
  it.effect("permissions follow the grants answered, when an adapter that keeps them answers the same list again", () =>
    Effect.gen(function*() {
      const { token } = yield* setup()
      const teams = yield* TeamRepository
      // A keeping adapter: the same array while the grants are unchanged, a new one once they change.
      const kept: Array<ReadonlyArray<Permission>> = [["deal-index"]]
      const keeping = TeamRepository.of({ ...teams, grantsOf: () => Effect.succeed(Option.some(kept[0]!)) })
      const permissions = authenticateToken(token).pipe(
        Effect.map((principal) => [...principal.permissions]),
        Effect.provideService(TeamRepository, keeping)
      )
      assert.deepStrictEqual(yield* permissions, ["deal-index"])
      assert.deepStrictEqual(yield* permissions, ["deal-index"])
      kept[0] = ["deal-index", "deal-show"]
      assert.sameMembers(yield* permissions, ["deal-index", "deal-show"])
    }).pipe(Effect.provide(TestPorts())))
})

describe("authenticateSession", () => {
  it.effect("a fresh session gives a session principal, until SESSION_LIFETIME has passed", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      const { cookie } = yield* loginSession(OWNER.email, OWNER.password)
      assert.match(cookie, ALPHANUMERIC_40)
      const principal = yield* authenticateSession(cookie)
      assert.strictEqual(principal.kind, "session")
      assert.strictEqual(principal.accountId, account_id)
      assert.strictEqual(principal.userId, user_id)
      assert.isNull(principal.abilities)
      assert.isNull(principal.tokenId)
      assert.strictEqual(principal.sessionId, yield* (yield* TokenHasher).hash(cookie))
      assert.sameMembers([...principal.permissions], [...PERMISSIONS])

      yield* TestClock.adjust(Duration.subtract(SESSION_LIFETIME, Duration.millis(1)))
      yield* authenticateSession(cookie)
      yield* TestClock.adjust(Duration.millis(1))
      const error = yield* Effect.flip(authenticateSession(cookie))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("SESSION_LIFETIME is 14 days", () =>
    Effect.sync(() => assert.strictEqual(Duration.toMillis(SESSION_LIFETIME), 14 * 86_400_000)))

  it.effect("an unknown cookie is Unauthenticated", () =>
    Effect.gen(function*() {
      yield* setup()
      yield* login(OWNER.email, OWNER.password)
      const error = yield* Effect.flip(authenticateSession("x".repeat(40)))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("the session hash is not a cookie: presenting the stored hash fails", () =>
    Effect.gen(function*() {
      yield* setup()
      const { cookie } = yield* loginSession(OWNER.email, OWNER.password)
      const principal = yield* authenticateSession(cookie)
      const error = yield* Effect.flip(authenticateSession(principal.sessionId!))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("after logout the cookie is Unauthenticated", () =>
    Effect.gen(function*() {
      yield* setup()
      const { cookie } = yield* loginSession(OWNER.email, OWNER.password)
      const principal = yield* authenticateSession(cookie)
      yield* logout(principal.sessionId!)
      const error = yield* Effect.flip(authenticateSession(cookie))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a membership suspended after login is Unauthenticated", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      const { cookie } = yield* loginSession(OWNER.email, OWNER.password)
      yield* setMembershipStatus(account_id, user_id, "suspended")
      const error = yield* Effect.flip(authenticateSession(cookie))
      assert.strictEqual(error._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))
})
