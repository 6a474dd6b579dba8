/** The contract suite of the account, user, team, notification, token and session stores (documented on `repositoriesContract`). */
import { assert, layer } from "@effect/vitest"
import {
  AccountRepository,
  CurrentUserReader,
  type CurrentUserParts,
  type NotificationName,
  TeamRepository,
  UserRepository
} from "@wasl/core/Accounts"
import { PERMISSIONS, SessionRepository, TokenRepository } from "@wasl/core/Auth"
import { Transactor } from "@wasl/core/Deployment"
import { ValidationFailed } from "@wasl/core/Errors"
import { NotificationRepository } from "@wasl/core/Notifications"
import { SavedViewRepository } from "@wasl/core/Records"
import { makeRecordId } from "@wasl/core/Wire"
import { Cause, Context, DateTime, Duration, Effect, Exit, Fiber, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { EMAIL_TAKEN, InsufficientOtpCredits } from "../repository-semantics.ts"

/** What `NotificationSeed` offers: one write per table the `NotificationRepository` port only reads. */
export interface NotificationSeedShape {
  /** Stores a member's preference for one kind of notification. */
  readonly preference: (row: {
    readonly accountId: number
    readonly userId: number
    readonly name: NotificationName
    readonly stored: boolean
    readonly popup: boolean
    readonly browser: boolean
    readonly email: boolean
  }) => Effect.Effect<void>
  /** Stores a notification of a member (stored, with empty data), read or unread. */
  readonly notification: (row: {
    readonly accountId: number
    readonly userId: number
    readonly type: string
    readonly read: boolean
  }) => Effect.Effect<void>
}

const NotificationSeedBase: Context.ServiceClass<NotificationSeed, "@wasl/adapters/test/NotificationSeed", NotificationSeedShape> =
  Context.Service<NotificationSeed, NotificationSeedShape>()("@wasl/adapters/test/NotificationSeed")

/**
 * Test-only writes for the tables the `NotificationRepository` port only reads: the layer under
 * `repositoriesContract` provides it, implemented over the same store as the ports.
 */
export class NotificationSeed extends NotificationSeedBase {}

/** What the layer under `repositoriesContract` provides: the ports under test and `NotificationSeed`. */
export type ContractServices =
  | AccountRepository
  | UserRepository
  | TeamRepository
  | NotificationRepository
  | CurrentUserReader
  | TokenRepository
  | SessionRepository
  | Transactor
  | SavedViewRepository
  | NotificationSeed

let sequence = 0
/** A fresh address per call, unique across runs sharing a database. */
const uniqueEmail = (prefix = "user") =>
  `${prefix}.${Date.now().toString(36)}.${(sequence++).toString(36)}.${Math.random().toString(36).slice(2, 8)}@example.com`

const SQL_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

class Boom extends Error {}

const newAccount = (name = "Acme", otpCredits = 0) =>
  Effect.flatMap(AccountRepository, (accounts) =>
    accounts.create({ name, plan: "business", webhookLimit: null, otpCredits }))

const newUser = (email = uniqueEmail()) =>
  Effect.flatMap(UserRepository, (users) =>
    users.create({ email, passwordHash: "scrypt$hash", firstname: "Ada", lastname: "Lovelace" }).pipe(Effect.orDie))

/** An account with one member. */
const newMember = Effect.gen(function*() {
  const account = yield* newAccount()
  const user = yield* newUser()
  yield* (yield* UserRepository).addMembership(account.id, user.id)
  return { account, user }
})

/** Let the clock move so consecutive writes get distinct timestamps. */
const tick = Effect.sleep(Duration.millis(3))

/**
 * The repository contract: the same tests over every implementation of the foundation's ports
 * (memory, PGlite, PostgreSQL, or yours):
 *
 * - accounts: created with their subscription, timestamps from the Clock, counted; OTP credits
 *   added atomically under concurrency and never taken below zero (a defect, balance unchanged);
 *   plan and webhook limit set;
 * - users: found by id and by e-mail without regard to case, a taken e-mail refused with
 *   `ValidationFailed` on `email`, their profile and password hash set; memberships added idempotently with their defaults and listed
 *   most recently used first;
 * - teams with their permissions and members; API tokens and sessions, scoped by account and user
 *   (a user's other sessions removed in every account at once);
 *   notification preferences and unread counts; another account's tokens and teams invisible;
 * - the current user's parts in one read, equal to what each part's own read gives, nothing of
 *   another account or user among them, none without the user, the account or the membership;
 * - transactions: a failure or a defect leaves none of the writes, a success commits, a typed
 *   failure passes through, and a rollback does not undo concurrent work outside it.
 *
 * The layer also provides `NotificationSeed`, a test-only way to write the rows the
 * `NotificationRepository` port only reads: implement it over your store.
 *
 * The layer is built once and shared by the tests, so every test makes its own accounts and users
 * (unique e-mails) and never assumes an empty database.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides the ports of `ContractServices`.
 */
export const repositoriesContract = <E>(name: string, implementation: Layer.Layer<ContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    // -------------------------------------------------------------------------
    // accounts
    // -------------------------------------------------------------------------

    it.effect("creates an account with its subscription and finds both", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const before = yield* DateTime.now
        const account = yield* accounts.create({ name: "Acme", plan: "custom", webhookLimit: 3, otpCredits: 7 })
        assert.isAbove(account.id, 0)
        assert.strictEqual(account.name, "Acme")
        assert.strictEqual(account.plan, "custom")
        assert.strictEqual(account.webhook_limit, 3)
        assert.strictEqual(account.otp_credits, 7)
        for (const key of ["industry", "logo", "address", "timeZone", "calendar", "hour12", "locale", "currency"] as const) {
          assert.isNull(account[key], key)
        }
        assert.isTrue(DateTime.isDateTime(account.created_at))
        assert.isTrue(DateTime.isGreaterThanOrEqualTo(account.created_at, DateTime.subtract(before, { seconds: 1 })))
        assert.isTrue(DateTime.Equivalence(account.created_at, account.updated_at))

        const found = yield* accounts.findById(account.id)
        assert.deepStrictEqual(found, Option.some(account))

        const subscription = yield* accounts.subscription(account.id)
        assert.match(subscription.id, /^[0-9a-f]{24}$/)
        assert.strictEqual(subscription.account_id, account.id)
        assert.strictEqual(subscription.name, "default")
        assert.strictEqual(subscription.status, "active")
        assert.strictEqual(subscription.provider, "wasl")
        assert.strictEqual(subscription.interval, 30)
        for (const key of ["trial_ends_at", "paused_at", "ends_at", "canceled_at", "will_change_at", "will_change_to"] as const) {
          assert.isNull(subscription[key], key)
        }
        assert.isTrue(DateTime.Equivalence(subscription.created_at, account.created_at))
      }))

    it.effect("an unknown account is none, and has no subscription", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        assert.isTrue(Option.isNone(yield* accounts.findById(987_654_321)))
        const error = yield* Effect.flip(accounts.subscription(987_654_321))
        assert.strictEqual(error._tag, "NotFound")
      }))

    it.effect("takes timestamps from the Clock", () =>
      Effect.gen(function*() {
        const at = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
        const account = yield* Effect.gen(function*() {
          yield* TestClock.setTime(DateTime.toEpochMillis(at))
          return yield* newAccount()
        }).pipe(Effect.provide(TestClock.layer()))
        assert.strictEqual(DateTime.formatIso(account.created_at), "2031-02-03T04:05:06.789Z")
        const found = Option.getOrThrow(yield* (yield* AccountRepository).findById(account.id))
        assert.strictEqual(DateTime.formatIso(found.updated_at), "2031-02-03T04:05:06.789Z")
      }))

    it.effect("counts accounts", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const before = yield* accounts.count
        yield* newAccount("one")
        yield* newAccount("two")
        assert.strictEqual(yield* accounts.count, before + 2)
      }))

    it.effect("adds OTP credits atomically under 50 concurrent additions", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const account = yield* newAccount("credits", 5)
        const results = yield* Effect.forEach(
          Array.from({ length: 50 }, (_, i) => i),
          () => accounts.addOtpCredits(account.id, 2),
          { concurrency: "unbounded" }
        )
        const balances = results.map((a) => a.otp_credits).sort((a, b) => a - b)
        // Every addition saw a distinct balance: none was lost.
        assert.deepStrictEqual(balances, Array.from({ length: 50 }, (_, i) => 5 + 2 * (i + 1)))
        const found = Option.getOrThrow(yield* accounts.findById(account.id))
        assert.strictEqual(found.otp_credits, 105)
      }))

    it.effect("removes credits down to zero but never below (a defect, balance unchanged)", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const account = yield* newAccount("spender", 3)
        assert.strictEqual((yield* accounts.addOtpCredits(account.id, -2)).otp_credits, 1)
        const exit = yield* Effect.exit(accounts.addOtpCredits(account.id, -2))
        assert.isTrue(Exit.isFailure(exit))
        if (Exit.isFailure(exit)) {
          const defect = Cause.squash(exit.cause)
          assert.instanceOf(defect, InsufficientOtpCredits)
        }
        assert.strictEqual(Option.getOrThrow(yield* accounts.findById(account.id)).otp_credits, 1)
        assert.strictEqual((yield* accounts.addOtpCredits(account.id, -1)).otp_credits, 0)
        const notFound = yield* Effect.flip(accounts.addOtpCredits(987_654_321, 1))
        assert.strictEqual(notFound._tag, "NotFound")
      }))

    it.effect("sets the plan and webhook limit", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const account = yield* newAccount("planner")
        yield* tick
        const updated = yield* accounts.setPlan(account.id, "custom", 12)
        assert.strictEqual(updated.plan, "custom")
        assert.strictEqual(updated.webhook_limit, 12)
        assert.isTrue(DateTime.isGreaterThan(updated.updated_at, account.updated_at))
        assert.deepStrictEqual(yield* accounts.findById(account.id), Option.some(updated))
        const back = yield* accounts.setPlan(account.id, "free", null)
        assert.strictEqual(back.plan, "free")
        assert.isNull(back.webhook_limit)
        const error = yield* Effect.flip(accounts.setPlan(987_654_321, "free", null))
        assert.strictEqual(error._tag, "NotFound")
      }))

    // -------------------------------------------------------------------------
    // users and memberships
    // -------------------------------------------------------------------------

    it.effect("creates a user and finds it by id and, case-insensitively, by e-mail", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const email = uniqueEmail("Mixed.Case")
        const user = yield* users.create({ email, passwordHash: "scrypt$x", firstname: "Grace", lastname: "Hopper" })
        assert.isAbove(user.id, 0)
        assert.strictEqual(user.email, email)
        assert.strictEqual(user.firstname, "Grace")
        assert.strictEqual(user.lastname, "Hopper")
        assert.strictEqual(user.locale, "en")
        assert.isNull(user.email_verified_at)
        assert.isNull(user.image)
        assert.isNull(user.contacts_view_id)
        assert.isNull(user.deals_view_id)
        assert.isNull(user.tickets_view_id)
        assert.isNull(user.two_factor_confirmed_at)
        assert.deepStrictEqual(yield* users.findById(user.id), Option.some(user))
        assert.deepStrictEqual(yield* users.findPasswordHash(user.id), Option.some("scrypt$x"))
        assert.isTrue(Option.isNone(yield* users.findPasswordHash(987_654_321)))

        const found = Option.getOrThrow(yield* users.findByEmail(email.toUpperCase()))
        assert.deepStrictEqual(found.user, user)
        assert.strictEqual(found.passwordHash, "scrypt$x")
        assert.isTrue(Option.isNone(yield* users.findByEmail(uniqueEmail("nobody"))))
        assert.isTrue(Option.isNone(yield* users.findById(987_654_321)))
      }))

    it.effect("sets a user's profile and password hash, moving updated_at", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const user = yield* newUser()
        yield* tick
        const profile = { firstname: "Ada", lastname: "King", locale: "fr-CA", image: "https://example.com/ada.png" }
        const updated = Option.getOrThrow(yield* users.setProfile(user.id, profile))
        assert.deepStrictEqual({ ...updated, updated_at: null }, { ...user, ...profile, updated_at: null })
        assert.isTrue(DateTime.isGreaterThan(updated.updated_at, user.updated_at))
        assert.deepStrictEqual(yield* users.findById(user.id), Option.some(updated))
        const cleared = Option.getOrThrow(yield* users.setProfile(user.id, { ...profile, image: null }))
        assert.isNull(cleared.image)
        assert.isTrue(Option.isNone(yield* users.setProfile(987_654_321, profile)))
        yield* users.setPasswordHash(user.id, "scrypt$new")
        assert.deepStrictEqual(yield* users.findPasswordHash(user.id), Option.some("scrypt$new"))
        assert.strictEqual(Option.getOrThrow(yield* users.findByEmail(user.email)).passwordHash, "scrypt$new")
      }))

    it.effect("refuses a taken e-mail, whatever its case, with ValidationFailed on email", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const email = uniqueEmail("taken")
        yield* newUser(email)
        const error = yield* Effect.flip(
          users.create({ email: email.toUpperCase(), passwordHash: "h", firstname: "", lastname: "" })
        )
        assert.instanceOf(error, ValidationFailed)
        assert.deepStrictEqual(error.errors, { email: [EMAIL_TAKEN] })
      }))

    it.effect("adds memberships (idempotently) with the pivot defaults", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const account = yield* newAccount()
        const user = yield* newUser()
        assert.isTrue(Option.isNone(yield* users.findMembership(account.id, user.id)))
        const membership = yield* users.addMembership(account.id, user.id)
        assert.strictEqual(membership.account_id, account.id)
        assert.strictEqual(membership.user_id, user.id)
        assert.strictEqual(membership.status, "active")
        assert.isNull(membership.last_used)
        assert.strictEqual(membership.timeZone, "UTC")
        assert.isFalse(membership.hour12)
        assert.isNull(membership.calendar)
        assert.isNull(membership.locale)
        assert.isNull(membership.currency)
        assert.deepStrictEqual(yield* users.findMembership(account.id, user.id), Option.some(membership))
        assert.deepStrictEqual(yield* users.addMembership(account.id, user.id), membership)
        assert.deepStrictEqual(yield* users.listMemberships(user.id), [membership])
      }))

    it.effect("lists memberships most recently used first, never-used last by account id", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const user = yield* newUser()
        const [a, b, c] = [yield* newAccount("a"), yield* newAccount("b"), yield* newAccount("c")]
        for (const account of [c, a, b]) yield* users.addMembership(account.id, user.id)
        const ids = Effect.map(users.listMemberships(user.id), (list) => list.map((m) => m.account_id))

        assert.deepStrictEqual(yield* ids, [a.id, b.id, c.id])
        yield* users.touchMembership(b.id, user.id)
        yield* tick
        yield* users.touchMembership(c.id, user.id)
        assert.deepStrictEqual(yield* ids, [c.id, b.id, a.id])
        yield* tick
        yield* users.touchMembership(a.id, user.id)
        assert.deepStrictEqual(yield* ids, [a.id, c.id, b.id])

        const touched = Option.getOrThrow(yield* users.findMembership(a.id, user.id))
        assert.match(touched.last_used!, SQL_DATETIME)
        // Touching someone else's membership (or none) changes nothing.
        yield* users.touchMembership(a.id, 987_654_321)
      }))

    // -------------------------------------------------------------------------
    // teams
    // -------------------------------------------------------------------------

    it.effect("creates a team with permissions and members; lists a user's teams with its pivot", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const teams = yield* TeamRepository
        const { account, user: owner } = yield* newMember
        const other = yield* newUser()
        yield* users.addMembership(account.id, other.id)

        const admins = yield* teams.create({
          accountId: account.id,
          name: "Administrators",
          description: "Holds every permission.",
          madeBy: owner.id,
          permissions: PERMISSIONS
        }, [owner.id, other.id])
        assert.isAbove(admins.id, 0)
        assert.strictEqual(admins.account_id, account.id)
        assert.strictEqual(admins.name, "Administrators")
        assert.strictEqual(admins.description, "Holds every permission.")
        assert.strictEqual(admins.made_by, owner.id)
        assert.deepStrictEqual(admins.permissions, [...PERMISSIONS])
        assert.strictEqual(admins.pivot.user_id, owner.id)
        assert.strictEqual(admins.pivot.team_id, admins.id)

        const readers = yield* teams.create({
          accountId: account.id,
          name: "Readers",
          description: null,
          madeBy: null,
          permissions: ["contact-index", "deal-index"]
        }, [other.id])

        assert.deepStrictEqual(yield* teams.listForUser(account.id, owner.id), [admins])
        const otherTeams = yield* teams.listForUser(account.id, other.id)
        assert.deepStrictEqual(otherTeams.map((t) => t.id), [admins.id, readers.id])
        assert.strictEqual(otherTeams[0]!.pivot.user_id, other.id)
        assert.deepStrictEqual(otherTeams[1], readers)
        assert.isNull(readers.made_by)
        assert.isNull(readers.description)
        assert.deepStrictEqual(readers.permissions, ["contact-index", "deal-index"])

        // The grants: the union of the teams' permissions; a member in no team has none; a stranger is None.
        const otherGrants = Option.getOrThrow(yield* teams.grantsOf(account.id, other.id))
        assert.deepStrictEqual(new Set(otherGrants), new Set(PERMISSIONS))
        assert.strictEqual(otherGrants.length, PERMISSIONS.length)
        const loner = yield* newUser()
        yield* users.addMembership(account.id, loner.id)
        assert.deepStrictEqual(yield* teams.grantsOf(account.id, loner.id), Option.some([]))
        assert.isTrue(Option.isNone(yield* teams.grantsOf(account.id, (yield* newUser()).id)))
      }))

    // -------------------------------------------------------------------------
    // tokens
    // -------------------------------------------------------------------------

    it.effect("creates, finds, lists, touches and revokes tokens, scoped by account and user", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const tokens = yield* TokenRepository
        const { account, user } = yield* newMember
        const colleague = yield* newUser()
        yield* users.addMembership(account.id, colleague.id)

        const first = yield* tokens.create({
          accountId: account.id,
          userId: user.id,
          name: "ci",
          abilities: ["*"],
          secretHash: "a".repeat(64)
        })
        const second = yield* tokens.create({
          accountId: account.id,
          userId: user.id,
          name: "reader",
          abilities: ["contact-index", "deal-show"],
          secretHash: "b".repeat(64)
        })
        const theirs = yield* tokens.create({
          accountId: account.id,
          userId: colleague.id,
          name: "theirs",
          abilities: ["token-manage"],
          secretHash: "c".repeat(64)
        })
        assert.isAbove(second.id, first.id)
        assert.strictEqual(first.name, "ci")
        assert.deepStrictEqual(first.abilities, ["*"])
        assert.deepStrictEqual(second.abilities, ["contact-index", "deal-show"])
        assert.isNull(first.last_used_at)

        const stored = Option.getOrThrow(yield* tokens.findById(second.id))
        assert.deepStrictEqual(stored, {
          token: second,
          accountId: account.id,
          userId: user.id,
          secretHash: "b".repeat(64)
        })
        assert.isTrue(Option.isNone(yield* tokens.findById(987_654_321)))

        const all = { offset: 0, limit: 100 }
        assert.deepStrictEqual(yield* tokens.list(account.id, user.id, all), { items: [first, second], total: 2 })
        assert.deepStrictEqual(yield* tokens.list(account.id, colleague.id, all), { items: [theirs], total: 1 })

        yield* tokens.touch(first.id)
        const touched = Option.getOrThrow(yield* tokens.findById(first.id)).token
        assert.isNotNull(touched.last_used_at)

        // Another user's token, even in the same account, cannot be revoked.
        assert.isFalse(yield* tokens.revoke(account.id, colleague.id, first.id))
        assert.isTrue(Option.isSome(yield* tokens.findById(first.id)))
        assert.isTrue(yield* tokens.revoke(account.id, user.id, first.id))
        assert.isTrue(Option.isNone(yield* tokens.findById(first.id)))
        assert.isFalse(yield* tokens.revoke(account.id, user.id, first.id))
        assert.deepStrictEqual((yield* tokens.list(account.id, user.id, all)).items.map((t) => t.id), [second.id])
      }))

    it.effect("lists a user's tokens one page at a time, by id, with the total of all pages", () =>
      Effect.gen(function*() {
        const tokens = yield* TokenRepository
        const { account, user } = yield* newMember
        const made: Array<number> = []
        for (const name of ["one", "two", "three"]) {
          made.push((yield* tokens.create({ accountId: account.id, userId: user.id, name, abilities: ["*"], secretHash: "e".repeat(64) })).id)
        }
        const ids = (page: { offset: number; limit: number }) =>
          Effect.map(tokens.list(account.id, user.id, page), ({ items, total }) => ({ ids: items.map((t) => t.id), total }))
        assert.deepStrictEqual(yield* ids({ offset: 0, limit: 2 }), { ids: [made[0]!, made[1]!], total: 3 })
        assert.deepStrictEqual(yield* ids({ offset: 2, limit: 2 }), { ids: [made[2]!], total: 3 })
        assert.deepStrictEqual(yield* ids({ offset: 3, limit: 2 }), { ids: [], total: 3 })
      }))

    // -------------------------------------------------------------------------
    // tenant isolation
    // -------------------------------------------------------------------------

    it.effect("keeps another account's tokens and teams invisible", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const tokens = yield* TokenRepository
        const teams = yield* TeamRepository
        // One user, member of two accounts.
        const { account: mine, user } = yield* newMember
        const theirs = yield* newAccount("theirs")
        yield* users.addMembership(theirs.id, user.id)

        const token = yield* tokens.create({
          accountId: theirs.id,
          userId: user.id,
          name: "theirs",
          abilities: ["*"],
          secretHash: "d".repeat(64)
        })
        const team = yield* teams.create({
          accountId: theirs.id,
          name: "Theirs",
          description: null,
          madeBy: user.id,
          permissions: ["webhook-index"]
        }, [user.id])

        assert.deepStrictEqual(yield* tokens.list(mine.id, user.id, { offset: 0, limit: 15 }), { items: [], total: 0 })
        assert.deepStrictEqual(yield* teams.listForUser(mine.id, user.id), [])
        assert.isFalse(yield* tokens.revoke(mine.id, user.id, token.id))
        assert.deepStrictEqual(yield* tokens.list(theirs.id, user.id, { offset: 0, limit: 15 }), { items: [token], total: 1 })
        assert.deepStrictEqual((yield* teams.listForUser(theirs.id, user.id)).map((t) => t.id), [team.id])
      }))

    // -------------------------------------------------------------------------
    // sessions
    // -------------------------------------------------------------------------

    it.effect("creates, finds and removes sessions", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const { account, user } = yield* newMember
        const idHash = `${uniqueEmail("session").replace(/[^a-z0-9]/g, "")}`.padEnd(64, "0").slice(0, 64)
        const expiresAt = DateTime.makeUnsafe("2040-01-02T03:04:05.678Z")
        assert.isTrue(Option.isNone(yield* sessions.find(idHash)))
        yield* sessions.create({ idHash, accountId: account.id, userId: user.id, expiresAt })
        const found = Option.getOrThrow(yield* sessions.find(idHash))
        assert.strictEqual(found.idHash, idHash)
        assert.strictEqual(found.accountId, account.id)
        assert.strictEqual(found.userId, user.id)
        assert.strictEqual(DateTime.formatIso(found.expiresAt), "2040-01-02T03:04:05.678Z")
        yield* sessions.remove(idHash)
        assert.isTrue(Option.isNone(yield* sessions.find(idHash)))
        // Removing twice is fine.
        yield* sessions.remove(idHash)
      }))

    it.effect("removes a user's other sessions in every account, keeping one, or all", () =>
      Effect.gen(function*() {
        const sessions = yield* SessionRepository
        const { account, user } = yield* newMember
        const second = yield* newAccount("second")
        yield* (yield* UserRepository).addMembership(second.id, user.id)
        const colleague = yield* newUser()
        yield* (yield* UserRepository).addMembership(account.id, colleague.id)
        const expiresAt = DateTime.makeUnsafe("2040-01-02T03:04:05.678Z")
        const hashOf = (label: string) => uniqueEmail(label).replace(/[^a-z0-9]/g, "").padEnd(64, "0").slice(0, 64)
        const [kept, other, elsewhere, theirs] = [hashOf("kept"), hashOf("other"), hashOf("elsewhere"), hashOf("theirs")]
        yield* sessions.create({ idHash: kept, accountId: account.id, userId: user.id, expiresAt })
        yield* sessions.create({ idHash: other, accountId: account.id, userId: user.id, expiresAt })
        yield* sessions.create({ idHash: elsewhere, accountId: second.id, userId: user.id, expiresAt })
        yield* sessions.create({ idHash: theirs, accountId: account.id, userId: colleague.id, expiresAt })
        yield* sessions.removeOthersOfUser(user.id, kept)
        assert.isTrue(Option.isSome(yield* sessions.find(kept)))
        assert.isTrue(Option.isNone(yield* sessions.find(other)))
        assert.isTrue(Option.isNone(yield* sessions.find(elsewhere)))
        assert.isTrue(Option.isSome(yield* sessions.find(theirs)))
        yield* sessions.removeOthersOfUser(user.id, null)
        assert.isTrue(Option.isNone(yield* sessions.find(kept)))
        assert.isTrue(Option.isSome(yield* sessions.find(theirs)))
      }))

    // -------------------------------------------------------------------------
    // notifications
    // -------------------------------------------------------------------------

    it.effect("lists stored preferences and counts unread notifications of the user in the account", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const notifications = yield* NotificationRepository
        const seed = yield* NotificationSeed
        const { account, user } = yield* newMember
        const other = yield* newAccount("other")
        yield* users.addMembership(other.id, user.id)
        const colleague = yield* newUser()
        yield* users.addMembership(account.id, colleague.id)

        assert.deepStrictEqual(yield* notifications.listPreferences(account.id, user.id), [])
        assert.strictEqual(yield* notifications.unreadCount(account.id, user.id), 0)

        yield* seed.preference({
          accountId: account.id,
          userId: user.id,
          name: "IncomingMessage",
          stored: true,
          popup: false,
          browser: true,
          email: false
        })
        yield* seed.preference({
          accountId: account.id,
          userId: user.id,
          name: "WebhookDeactivated",
          stored: false,
          popup: false,
          browser: false,
          email: true
        })
        // Same user, other account; other user, same account.
        yield* seed.preference({
          accountId: other.id,
          userId: user.id,
          name: "ObjectsExport",
          stored: true,
          popup: true,
          browser: true,
          email: true
        })
        yield* seed.preference({
          accountId: account.id,
          userId: colleague.id,
          name: "ObjectsImport",
          stored: true,
          popup: true,
          browser: true,
          email: true
        })

        const preferences = yield* notifications.listPreferences(account.id, user.id)
        assert.deepStrictEqual(preferences.map((p) => [p.name, p.stored, p.popup, p.browser, p.email]), [
          ["IncomingMessage", true, false, true, false],
          ["WebhookDeactivated", false, false, false, true]
        ])
        for (const preference of preferences) {
          assert.strictEqual(preference.account_id, account.id)
          assert.strictEqual(preference.user_id, user.id)
          assert.isAbove(preference.id!, 0)
          assert.isTrue(DateTime.isDateTime(preference.created_at))
          assert.isTrue(DateTime.isDateTime(preference.updated_at))
        }

        for (const read of [false, false, true, false]) {
          yield* seed.notification({ accountId: account.id, userId: user.id, type: "WebhookDeactivated", read })
        }
        yield* seed.notification({ accountId: other.id, userId: user.id, type: "IncomingMessage", read: false })
        yield* seed.notification({ accountId: account.id, userId: colleague.id, type: "IncomingMessage", read: false })
        assert.strictEqual(yield* notifications.unreadCount(account.id, user.id), 3)
        assert.strictEqual(yield* notifications.unreadCount(other.id, user.id), 1)
        assert.strictEqual(yield* notifications.unreadCount(account.id, colleague.id), 1)
      }))

    it.effect("finds when a user was last mailed a notification about a subject, in the account only", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const notifications = yield* NotificationRepository
        const { account, user } = yield* newMember
        const other = yield* newAccount("other")
        yield* users.addMembership(other.id, user.id)
        const t0 = DateTime.makeUnsafe("2031-01-01T10:00:00.000Z")
        const channels = { stored: true, popup: true, browser: true, email: true }
        const mail = { subject: "New message", text: "Hello" }
        const notify = (accountId: number, data: Record<string, unknown>, email: typeof mail | null, now: DateTime.Utc) =>
          notifications.insert({ accountId, userId: user.id, type: "IncomingMessage", data, channels, email, now })
        const last = (accountId: number, contactId: string) =>
          notifications.lastMailedAbout(accountId, user.id, "IncomingMessage", "contact_id", contactId)

        assert.deepStrictEqual(yield* last(account.id, "c1"), Option.none())
        yield* notify(account.id, { contact_id: "c1" }, mail, t0)
        yield* notify(account.id, { contact_id: "c1" }, null, DateTime.add(t0, { minutes: 5 }))
        yield* notify(account.id, { contact_id: "c2" }, mail, DateTime.add(t0, { minutes: 9 }))
        yield* notify(other.id, { contact_id: "c1" }, mail, DateTime.add(t0, { minutes: 20 }))
        assert.deepStrictEqual(yield* last(account.id, "c1"), Option.some(t0))
        assert.deepStrictEqual(yield* last(account.id, "c2"), Option.some(DateTime.add(t0, { minutes: 9 })))
        assert.deepStrictEqual(yield* last(other.id, "c1"), Option.some(DateTime.add(t0, { minutes: 20 })))
        assert.deepStrictEqual(
          yield* notifications.lastMailedAbout(account.id, user.id, "WebhookDeactivated", "contact_id", "c1"),
          Option.none()
        )
      }))

    // -------------------------------------------------------------------------
    // the current user
    // -------------------------------------------------------------------------

    it.effect("reads the current user's parts in one read, as each part's own read gives it", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const accounts = yield* AccountRepository
        const teams = yield* TeamRepository
        const notifications = yield* NotificationRepository
        const reader = yield* CurrentUserReader
        const seed = yield* NotificationSeed
        // The user in two accounts, beside a colleague in the first: each holds rows of every part.
        const { account, user } = yield* newMember
        const theirs = yield* newAccount("theirs")
        yield* users.addMembership(theirs.id, user.id)
        const colleague = yield* newUser()
        yield* users.addMembership(account.id, colleague.id)
        yield* users.touchMembership(account.id, user.id)
        const team = (accountId: number, name: string, members: ReadonlyArray<number>) =>
          teams.create({ accountId, name, description: null, madeBy: null, permissions: ["deal-index"] }, members)
        const readers = yield* team(account.id, "Readers", [user.id, colleague.id])
        const admins = yield* teams.create({
          accountId: account.id,
          name: "Administrators",
          description: "Holds every permission.",
          madeBy: user.id,
          permissions: PERMISSIONS
        }, [user.id])
        const theirTeam = yield* team(theirs.id, "Theirs", [user.id])
        yield* team(account.id, "Colleagues", [colleague.id])
        const preference = (accountId: number, userId: number, name: NotificationName) =>
          seed.preference({ accountId, userId, name, stored: true, popup: false, browser: true, email: false })
        yield* preference(account.id, user.id, "WebhookDeactivated")
        yield* preference(account.id, user.id, "IncomingMessage")
        yield* preference(theirs.id, user.id, "ObjectsExport")
        yield* preference(account.id, colleague.id, "ObjectsImport")
        for (const [accountId, userId, read] of [
          [account.id, user.id, false],
          [account.id, user.id, true],
          [account.id, user.id, false],
          [theirs.id, user.id, false],
          [account.id, colleague.id, false]
        ] as const) {
          yield* seed.notification({ accountId, userId, type: "IncomingMessage", read })
        }
        // A chosen view of the colleague's, shared, in the first account only.
        const views = yield* SavedViewRepository
        const now = yield* DateTime.now
        const view = {
          _id: makeRecordId(1_900_000_000, new Uint8Array(8).fill(user.id % 256)), kind: "ticket" as const, account_id: account.id,
          user_id: colleague.id, name: "Queue", search: null, order: null, direction: null, complex_filters: [], columns: [],
          shared: true, created_at: now, updated_at: now
        }
        yield* views.save(view)
        yield* views.choose(account.id, user.id, "ticket", view._id)

        const partsOf = (accountId: number, userId: number) =>
          Effect.gen(function*() {
            return {
              user: Option.getOrThrow(yield* users.findById(userId)),
              account: Option.getOrThrow(yield* accounts.findById(accountId)),
              membership: Option.getOrThrow(yield* users.findMembership(accountId, userId)),
              teams: yield* teams.listForUser(accountId, userId),
              preferences: yield* notifications.listPreferences(accountId, userId),
              unreadCount: yield* notifications.unreadCount(accountId, userId),
              subscription: Option.some(yield* Effect.orDie(accounts.subscription(accountId))),
              views: yield* views.chosen(accountId, userId)
            }
          })

        // The message allowance's part is the ledger's (messageAllowanceLedgerContract and the
        // reader's own tests): here nothing was counted and no custom limit set.
        const withoutAllowance = ({ messageAllowance, ...parts }: CurrentUserParts) => {
          assert.strictEqual(messageAllowance.used, 0)
          assert.isNull(messageAllowance.customLimit)
          return parts
        }
        const mine = Option.getOrThrow(yield* reader.read(account.id, user.id))
        assert.deepStrictEqual(withoutAllowance(mine), yield* partsOf(account.id, user.id))
        assert.match(mine.membership.last_used!, SQL_DATETIME)
        assert.deepStrictEqual(mine.teams.map((t) => [t.id, t.pivot.user_id]), [[readers.id, user.id], [admins.id, user.id]])
        assert.deepStrictEqual(mine.teams[1]!.permissions, [...PERMISSIONS])
        assert.deepStrictEqual(mine.preferences.map((p) => p.name), ["WebhookDeactivated", "IncomingMessage"])
        assert.strictEqual(mine.unreadCount, 2)
        assert.deepStrictEqual(mine.views, { contact: null, deal: null, ticket: view._id })

        const inTheirs = Option.getOrThrow(yield* reader.read(theirs.id, user.id))
        assert.deepStrictEqual(withoutAllowance(inTheirs), yield* partsOf(theirs.id, user.id))
        assert.deepStrictEqual(inTheirs.teams.map((t) => t.id), [theirTeam.id])
        assert.deepStrictEqual(inTheirs.preferences.map((p) => p.name), ["ObjectsExport"])
        assert.strictEqual(inTheirs.unreadCount, 1)
        assert.strictEqual(inTheirs.account.id, theirs.id)
        assert.strictEqual(Option.getOrThrow(inTheirs.subscription).account_id, theirs.id)

        // A member of nothing but the account: empty lists, no unread notifications.
        const newcomer = yield* newUser()
        yield* users.addMembership(account.id, newcomer.id)
        const fresh = Option.getOrThrow(yield* reader.read(account.id, newcomer.id))
        assert.deepStrictEqual(withoutAllowance(fresh), yield* partsOf(account.id, newcomer.id))
        assert.deepStrictEqual([fresh.teams, fresh.preferences, fresh.unreadCount], [[], [], 0])
        assert.isNull(fresh.membership.last_used)
      }))

    it.effect("the current user's parts are none without the user, the account or the membership", () =>
      Effect.gen(function*() {
        const reader = yield* CurrentUserReader
        const { account, user } = yield* newMember
        const other = yield* newMember
        const stranger = yield* newUser()
        const unknownId = 2_000_000_000
        assert.isTrue(Option.isNone(yield* reader.read(account.id, stranger.id)))
        assert.isTrue(Option.isNone(yield* reader.read(other.account.id, user.id)))
        assert.isTrue(Option.isNone(yield* reader.read(account.id, unknownId)))
        assert.isTrue(Option.isNone(yield* reader.read(unknownId, user.id)))
        assert.isTrue(Option.isSome(yield* reader.read(account.id, user.id)))
      }))

    // -------------------------------------------------------------------------
    // transactions
    // -------------------------------------------------------------------------

    it.effect("a failing transaction leaves nothing behind", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const users = yield* UserRepository
        const transactor = yield* Transactor
        const before = yield* accounts.count
        const email = uniqueEmail("rolled-back")
        let createdId = 0

        const error = yield* Effect.flip(transactor.transaction(Effect.gen(function*() {
          const account = yield* newAccount("doomed", 10)
          createdId = account.id
          const user = yield* newUser(email)
          yield* users.addMembership(account.id, user.id)
          yield* accounts.addOtpCredits(account.id, 5)
          return yield* Effect.fail(new Boom("use-case failed"))
        })))
        assert.instanceOf(error, Boom)
        assert.isAbove(createdId, 0)
        assert.strictEqual(yield* accounts.count, before)
        assert.isTrue(Option.isNone(yield* accounts.findById(createdId)))
        assert.isTrue(Option.isNone(yield* users.findByEmail(email)))
        // The e-mail is free again.
        yield* newUser(email)
      }))

    it.effect("a defect inside a transaction rolls it back too, and the defect is passed on", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const transactor = yield* Transactor
        const before = yield* accounts.count
        const exit = yield* Effect.exit(transactor.transaction(
          Effect.andThen(newAccount("doomed"), Effect.die(new Boom("defect")))
        ))
        assert.isTrue(Exit.isFailure(exit) && Cause.squash(exit.cause) instanceof Boom)
        assert.strictEqual(yield* accounts.count, before)
      }))

    it.effect("a successful transaction commits, and a typed failure of a repository passes through", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const users = yield* UserRepository
        const transactor = yield* Transactor
        const email = uniqueEmail("committed")
        const { account, user } = yield* transactor.transaction(Effect.gen(function*() {
          const account = yield* newAccount("kept")
          const user = yield* newUser(email)
          yield* users.addMembership(account.id, user.id)
          return { account, user }
        }))
        assert.isTrue(Option.isSome(yield* accounts.findById(account.id)))
        assert.isTrue(Option.isSome(yield* users.findMembership(account.id, user.id)))

        // The duplicate e-mail fails the transaction with the repository's own error.
        const before = yield* accounts.count
        const error = yield* Effect.flip(transactor.transaction(Effect.gen(function*() {
          yield* newAccount("duplicate owner")
          return yield* users.create({ email, passwordHash: "h", firstname: "", lastname: "" })
        })))
        assert.instanceOf(error, ValidationFailed)
        assert.strictEqual(yield* accounts.count, before)
      }))

    it.effect("a rolled-back transaction does not undo concurrent work outside it", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const transactor = yield* Transactor
        const outside = yield* newAccount("outside", 0)
        let doomedId = 0
        const doomed = yield* Effect.forkChild(transactor.transaction(Effect.gen(function*() {
          doomedId = (yield* newAccount("doomed")).id
          yield* Effect.sleep(Duration.millis(30))
          return yield* Effect.fail(new Boom("late failure"))
        })))
        yield* Effect.sleep(Duration.millis(5))
        const credited = yield* accounts.addOtpCredits(outside.id, 4)
        const result = yield* Fiber.await(doomed)
        assert.isTrue(Exit.isFailure(result))
        assert.strictEqual(credited.otp_credits, 4)
        assert.strictEqual(Option.getOrThrow(yield* accounts.findById(outside.id)).otp_credits, 4)
        assert.isTrue(Option.isNone(yield* accounts.findById(doomedId)))
      }))
  })
