import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { createTokenForMember } from "../../src/Accounts.ts"
import {
  Ability,
  ApiToken,
  authenticateSession,
  authenticateToken,
  createToken,
  listTokens,
  parseBearer,
  PERMISSIONS,
  revokeToken,
  TOKEN_SECRET_LENGTH
} from "../../src/Auth.ts"
import { addMember, loginSession, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"

const WITHOUT_TOKEN_MANAGE = PERMISSIONS.filter((p) => p !== "token-manage")

describe("createToken", () => {
  it.effect.prop(
    "issues a token that authenticates with the abilities asked for, each once in the order first given",
    [Schema.Array(Ability)],
    ([asked]) =>
      Effect.gen(function*() {
        const abilities = asked.filter((ability, i) => asked.indexOf(ability) === i)
        const { principal } = yield* setup()
        const { token, plainText } = yield* createToken(principal, { name: "ci", abilities: asked })
        const parts = parseBearer(plainText)!
        assert.strictEqual(parts.id, token.id)
        assert.strictEqual(parts.secret.length, TOKEN_SECRET_LENGTH)
        assert.strictEqual(token.name, "ci")
        assert.deepStrictEqual(token.abilities, abilities)
        assert.isNull(token.last_used_at)
        Schema.encodeUnknownSync(ApiToken)(token)
        const again = yield* authenticateToken(plainText)
        assert.strictEqual(again.tokenId, token.id)
        assert.deepStrictEqual(again.abilities, abilities)
      }).pipe(Effect.provide(TestPorts())),
    { arbitrary: { runs: 20 } }
  )

  it.effect("needs token-manage among the token's abilities", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      const { plainText } = yield* createTokenForMember({
        accountId: account_id,
        userId: user_id,
        abilities: WITHOUT_TOKEN_MANAGE
      })
      const principal = yield* authenticateToken(plainText)
      const error = yield* Effect.flip(createToken(principal, { name: "x", abilities: ["*"] }))
      assert.strictEqual(error._tag, "Forbidden")
      assert.strictEqual((yield* Effect.flip(listTokens(principal, {})))._tag, "Forbidden")
      assert.strictEqual((yield* Effect.flip(revokeToken(principal, principal.tokenId!)))._tag, "Forbidden")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("needs token-manage among the user's permissions", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const member = yield* addMember(account_id, "member@example.com", WITHOUT_TOKEN_MANAGE)
      const { plainText } = yield* createTokenForMember({ accountId: account_id, userId: member.id, abilities: ["*"] })
      const principal = yield* authenticateToken(plainText)
      assert.strictEqual((yield* Effect.flip(createToken(principal, { name: "x", abilities: [] })))._tag, "Forbidden")
      assert.strictEqual((yield* Effect.flip(listTokens(principal, {})))._tag, "Forbidden")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a token grants no ability it does not carry: * only from *", () =>
    Effect.gen(function*() {
      const { account_id, user_id } = yield* setup()
      const { plainText } = yield* createTokenForMember({
        accountId: account_id,
        userId: user_id,
        abilities: ["token-manage", "deal-index"]
      })
      const principal = yield* authenticateToken(plainText)
      for (const abilities of [["*"], ["deal-delete"], ["deal-index", "webhook-index"]] as const) {
        const error = yield* Effect.flip(createToken(principal, { name: "x", abilities }))
        assert.strictEqual(error._tag, "Forbidden")
      }
      const within = yield* createToken(principal, { name: "narrower", abilities: ["deal-index"] })
      assert.deepStrictEqual(within.token.abilities, ["deal-index"])
      const same = yield* createToken(principal, { name: "same", abilities: ["token-manage", "deal-index"] })
      assert.deepStrictEqual(same.token.abilities, ["token-manage", "deal-index"])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("no caller grants a permission its user does not hold, even from * or a session", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const member = yield* addMember(account_id, "member@example.com", ["token-manage", "deal-index"], "member pw")
      const { plainText } = yield* createTokenForMember({ accountId: account_id, userId: member.id, abilities: ["*"] })
      const star = yield* authenticateToken(plainText)
      assert.strictEqual((yield* Effect.flip(createToken(star, { name: "x", abilities: ["webhook-index"] })))._tag, "Forbidden")
      assert.deepStrictEqual((yield* createToken(star, { name: "all", abilities: ["*"] })).token.abilities, ["*"])
      const session = yield* authenticateSession((yield* loginSession("member@example.com", "member pw")).cookie)
      assert.strictEqual((yield* Effect.flip(createToken(session, { name: "x", abilities: ["deal-delete"] })))._tag, "Forbidden")
      assert.deepStrictEqual((yield* createToken(session, { name: "all", abilities: ["*"] })).token.abilities, ["*"])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a session with token-manage may create tokens", () =>
    Effect.gen(function*() {
      yield* setup()
      const { cookie } = yield* loginSession(OWNER.email, OWNER.password)
      const session = yield* authenticateSession(cookie)
      const { plainText } = yield* createToken(session, { name: "from the browser", abilities: ["deal-index"] })
      const principal = yield* authenticateToken(plainText)
      assert.deepStrictEqual(principal.abilities, ["deal-index"])
    }).pipe(Effect.provide(TestPorts())))
})

describe("listTokens", () => {
  it.effect("lists the caller's tokens in the account, and no one else's", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const mine = yield* createToken(principal, { name: "mine", abilities: ["deal-index"] })
      const member = yield* addMember(account_id, "member@example.com", PERMISSIONS)
      const theirs = yield* createTokenForMember({ accountId: account_id, userId: member.id, abilities: ["*"] })
      const other = yield* setup({ ...OWNER, account: "Other", email: "owner@other.example" })

      const listed = (yield* listTokens(principal, {})).items
      assert.deepStrictEqual(listed.map((t) => t.name), ["owner", "mine"])
      assert.include(listed.map((t) => t.id), mine.token.id)
      assert.notInclude(listed.map((t) => t.id), theirs.token.id)
      assert.notInclude(listed.map((t) => t.id), parseBearer(other.token)!.id)
      for (const t of listed) Schema.encodeUnknownSync(ApiToken)(t)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("answers the page asked for, with the total, and refuses a bad page size", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      yield* createToken(principal, { name: "two", abilities: ["*"] })
      yield* createToken(principal, { name: "three", abilities: ["*"] })
      const page = yield* listTokens(principal, { page: "2", per_page: "2" })
      assert.deepStrictEqual(page.items.map((t) => t.name), ["three"])
      assert.deepStrictEqual({ total: page.total, page: page.page, perPage: page.perPage }, { total: 3, page: 2, perPage: 2 })
      const refused = yield* Effect.flip(listTokens(principal, { per_page: "101" }))
      assert.strictEqual(refused._tag, "ValidationFailed")
    }).pipe(Effect.provide(TestPorts())))
})

describe("revokeToken", () => {
  it.effect("revokes the caller's own token, which then stops working", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const { token, plainText } = yield* createToken(principal, { name: "temp", abilities: ["*"] })
      yield* revokeToken(principal, token.id)
      assert.strictEqual((yield* Effect.flip(authenticateToken(plainText)))._tag, "Unauthenticated")
      assert.notInclude((yield* listTokens(principal, {})).items.map((t) => t.id), token.id)
      // Revoking it again: not found.
      assert.strictEqual((yield* Effect.flip(revokeToken(principal, token.id)))._tag, "NotFound")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("another user's token, in this or another account, is NotFound and keeps working", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const member = yield* addMember(account_id, "member@example.com", PERMISSIONS)
      const theirs = yield* createTokenForMember({ accountId: account_id, userId: member.id, abilities: ["*"] })
      const other = yield* setup({ ...OWNER, account: "Other", email: "owner@other.example" })
      for (const [id, plainText] of [[theirs.token.id, theirs.plainText], [parseBearer(other.token)!.id, other.token]] as const) {
        const error = yield* Effect.flip(revokeToken(principal, id))
        assert.strictEqual(error._tag, "NotFound")
        yield* authenticateToken(plainText)
      }
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an unknown id is NotFound", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      assert.strictEqual((yield* Effect.flip(revokeToken(principal, 12345)))._tag, "NotFound")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a token may revoke itself", () =>
    Effect.gen(function*() {
      const { principal, token } = yield* setup()
      yield* revokeToken(principal, principal.tokenId!)
      assert.strictEqual((yield* Effect.flip(authenticateToken(token)))._tag, "Unauthenticated")
    }).pipe(Effect.provide(TestPorts())))
})
