/** The contract suite of `MemberRepository`, the team administration of `TeamRepository` and `InvitationRepository`. */
import { assert, layer } from "@effect/vitest"
import {
  AccountRepository,
  InvitationRepository,
  MemberRepository,
  TeamRepository,
  UserRepository
} from "@wasl/core/Accounts"
import { TokenRepository } from "@wasl/core/Auth"
import { NotificationRepository } from "@wasl/core/Notifications"
import { DateTime, Duration, Effect, type Layer, Option } from "effect"

/** What the layer under `membersContract` provides. */
export type MembersContractServices =
  | MemberRepository
  | TeamRepository
  | InvitationRepository
  | UserRepository
  | AccountRepository
  | TokenRepository
  | NotificationRepository

let sequence = 0
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${(sequence++).toString(36)}.${Math.random().toString(36).slice(2, 8)}`
const hash = (label: string) => unique(label).replace(/[^a-z0-9]/g, "").padEnd(64, "0").slice(0, 64)

/** An account with `count` active members, in the order they joined. */
const accountWith = (count: number) =>
  Effect.gen(function*() {
    const account = yield* (yield* AccountRepository).create({ name: unique("acct"), plan: "business", webhookLimit: null, otpCredits: 0 })
    const users = yield* UserRepository
    const userIds: Array<number> = []
    for (let i = 0; i < count; i++) {
      const user = yield* Effect.orDie(users.create({
        email: `${unique("member")}@example.com`,
        passwordHash: "scrypt$x",
        firstname: `First${i}`,
        lastname: `Last${i}`
      }))
      yield* users.addMembership(account.id, user.id)
      userIds.push(user.id)
    }
    return { accountId: account.id, userIds }
  })

/**
 * The contract of the member and invitation ports and of `TeamRepository`'s administration over
 * every implementation (memory, PGlite, PostgreSQL, or yours):
 *
 * - members are listed by when they joined, a page at a time, with their user, status and teams;
 *   `find` is none for a user of another account;
 * - teams are added without members, changed, listed with their members' ids and removed; their
 *   members and a member's teams are replaced exactly; nothing crosses accounts;
 * - the roster shows every member's status and teams and every team's permissions;
 * - a suspended member holds no grants; a removed one loses its tokens and team places;
 * - a notice's recipients are the active members whose teams hold its permission, each once,
 *   by user id: not a suspended member, one without it, nor another account's;
 * - invitations are found by their token's hash, listed while pending, accepted or revoked once.
 *
 * Each test makes its own accounts, so the suite can share a database with others.
 *
 * @param name The name of the `describe` block.
 * @param implementation Provides the ports under test and `UserRepository`, `AccountRepository`
 *   and `TokenRepository` (to make accounts, members and tokens).
 */
export const membersContract = <E>(name: string, implementation: Layer.Layer<MembersContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("lists members by when they joined, with their teams; find is none across accounts", () =>
      Effect.gen(function*() {
        const members = yield* MemberRepository
        const teams = yield* TeamRepository
        const { accountId, userIds } = yield* accountWith(3)
        const other = yield* accountWith(1)
        const team = yield* teams.add({ accountId, name: "Sales", description: null, madeBy: userIds[0]!, permissions: ["deal-index"] })
        yield* members.setTeams(accountId, userIds[1]!, [team.id])
        const first = yield* members.list(accountId, { offset: 0, limit: 2 })
        assert.strictEqual(first.total, 3)
        assert.deepStrictEqual(first.items.map((member) => member.user.id), userIds.slice(0, 2))
        assert.deepStrictEqual(first.items[1]!.teams, [{ id: team.id, name: "Sales" }])
        assert.strictEqual(first.items[0]!.status, "active")
        assert.strictEqual(first.items[0]!.user.firstname, "First0")
        const rest = yield* members.list(accountId, { offset: 2, limit: 2 })
        assert.deepStrictEqual(rest.items.map((member) => member.user.id), [userIds[2]])
        assert.isTrue(Option.isNone(yield* members.find(accountId, other.userIds[0]!)))
        assert.isTrue(Option.isSome(yield* members.find(other.accountId, other.userIds[0]!)))
      }))

    it.effect("teams: added, changed, listed with their members, members replaced, removed; never across accounts", () =>
      Effect.gen(function*() {
        const teams = yield* TeamRepository
        const { accountId, userIds } = yield* accountWith(3)
        const other = yield* accountWith(1)
        const added = yield* teams.add({
          accountId,
          name: "Support",
          description: "Tickets",
          madeBy: userIds[0]!,
          permissions: ["ticket-index", "ticket-index", "ticket-update"]
        })
        assert.deepStrictEqual(added.permissions, ["ticket-index", "ticket-update"])
        assert.deepStrictEqual(added.user_ids, [])
        assert.strictEqual(added.made_by, userIds[0])
        yield* teams.setMembers(accountId, added.id, [userIds[2]!, userIds[0]!])
        assert.deepStrictEqual(Option.getOrThrow(yield* teams.find(accountId, added.id)).user_ids, [userIds[0], userIds[2]])
        yield* teams.setMembers(accountId, added.id, [userIds[1]!, userIds[2]!])
        assert.deepStrictEqual(Option.getOrThrow(yield* teams.find(accountId, added.id)).user_ids, [userIds[1], userIds[2]])
        const updated = Option.getOrThrow(
          yield* teams.update(accountId, added.id, { name: "Help", description: null, permissions: ["ticket-show"] })
        )
        assert.strictEqual(updated.name, "Help")
        assert.deepStrictEqual(updated.permissions, ["ticket-show"])
        assert.deepStrictEqual(
          yield* teams.grantsOf(accountId, userIds[1]!),
          Option.some(["ticket-show"])
        )
        assert.isTrue(Option.isNone(yield* teams.find(other.accountId, added.id)))
        assert.isTrue(Option.isNone(yield* teams.update(other.accountId, added.id, { name: "x", description: null, permissions: [] })))
        assert.isFalse(yield* teams.remove(other.accountId, added.id))
        const listed = yield* teams.list(accountId, { offset: 0, limit: 10 })
        assert.deepStrictEqual(listed.items.map((team) => team.id), [added.id])
        assert.strictEqual(listed.total, 1)
        assert.isTrue(yield* teams.remove(accountId, added.id))
        assert.isTrue(Option.isNone(yield* teams.find(accountId, added.id)))
        assert.deepStrictEqual(yield* teams.grantsOf(accountId, userIds[1]!), Option.some([]))
      }))

    it.effect("the roster; a member's teams replaced; a suspended member holds nothing; a removed one loses its tokens", () =>
      Effect.gen(function*() {
        const members = yield* MemberRepository
        const teams = yield* TeamRepository
        const tokens = yield* TokenRepository
        const { accountId, userIds } = yield* accountWith(2)
        const [a, b] = userIds as [number, number]
        const managers = yield* teams.add({ accountId, name: "Managers", description: null, madeBy: a, permissions: ["member-manage"] })
        const sales = yield* teams.add({ accountId, name: "Sales", description: null, madeBy: a, permissions: ["deal-index"] })
        yield* members.setTeams(accountId, a, [managers.id, sales.id])
        yield* members.setTeams(accountId, b, [sales.id])
        yield* members.setTeams(accountId, a, [managers.id])
        const roster = yield* members.roster(accountId)
        assert.deepStrictEqual(roster.members, [
          { userId: a, status: "active" as const, teamIds: [managers.id] },
          { userId: b, status: "active" as const, teamIds: [sales.id] }
        ].sort((x, y) => x.userId - y.userId))
        assert.deepStrictEqual(roster.teams, [
          { id: managers.id, permissions: ["member-manage"] },
          { id: sales.id, permissions: ["deal-index"] }
        ])
        yield* members.setStatus(accountId, b, "suspended")
        assert.strictEqual(Option.getOrThrow(yield* members.find(accountId, b)).status, "suspended")
        assert.isTrue(Option.isNone(yield* teams.grantsOf(accountId, b)))
        yield* members.setStatus(accountId, b, "active")
        assert.deepStrictEqual(yield* teams.grantsOf(accountId, b), Option.some(["deal-index"]))
        const token = yield* tokens.create({ accountId, userId: b, name: "t", abilities: ["*"], secretHash: hash("t") })
        assert.isTrue(yield* members.remove(accountId, b))
        assert.isFalse(yield* members.remove(accountId, b))
        assert.isTrue(Option.isNone(yield* tokens.findById(token.id)))
        assert.isTrue(Option.isNone(yield* members.find(accountId, b)))
        assert.deepStrictEqual(Option.getOrThrow(yield* teams.find(accountId, sales.id)).user_ids, [])
        assert.isTrue(Option.isNone(yield* teams.grantsOf(accountId, b)))
      }))

    it.effect("a notice's recipients: active members holding the permission through a team, each once; not suspended ones, nor others", () =>
      Effect.gen(function*() {
        const members = yield* MemberRepository
        const teams = yield* TeamRepository
        const { accountId, userIds } = yield* accountWith(4)
        const [holder, twice, suspended, without] = userIds as [number, number, number, number]
        const other = yield* accountWith(1)
        const hooks = yield* teams.add({ accountId, name: "Hooks", description: null, madeBy: null, permissions: ["webhook-update"] })
        const admins = yield* teams.add({ accountId, name: "Admins", description: null, madeBy: null, permissions: ["webhook-update", "deal-index"] })
        const deals = yield* teams.add({ accountId, name: "Deals", description: null, madeBy: null, permissions: ["deal-index"] })
        yield* members.setTeams(accountId, holder, [hooks.id])
        yield* members.setTeams(accountId, twice, [hooks.id, admins.id])
        yield* members.setTeams(accountId, suspended, [hooks.id])
        yield* members.setTeams(accountId, without, [deals.id])
        yield* members.setStatus(accountId, suspended, "suspended")
        const otherHooks = yield* teams.add({ accountId: other.accountId, name: "Hooks", description: null, madeBy: null, permissions: ["webhook-update"] })
        yield* members.setTeams(other.accountId, other.userIds[0]!, [otherHooks.id])

        const recipients = yield* NotificationRepository.use((n) => n.recipients(accountId, "webhook-update", "WebhookDeactivated"))
        assert.deepStrictEqual(recipients.map((r) => r.userId), [holder, twice].sort((a, b) => a - b))
        assert.deepStrictEqual(recipients[0]!.channels, { stored: true, popup: true, browser: true, email: true })
      }))

    it.effect("invitations: found by hash, listed while pending, accepted once, revoked once, expired left out", () =>
      Effect.gen(function*() {
        const invitations = yield* InvitationRepository
        const { accountId, userIds } = yield* accountWith(1)
        const other = yield* accountWith(1)
        const now = yield* DateTime.now
        const later = DateTime.add(now, { days: 7 })
        const tokenHash = hash("invite")
        const made = yield* invitations.create({
          accountId,
          email: "new@example.com",
          teamIds: [5, 6],
          invitedBy: userIds[0]!,
          tokenHash,
          expiresAt: later
        })
        assert.deepStrictEqual([made.email, made.team_ids, made.invited_by, made.status], ["new@example.com", [5, 6], userIds[0], "invited"])
        const secondHash = hash("second")
        const second = yield* invitations.create({
          accountId,
          email: "second@example.com",
          teamIds: [],
          invitedBy: userIds[0]!,
          tokenHash: secondHash,
          expiresAt: later
        })
        const found = Option.getOrThrow(yield* invitations.findByTokenHash(tokenHash))
        assert.strictEqual(found.state, "pending")
        assert.strictEqual(found.invitation.id, made.id)
        assert.isTrue(Option.isNone(yield* invitations.findByTokenHash(hash("unknown"))))
        const pending = yield* invitations.listPending(accountId, now, { offset: 0, limit: 10 })
        assert.deepStrictEqual(pending.items.map((invitation) => invitation.id), [second.id, made.id])
        assert.strictEqual((yield* invitations.listPending(accountId, DateTime.add(later, { seconds: 1 }), { offset: 0, limit: 10 })).total, 0)
        assert.strictEqual((yield* invitations.listPending(other.accountId, now, { offset: 0, limit: 10 })).total, 0)
        assert.isFalse(yield* invitations.accept(accountId, made.id, DateTime.add(later, { seconds: 1 })))
        assert.isFalse(yield* invitations.accept(other.accountId, made.id, now))
        const racing = yield* Effect.all([invitations.accept(accountId, made.id, now), invitations.accept(accountId, made.id, now)], {
          concurrency: 2
        })
        assert.deepStrictEqual([...racing].sort(), [false, true])
        assert.strictEqual(Option.getOrThrow(yield* invitations.findByTokenHash(tokenHash)).state, "accepted")
        assert.isFalse(yield* invitations.revoke(accountId, made.id, now))
        assert.isFalse(yield* invitations.revoke(other.accountId, second.id, now))
        assert.isTrue(yield* invitations.revoke(accountId, second.id, now))
        assert.isFalse(yield* invitations.revoke(accountId, second.id, now))
        assert.isFalse(yield* invitations.accept(accountId, second.id, now))
        assert.strictEqual(Option.getOrThrow(yield* invitations.findByTokenHash(secondHash)).state, "revoked")
        assert.strictEqual((yield* invitations.listPending(accountId, now, { offset: 0, limit: 10 })).total, 0)
      }))
  })
