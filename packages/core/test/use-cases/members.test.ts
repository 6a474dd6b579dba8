/** Members, teams and invitations on the memory adapters: every rule of who may grant and manage what. */
import { assert, describe, it } from "@effect/vitest"
import { MailerMemory, MemoryMailbox } from "@wasl/adapters/memory"
import { Effect, Layer, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import {
  acceptInvitation,
  confirmEmailVerification,
  createTeam,
  createTokenForMember,
  deleteTeam,
  inviteMember,
  LAST_MANAGER_MESSAGE,
  type MemberEntry,
  listInvitations,
  listMembers,
  listTeams,
  removeMember,
  revokeInvitation,
  setTeamMembers,
  showTeam,
  updateMember,
  updateTeam
} from "../../src/Accounts.ts"
import { authenticateSession, authenticateToken, type Permission } from "../../src/Auth.ts"
import { OBJECTS_EXPORT, requestExport, runNextExport } from "../../src/Exports.ts"
import { OBJECTS_IMPORT, processNextImport, startImport } from "../../src/Imports.ts"
import { listRecords } from "../../src/Records.ts"
import { pruneExpired } from "../../src/Retention.ts"
import { notifyWebhookDeactivated } from "../../src/Webhooks.ts"
import { addMember, loginSession, OWNER, setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { memoryState } from "../support/store.ts"

const Ports = () => Layer.mergeAll(TestPorts(), MailerMemory)

/** A member of the account holding exactly `permissions`, with a `*` token. */
const memberWith = (accountId: number, email: string, permissions: ReadonlyArray<Permission>) =>
  Effect.gen(function*() {
    const user = yield* addMember(accountId, email, permissions)
    const { plainText } = yield* createTokenForMember({ accountId, userId: user.id, abilities: ["*"] })
    return { user, token: plainText, principal: yield* authenticateToken(plainText) }
  })

/** The token in the last mail's accept link. */
const lastInvitationToken = Effect.gen(function*() {
  const mail = (yield* MemoryMailbox.use((mailbox) => mailbox.sent)).at(-1)!
  return /\/invitations\/([A-Za-z0-9]{40})/.exec(mail.text)![1]!
})

/** The address of an entry of the members list: its user's, or an invitee's. */
const emailOf = (entry: MemberEntry) => entry.user === null ? entry.email : entry.user.email

/** The token in the last invitation mailed to `to`. */
const tokenOfMailTo = (to: string) =>
  Effect.gen(function*() {
    const mail = (yield* MemoryMailbox.use((mailbox) => mailbox.sent)).filter((m) => m.to === to && m.text.includes("/invitations/")).at(-1)!
    return /\/invitations\/([A-Za-z0-9]{40})/.exec(mail.text)![1]!
  })

const errorOf = <E extends { readonly _tag: string }>(effect: Effect.Effect<unknown, E, any>) => Effect.flip(effect)

describe("members", () => {
  it.effect("lists the account's members with their status and teams; needs member-manage", () =>
    Effect.gen(function*() {
      const { account_id, principal, team_id, user_id } = yield* setup()
      const agent = yield* memberWith(account_id, "agent@example.com", ["deal-index"])
      const page = yield* listMembers(principal, {})
      assert.strictEqual(page.total, 2)
      assert.deepStrictEqual(page.items.map((member) => [member.user?.id, member.status]), [[user_id, "active"], [agent.user.id, "active"]])
      assert.deepStrictEqual(page.items[0]!.teams, [{ id: team_id, name: "Administrators" }])
      assert.strictEqual((yield* errorOf(listMembers(agent.principal, {})))._tag, "Forbidden")
    }).pipe(Effect.provide(Ports())))

  it.effect("a suspended member's tokens and sessions stop at once; reactivated, they work again", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const agent = yield* memberWith(account_id, "agent@example.com", ["deal-index"])
      const session = yield* loginSession("agent@example.com", "member password")
      const suspended = yield* updateMember(principal, agent.user.id, { status: "suspended" })
      assert.strictEqual(suspended.status, "suspended")
      assert.strictEqual((yield* errorOf(authenticateToken(agent.token)))._tag, "Unauthenticated")
      assert.strictEqual((yield* errorOf(authenticateSession(session.cookie)))._tag, "Unauthenticated")
      yield* updateMember(principal, agent.user.id, { status: "active" })
      assert.strictEqual((yield* authenticateToken(agent.token)).userId, agent.user.id)
      yield* removeMember(principal, agent.user.id)
      assert.strictEqual((yield* errorOf(authenticateToken(agent.token)))._tag, "Unauthenticated")
      assert.strictEqual((yield* errorOf(authenticateSession(session.cookie)))._tag, "Unauthenticated")
      assert.strictEqual((yield* errorOf(removeMember(principal, agent.user.id)))._tag, "NotFound")
    }).pipe(Effect.provide(Ports())))

  it.effect("the last member holding member-manage is not removed, suspended or moved out of it (422)", () =>
    Effect.gen(function*() {
      const { account_id, principal, team_id, user_id } = yield* setup()
      const expect422 = (key: string) => (error: { readonly _tag: string }) => {
        assert.strictEqual(error._tag, "ValidationFailed")
        assert.deepStrictEqual((error as any).errors, { [key]: [LAST_MANAGER_MESSAGE] })
      }
      expect422("status")(yield* errorOf(updateMember(principal, user_id, { status: "suspended" })))
      expect422("team_ids")(yield* errorOf(updateMember(principal, user_id, { team_ids: [] })))
      expect422("user_id")(yield* errorOf(removeMember(principal, user_id)))
      expect422("permissions")(yield* errorOf(updateTeam(principal, team_id, { name: "Administrators", permissions: ["deal-index"] })))
      expect422("team")(yield* errorOf(deleteTeam(principal, team_id)))
      expect422("user_ids")(yield* errorOf(setTeamMembers(principal, team_id, [])))
      // With a second manager, the first may go.
      const second = yield* memberWith(account_id, "second@example.com", ["member-manage"])
      yield* updateMember(principal, user_id, { status: "suspended" })
      expect422("user_id")(yield* errorOf(removeMember(second.principal, second.user.id)))
    }).pipe(Effect.provide(Ports())))

  it.effect("nobody grants a permission they do not hold: to a team, through a team, or by invitation (403 naming it)", () =>
    Effect.gen(function*() {
      const { account_id, team_id } = yield* setup()
      const lead = yield* memberWith(account_id, "lead@example.com", ["member-manage", "team-manage", "deal-index"])
      const agent = yield* memberWith(account_id, "agent@example.com", ["deal-index"])
      const refused = yield* errorOf(createTeam(lead.principal, { name: "Ops", permissions: ["deal-index", "webhook-delete"] }))
      assert.strictEqual(refused._tag, "Forbidden")
      assert.include(refused.message, "webhook-delete")
      const deals = yield* createTeam(lead.principal, { name: "Deals", permissions: ["deal-index"] })
      assert.strictEqual((yield* errorOf(updateTeam(lead.principal, deals.id, { name: "Deals", permissions: ["deal-delete"] })))._tag, "Forbidden")
      assert.strictEqual((yield* errorOf(updateMember(lead.principal, agent.user.id, { team_ids: [team_id] })))._tag, "Forbidden")
      assert.strictEqual((yield* errorOf(setTeamMembers(lead.principal, team_id, [lead.user.id])))._tag, "Forbidden")
      assert.strictEqual(
        (yield* errorOf(inviteMember(lead.principal, { email: "x@example.com", team_ids: [team_id] })))._tag,
        "Forbidden"
      )
      yield* updateMember(lead.principal, agent.user.id, { team_ids: [deals.id] })
      assert.deepStrictEqual((yield* setTeamMembers(lead.principal, deals.id, [agent.user.id, lead.user.id])).user_ids.length, 2)
    }).pipe(Effect.provide(Ports())))

  it.effect("a token's abilities stay within its user's current permissions: when those shrink, the request is refused", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const agent = yield* addMember(account_id, "agent@example.com", [])
      const team = yield* createTeam(principal, { name: "Deals", permissions: ["deal-index", "contact-index"] })
      yield* setTeamMembers(principal, team.id, [agent.id])
      const { plainText } = yield* createTokenForMember({ accountId: account_id, userId: agent.id, abilities: ["deal-index"] })
      const wildcard = (yield* createTokenForMember({ accountId: account_id, userId: agent.id, abilities: ["*"] })).plainText
      yield* listRecords(yield* authenticateToken(plainText), "deal", {})
      yield* updateTeam(principal, team.id, { name: "Deals", permissions: ["contact-index"] })
      assert.strictEqual((yield* errorOf(listRecords(yield* authenticateToken(plainText), "deal", {})))._tag, "Forbidden")
      assert.strictEqual((yield* errorOf(listRecords(yield* authenticateToken(wildcard), "deal", {})))._tag, "Forbidden")
      yield* listRecords(yield* authenticateToken(wildcard), "contact", {})
    }).pipe(Effect.provide(Ports())))

  it.effect("unknown teams and users are 422 under their index; another account's members and teams are 404", () =>
    Effect.gen(function*() {
      const a = yield* setup()
      const b = yield* setup({ ...OWNER, email: "owner.b@example.com", account: "B" })
      const invalid = yield* errorOf(updateMember(a.principal, a.user_id, { team_ids: [a.team_id, b.team_id] }))
      assert.deepStrictEqual((invalid as any).errors, { "team_ids.1": ["The selected team_ids.1 is invalid."] })
      const users = yield* errorOf(setTeamMembers(a.principal, a.team_id, [a.user_id, b.user_id]))
      assert.deepStrictEqual((users as any).errors, { "user_ids.1": ["The selected user_ids.1 is invalid."] })
      assert.strictEqual((yield* errorOf(updateMember(b.principal, a.user_id, { status: "suspended" })))._tag, "NotFound")
      assert.strictEqual((yield* errorOf(removeMember(b.principal, a.user_id)))._tag, "NotFound")
      assert.strictEqual((yield* errorOf(showTeam(b.principal, a.team_id)))._tag, "NotFound")
      assert.strictEqual((yield* errorOf(deleteTeam(b.principal, a.team_id)))._tag, "NotFound")
      assert.deepStrictEqual((yield* listTeams(b.principal, {})).items.map((team) => team.id), [b.team_id])
      assert.deepStrictEqual((yield* listMembers(b.principal, {})).items.map((member) => member.user?.id), [b.user_id])
    }).pipe(Effect.provide(Ports())))
})

describe("invitations", () => {
  it.effect("lists the people invited who have not accepted yet after the members, newest first, paged with them", () =>
    Effect.gen(function*() {
      const { principal, user_id } = yield* setup()
      const team = yield* createTeam(principal, { name: "Deals", permissions: ["deal-index"] })
      yield* inviteMember(principal, { email: "first@example.com", team_ids: [team.id] })
      const second = yield* inviteMember(principal, { email: "second@example.com", team_ids: [] })
      const revoked = yield* inviteMember(principal, { email: "revoked@example.com", team_ids: [] })
      yield* revokeInvitation(principal, revoked.id)
      const page = yield* listMembers(principal, {})
      assert.strictEqual(page.total, 3)
      assert.deepStrictEqual(page.items.map((entry) => [entry.user?.id ?? entry.status, entry.status]), [
        [user_id, "active"],
        ["invited", "invited"],
        ["invited", "invited"]
      ])
      assert.deepStrictEqual(page.items[1], {
        user: null,
        email: "second@example.com",
        status: "invited",
        teams: [],
        last_used: null,
        invitation_id: second.id,
        expires_at: second.expires_at,
        created_at: second.created_at
      })
      assert.deepStrictEqual(page.items[2]!.teams, [{ id: team.id, name: "Deals" }])
      const pages = yield* Effect.forEach(["1", "2", "3", "4"], (n) => listMembers(principal, { page: n, per_page: "1" }))
      assert.deepStrictEqual(pages.map((p) => p.items.map((entry) => emailOf(entry))), [
        [OWNER.email],
        ["second@example.com"],
        ["first@example.com"],
        []
      ])
      assert.isTrue(pages.every((p) => p.total === 3))
      // Once accepted, the invitee is a member and listed as one.
      yield* acceptInvitation(yield* tokenOfMailTo("first@example.com"), {
        firstname: "F",
        lastname: "Irst",
        password: "first password"
      }, Option.none())
      const after = yield* listMembers(principal, {})
      assert.deepStrictEqual(after.items.map((entry) => [emailOf(entry), entry.status]), [
        [OWNER.email, "active"],
        ["first@example.com", "active"],
        ["second@example.com", "invited"]
      ])
    }).pipe(Effect.provide(Ports())))

  it.effect("mails a single-use link; accepting creates the user and its membership in the teams; reuse is 410", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const team = yield* createTeam(principal, { name: "Deals", permissions: ["deal-index"] })
      const invitation = yield* inviteMember(principal, { email: "new@example.com", team_ids: [team.id] })
      assert.strictEqual(invitation.status, "invited")
      assert.deepStrictEqual((yield* listInvitations(principal, {})).items.map((i) => i.id), [invitation.id])
      const mail = (yield* MemoryMailbox.use((mailbox) => mailbox.sent)).at(-1)!
      assert.strictEqual(mail.to, "new@example.com")
      const token = yield* lastInvitationToken
      const member = yield* acceptInvitation(token, { firstname: "New", lastname: "Agent", password: "new password" }, Option.none())
      assert.strictEqual(member.status, "active")
      assert.deepStrictEqual(member.teams, [{ id: team.id, name: "Deals" }])
      const session = yield* loginSession("new@example.com", "new password")
      const acting = yield* authenticateSession(session.cookie)
      assert.strictEqual(acting.accountId, account_id)
      assert.isTrue(acting.permissions.has("deal-index"))
      const again = yield* errorOf(acceptInvitation(token, { firstname: "A", lastname: "B", password: "other password" }, Option.none()))
      assert.deepStrictEqual([again._tag, (again as any).status], ["Gone", "accepted"])
      assert.strictEqual((yield* listInvitations(principal, {})).total, 0)
      assert.strictEqual((yield* errorOf(acceptInvitation("x".repeat(40), {}, Option.none())))._tag, "NotFound")
    }).pipe(Effect.provide(Ports())))

  it.effect("accepting mails the member a verification link that sets email_verified_at; a verified address gets none", () =>
    Effect.gen(function*() {
      const a = yield* setup()
      yield* inviteMember(a.principal, { email: "new@example.com", team_ids: [] })
      const member = yield* acceptInvitation(yield* lastInvitationToken, { firstname: "New", lastname: "Agent", password: "new password" }, Option.none())
      const mail = (yield* MemoryMailbox.use((mailbox) => mailbox.sent)).at(-1)!
      assert.deepStrictEqual([mail.to, mail.subject], ["new@example.com", "Verify your e-mail address"])
      const link = /\/email\/verify\?token=([A-Za-z0-9]{40})/.exec(mail.text)![1]!
      const verified = yield* confirmEmailVerification(link)
      assert.strictEqual(verified.id, member.user.id)
      assert.isNotNull(verified.email_verified_at)

      // Signed in and verified already, an existing user accepting is not mailed again.
      const b = yield* setup({ ...OWNER, email: "owner.b@example.com", account: "B" })
      yield* inviteMember(b.principal, { email: "new@example.com", team_ids: [] })
      const invitationMail = (yield* MemoryMailbox.use((mailbox) => mailbox.sent)).length
      yield* acceptInvitation(yield* lastInvitationToken, {}, Option.some(member.user.id))
      assert.lengthOf(yield* MemoryMailbox.use((mailbox) => mailbox.sent), invitationMail)
    }).pipe(Effect.provide(Ports())))

  it.effect("revoked and expired (after 7 days) invitations are 410; a new user's names and password are checked", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const revoked = yield* inviteMember(principal, { email: "revoked@example.com", team_ids: [] })
      const revokedToken = yield* lastInvitationToken
      yield* revokeInvitation(principal, revoked.id)
      assert.strictEqual((yield* errorOf(revokeInvitation(principal, revoked.id)))._tag, "NotFound")
      const gone = yield* errorOf(acceptInvitation(revokedToken, { firstname: "A", lastname: "B", password: "long enough" }, Option.none()))
      assert.deepStrictEqual([gone._tag, (gone as any).status], ["Gone", "revoked"])
      yield* inviteMember(principal, { email: "late@example.com", team_ids: [] })
      const lateToken = yield* lastInvitationToken
      const invalid = yield* errorOf(acceptInvitation(lateToken, { firstname: " ", password: "short" }, Option.none()))
      assert.deepStrictEqual(Object.keys((invalid as any).errors), ["firstname", "lastname", "password"])
      yield* TestClock.adjust("7 days")
      const expired = yield* errorOf(acceptInvitation(lateToken, { firstname: "A", lastname: "B", password: "long enough" }, Option.none()))
      assert.deepStrictEqual([expired._tag, (expired as any).status], ["Gone", "expired"])
    }).pipe(Effect.provide(Ports())))

  it.effect("an invitation no longer pending is pruned 30 days after it was revoked or accepted, or expired; its link then answers 404", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const revoked = yield* inviteMember(principal, { email: "revoked@example.com", team_ids: [] })
      const revokedToken = yield* lastInvitationToken
      yield* revokeInvitation(principal, revoked.id)
      yield* inviteMember(principal, { email: "pending@example.com", team_ids: [] })
      const pendingToken = yield* lastInvitationToken
      yield* TestClock.adjust("30 days")
      assert.strictEqual((yield* pruneExpired(100)).invitations, 0)
      assert.strictEqual((yield* errorOf(acceptInvitation(revokedToken, {}, Option.none())))._tag, "Gone")
      yield* TestClock.adjust("1 millis")
      // The revoked one 30 days after it was revoked; the pending one is 23 days past its expiry.
      assert.strictEqual((yield* pruneExpired(100)).invitations, 1)
      assert.strictEqual((yield* errorOf(acceptInvitation(revokedToken, {}, Option.none())))._tag, "NotFound")
      assert.strictEqual((yield* errorOf(acceptInvitation(pendingToken, {}, Option.none())))._tag, "Gone")
      yield* TestClock.adjust("7 days")
      assert.strictEqual((yield* pruneExpired(100)).invitations, 1)
      assert.strictEqual((yield* errorOf(acceptInvitation(pendingToken, {}, Option.none())))._tag, "NotFound")
    }).pipe(Effect.provide(Ports())))

  it.effect("an existing user accepts only signed in as that user; the account is added to theirs", () =>
    Effect.gen(function*() {
      const a = yield* setup()
      const b = yield* setup({ ...OWNER, email: "owner.b@example.com", account: "B" })
      const invalid = yield* errorOf(inviteMember(a.principal, { email: OWNER.email, team_ids: [] }))
      assert.deepStrictEqual((invalid as any).errors, { email: ["The email is already a member of the account."] })
      yield* inviteMember(a.principal, { email: "owner.b@example.com", team_ids: [] })
      const token = yield* lastInvitationToken
      assert.strictEqual((yield* errorOf(acceptInvitation(token, {}, Option.none())))._tag, "Unauthenticated")
      assert.strictEqual((yield* errorOf(acceptInvitation(token, {}, Option.some(a.user_id))))._tag, "Forbidden")
      const member = yield* acceptInvitation(token, {}, Option.some(b.user_id))
      assert.strictEqual(member.user.id, b.user_id)
      assert.deepStrictEqual((yield* listMembers(a.principal, {})).items.map((m) => m.user?.id), [a.user_id, b.user_id])
    }).pipe(Effect.provide(Ports())))

  it.effect("the address must be an e-mail and the teams the account's", () =>
    Effect.gen(function*() {
      const a = yield* setup()
      const b = yield* setup({ ...OWNER, email: "owner.b@example.com", account: "B" })
      assert.deepStrictEqual(
        ((yield* errorOf(inviteMember(a.principal, { email: "not an address", team_ids: [] }))) as any).errors,
        { email: ["The email field must be a valid email address."] }
      )
      assert.deepStrictEqual(
        ((yield* errorOf(inviteMember(a.principal, { email: "x@example.com", team_ids: [b.team_id] }))) as any).errors,
        { "team_ids.0": ["The selected team_ids.0 is invalid."] }
      )
    }).pipe(Effect.provide(Ports())))
})

describe("notices reach the right members", () => {
  it.effect("Webhook Deactivated: every active member holding webhook-update, not a suspended one nor one without it", () =>
    Effect.gen(function*() {
      const { account_id, principal, user_id } = yield* setup()
      const hooks = yield* memberWith(account_id, "hooks@example.com", ["webhook-update"])
      const away = yield* memberWith(account_id, "away@example.com", ["webhook-update"])
      yield* memberWith(account_id, "deals@example.com", ["deal-index"])
      yield* updateMember(principal, away.user.id, { status: "suspended" })
      yield* inviteMember(principal, { email: "invited@example.com", team_ids: [] })
      assert.strictEqual(yield* notifyWebhookDeactivated(account_id, 1, "https://hooks.example.com/in"), 2)
      const told = (yield* memoryState).notifications.filter((n) => n.type === "WebhookDeactivated").map((n) => n.userId)
      assert.deepStrictEqual(told.sort((a, b) => a - b), [user_id, hooks.user.id])
    }).pipe(Effect.provide(Ports())))

  it.effect("an export's notice goes to its requester only, not to the other members who may export", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const requester = yield* memberWith(account_id, "requester@example.com", ["deal-index"])
      yield* memberWith(account_id, "colleague@example.com", ["deal-index"])
      yield* requestExport(requester.principal, "deal", {})
      yield* runNextExport()
      const told = (yield* memoryState).notifications.filter((n) => n.type === OBJECTS_EXPORT).map((n) => n.userId)
      assert.deepStrictEqual(told, [requester.user.id])
    }).pipe(Effect.provide(Ports())))

  it.effect("an import's notice goes to its uploader only, not to the other members who may import", () =>
    Effect.gen(function*() {
      const { account_id } = yield* setup()
      const uploader = yield* memberWith(account_id, "uploader@example.com", ["contact-create"])
      yield* memberWith(account_id, "colleague@example.com", ["contact-create"])
      const file = new TextEncoder().encode("firstname\r\nImported\r\n")
      yield* startImport(uploader.principal, "contact", Stream.make({ _tag: "File", key: "file", name: "people.csv", content: Stream.make(file) }))
      while (yield* processNextImport()) {
        // next
      }
      const told = (yield* memoryState).notifications.filter((n) => n.type === OBJECTS_IMPORT).map((n) => n.userId)
      assert.deepStrictEqual(told, [uploader.user.id])
    }).pipe(Effect.provide(Ports())))
})
