/** A user's several accounts: listing, switching a session, opening one; and who made a record. */
import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import {
  createAccount,
  currentUser,
  listMyAccounts,
  switchAccount,
  TeamRepository,
  UserRepository
} from "../../src/Accounts.ts"
import { authenticateSession, authenticateToken, issueToken, PERMISSIONS } from "../../src/Auth.ts"
import { createRecord, createRecords, listRecords } from "../../src/Records.ts"
import { addMember, loginSession, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { setMembershipStatus } from "../support/store.ts"

/** A session of the owner, and how a later request of it authenticates. */
const ownerSessionWithCookie = Effect.gen(function*() {
  const { cookie } = yield* loginSession(OWNER.email, OWNER.password)
  return { principal: yield* authenticateSession(cookie), again: authenticateSession(cookie) }
})
const ownerSession = Effect.map(ownerSessionWithCookie, ({ principal }) => principal)

describe("several accounts", () => {
  it.effect("createAccount opens a free account as every account is, with the caller its first administrator", () =>
    Effect.gen(function*() {
      const { principal: token, user_id } = yield* setup()
      const session = yield* ownerSession
      const opened = yield* createAccount(session, "  Second shop ")
      assert.strictEqual(opened.name, "Second shop")
      assert.strictEqual(opened.plan, "free")
      assert.strictEqual(opened.otp_credits, 0)
      assert.deepInclude(opened.pivot, { user_id, account_id: opened.id, status: "active" })
      const teams = yield* (yield* TeamRepository).listForUser(opened.id, user_id)
      assert.deepStrictEqual(teams.map((team) => [team.name, team.made_by]), [["Administrators", user_id]])
      assert.deepStrictEqual([...teams[0]!.permissions].sort(), [...PERMISSIONS].sort())
      assert.include(teams[0]!.permissions, "account-manage")
      // The session stays where it was.
      assert.strictEqual((yield* currentUser(session)).account.id, session.accountId)

      const byToken = yield* Effect.flip(createAccount(token, "Third"))
      assert.strictEqual(byToken._tag, "Forbidden")
      const unnamed = yield* Effect.flip(createAccount(session, "   "))
      assert.deepStrictEqual(unnamed._tag === "ValidationFailed" ? unnamed.errors : {}, { name: ["The name field is required."] })
    }).pipe(Effect.provide(TestPorts())))

  it.effect("listMyAccounts lists the active memberships, most recently used first", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const session = yield* ownerSession
      const second = yield* createAccount(session, "Second")
      yield* TestClock.adjust(Duration.minutes(1))
      yield* switchAccount(session, second.id)
      const listed = yield* listMyAccounts(session)
      assert.deepStrictEqual(listed.map((a) => a.id), [second.id, account_id])
      assert.notProperty(listed[0]!, "webhook_limit")
      yield* setMembershipStatus(second.id, session.userId, "suspended")
      assert.deepStrictEqual((yield* listMyAccounts(session)).map((a) => a.id), [account_id])
    }).pipe(Effect.provide(TestPorts())))

  it.effect("switchAccount moves a session, and lists then show only the new account's records", () =>
    Effect.gen(function*() {
      const { principal: token, account_id } = yield* setup()
      yield* createRecord(token, "contact", { firstname: "In the first" })
      const { principal: session, again } = yield* ownerSessionWithCookie
      const second = yield* createAccount(session, "Second")

      const me = yield* switchAccount(session, second.id)
      assert.strictEqual(me.account.id, second.id)
      assert.strictEqual(me.account.plan, "free")
      const moved = yield* again
      assert.strictEqual(moved.accountId, second.id)
      assert.strictEqual((yield* listRecords(moved, "contact", {})).total, 0)
      yield* createRecord(moved, "contact", { firstname: "In the second" })
      const firstList = yield* listRecords(token, "contact", {})
      assert.deepStrictEqual(firstList.items.map((r) => r.properties["firstname"]), ["In the first"])

      // Back again.
      yield* switchAccount(moved, account_id)
      assert.strictEqual((yield* again).accountId, account_id)
    }).pipe(Effect.provide(TestPorts())))

  it.effect("a token cannot switch (403); an account the user is not an active member of is 404", () =>
    Effect.gen(function*() {
      const { principal: token } = yield* setup()
      const { principal: session, again } = yield* ownerSessionWithCookie
      const second = yield* createAccount(session, "Second")
      const byToken = yield* Effect.flip(switchAccount(token, second.id))
      assert.strictEqual(byToken._tag, "Forbidden")

      const stranger = yield* setup({ ...OWNER, account: "Other", email: "someone@else.test" })
      const notMine = yield* Effect.flip(switchAccount(session, stranger.account_id))
      assert.strictEqual(notMine._tag, "NotFound")
      const unknown = yield* Effect.flip(switchAccount(session, 999_999))
      assert.strictEqual(unknown._tag, "NotFound")
      yield* setMembershipStatus(second.id, session.userId, "suspended")
      const suspended = yield* Effect.flip(switchAccount(session, second.id))
      assert.strictEqual(suspended._tag, "NotFound")
      assert.strictEqual((yield* again).accountId, session.accountId)
    }).pipe(Effect.provide(TestPorts())))
})

describe("who did what", () => {
  it.effect("created_by is the acting user on records created one at a time or by batch", () =>
    Effect.gen(function*() {
      const { principal: token, account_id } = yield* setup()
      const member = yield* addMember(account_id, "agent@example.com", ["contact-create", "deal-create"])
      const { plainText } = yield* issueToken({ accountId: account_id, userId: member.id, name: "agent", abilities: ["*"] })
      const agent = yield* authenticateToken(plainText)
      const single = yield* createRecord(agent, "contact", { firstname: "One" })
      assert.strictEqual(single.properties["created_by"], member.id)
      const batch = yield* createRecords(token, "contact", { inputs: [{ properties: { firstname: "Two" } }] })
      assert.strictEqual(batch[0]!.properties["created_by"], token.userId)
      // Kinds without created_by are untouched.
      const deal = yield* createRecord(agent, "deal", { deal_name: "Big" })
      assert.notProperty(deal.properties, "created_by")
    }).pipe(Effect.provide(TestPorts())))

  it.effect("token use moves the member's last_used at most once a minute, off the request's path", () =>
    Effect.gen(function*() {
      const { token, account_id, user_id } = yield* setup()
      const users = yield* UserRepository
      const lastUsed = Effect.map(users.findMembership(account_id, user_id), (m) => Option.getOrThrow(m).last_used)
      // The forked update runs once the request's fiber yields.
      const settle = Effect.forEach(Array.from({ length: 10 }), () => Effect.yieldNow, { discard: true })
      assert.isNull(yield* lastUsed)
      yield* authenticateToken(token)
      yield* settle
      assert.strictEqual(yield* lastUsed, "2026-11-21 17:24:05")
      yield* TestClock.adjust(Duration.seconds(59))
      yield* authenticateToken(token)
      yield* settle
      assert.strictEqual(yield* lastUsed, "2026-11-21 17:24:05")
      yield* TestClock.adjust(Duration.seconds(2))
      yield* authenticateToken(token)
      yield* settle
      assert.strictEqual(yield* lastUsed, "2026-11-21 17:25:06")
    }).pipe(Effect.provide(TestPorts())))
})
