/** Members, invitations and teams over HTTP, on each database: every rule, and suspension reaching a second server at once. */
import { Duration, Effect, Exit, Scope } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Reply } from "./support/client.ts"
import { roomInWindow } from "./support/rate-window.ts"
import { DATABASES, sharedDatabaseOf, startTestServer, type TestServer } from "./support/server.ts"

const XHR = { "x-requested-with": "XMLHttpRequest" }
const LAST_MANAGER = "The account must keep at least one active member holding member-manage."
const sessionOf = (reply: Reply) =>
  reply.headers.getSetCookie().find((line) => line.startsWith("wasl_session="))!.split(";")[0]!

describe.each(DATABASES)("members, invitations and teams over HTTP on %s", (database) => {
  const scope = Effect.runSync(Scope.make())
  let server: TestServer
  let replica: TestServer
  beforeAll(async () => {
    const shared = await Effect.runPromise(sharedDatabaseOf(database).pipe(Scope.provide(scope)))
    server = await startTestServer(database, { database: shared() })
    replica = await startTestServer(database, { database: shared(), rateLimits: { login: { limit: 3, window: Duration.minutes(1) } } })
  })
  afterAll(async () => {
    await server?.close()
    await replica?.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  const mails = (to: string) =>
    existsSync(server.mailOutbox)
      ? readFileSync(server.mailOutbox, "utf8").trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
        .filter((mail) => mail.to === to)
      : []
  const linkMailedTo = (to: string, pattern: RegExp) =>
    mails(to).map((mail) => pattern.exec(mail.text)?.[1]).filter((token) => token !== undefined).at(-1)!
  const tokenMailedTo = (to: string) => linkMailedTo(to, /\/invitations\/([A-Za-z0-9]{40})/)

  /** An invitation of `owner`'s account to `email` in `teamIds`, accepted: the new member's user id and a token of it. */
  const join = async (owner: { token: string }, email: string, teamIds: ReadonlyArray<number>) => {
    const invited = await server.request("POST", "/api/account/invitations", { token: owner.token, body: { email, team_ids: teamIds } })
    expect(invited.status).toBe(201)
    const accepted = await server.request("POST", `/api/invitations/${tokenMailedTo(email)}/accept`, {
      body: { firstname: "New", lastname: "Member", password: "member-password" }
    })
    expect(accepted.status).toBe(201)
    const session = sessionOf(await server.request("POST", "/api/auth/login", { body: { email, password: "member-password" } }))
    const token = await server.request("POST", "/api/tokens", { cookie: session, headers: XHR, body: { name: "t", abilities: ["*"] } })
    return { userId: accepted.body.data.user.id as number, session, token: token.body.token as string, tokenStatus: token.status }
  }

  it("invites by mail; the link works once and makes a member in the teams; listed; revoked and expired are 410", async () => {
    const owner = await server.bootstrap({ email: "invite-owner@example.test", password: "owner-password" })
    const team = await server.request("POST", "/api/account/teams", {
      token: owner.token,
      body: { name: "Deals", description: "Sales", permissions: ["deal-index", "deal-show"] }
    })
    expect(team.status).toBe(201)
    expect(team.body).toMatchObject({ message: "Entity was created Successfully", data: { name: "Deals", user_ids: [] } })

    const invited = await server.request("POST", "/api/account/invitations", {
      token: owner.token,
      body: { email: "agent@example.test", team_ids: [team.body.data.id] }
    })
    expect(invited.status).toBe(201)
    expect(invited.body.data).toMatchObject({ email: "agent@example.test", team_ids: [team.body.data.id], status: "invited" })
    expect(JSON.stringify(invited.body)).not.toMatch(/[A-Za-z0-9]{40}/)
    const pending = await server.request("GET", "/api/account/invitations", { token: owner.token })
    expect(pending.body.data.map((i: any) => i.id)).toEqual([invited.body.data.id])
    const token = tokenMailedTo("agent@example.test")
    const stored = await server.query("SELECT token_hash FROM invitations WHERE id = $1", [invited.body.data.id])
    expect(stored[0].token_hash).not.toContain(token)

    const accepted = await server.request("POST", `/api/invitations/${token}/accept`, {
      body: { firstname: "Ada", lastname: "Agent", password: "agent-password" }
    })
    expect(accepted.status).toBe(201)
    expect(accepted.body.data).toMatchObject({
      user: { email: "agent@example.test", firstname: "Ada", lastname: "Agent" },
      status: "active",
      teams: [{ id: team.body.data.id, name: "Deals" }]
    })
    // The new member is mailed a link that verifies the address.
    const verify = linkMailedTo("agent@example.test", /\/email\/verify\?token=([A-Za-z0-9]{40})/)
    const verified = await server.request("POST", "/api/me/email/verify/confirm", { body: { token: verify } })
    expect(verified.status).toBe(200)
    expect(verified.body.data).toMatchObject({ email: "agent@example.test", email_verified_at: expect.any(String) })
    const reused = await server.request("POST", `/api/invitations/${token}/accept`, {
      body: { firstname: "Eve", lastname: "Evil", password: "evil-password" }
    })
    expect(reused.status).toBe(410)
    expect(reused.body.status).toBe("accepted")
    const session = sessionOf(await server.request("POST", "/api/auth/login", { body: { email: "agent@example.test", password: "agent-password" } }))
    expect((await server.request("GET", "/api/deals", { cookie: session })).status).toBe(200)
    expect((await server.request("GET", "/api/account/webhooks", { cookie: session })).status).toBe(403)

    const revoked = await server.request("POST", "/api/account/invitations", { token: owner.token, body: { email: "r@example.test", team_ids: [] } })
    expect((await server.request("DELETE", `/api/account/invitations/${revoked.body.data.id}`, { token: owner.token })).status).toBe(200)
    expect((await server.request("DELETE", `/api/account/invitations/${revoked.body.data.id}`, { token: owner.token })).status).toBe(404)
    const revokedAccept = await server.request("POST", `/api/invitations/${tokenMailedTo("r@example.test")}/accept`, {
      body: { firstname: "R", lastname: "R", password: "long-password" }
    })
    expect([revokedAccept.status, revokedAccept.body.status]).toEqual([410, "revoked"])

    const late = await server.request("POST", "/api/account/invitations", { token: owner.token, body: { email: "late@example.test", team_ids: [] } })
    // Eight days later, as far as the invitation can tell.
    await server.query("UPDATE invitations SET expires_at = now() - interval '1 day' WHERE id = $1", [late.body.data.id])
    const expired = await server.request("POST", `/api/invitations/${tokenMailedTo("late@example.test")}/accept`, {
      body: { firstname: "L", lastname: "L", password: "long-password" }
    })
    expect([expired.status, expired.body.status]).toEqual([410, "expired"])
    expect((await server.request("POST", `/api/invitations/${"x".repeat(40)}/accept`, { body: {} })).status).toBe(404)
    const missing = await server.request("POST", `/api/invitations/${tokenMailedTo("agent@example.test")}x/accept`, { body: {} })
    expect(missing.status).toBe(404)
  })

  it("lists the people invited who have not accepted yet after the members (status invited, their email and teams), paged with them", async () => {
    const owner = await server.bootstrap({ email: "roster-owner@example.test", password: "owner-password" })
    const team = await server.request("POST", "/api/account/teams", { token: owner.token, body: { name: "Deals", permissions: ["deal-index"] } })
    const invited = await server.request("POST", "/api/account/invitations", {
      token: owner.token,
      body: { email: "roster-invitee@example.test", team_ids: [team.body.data.id] }
    })
    const agent = await join(owner, "roster-agent@example.test", [])
    await server.request("PUT", `/api/account/members/${agent.userId}`, { token: owner.token, body: { status: "suspended" } })
    const listed = await server.request("GET", "/api/account/members", { token: owner.token })
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((entry: any) => [entry.user?.email ?? entry.email, entry.status])).toEqual([
      ["roster-owner@example.test", "active"],
      ["roster-agent@example.test", "suspended"],
      ["roster-invitee@example.test", "invited"]
    ])
    expect(listed.body.data[2]).toEqual({
      user: null,
      email: "roster-invitee@example.test",
      status: "invited",
      teams: [{ id: team.body.data.id, name: "Deals" }],
      last_used: null,
      invitation_id: invited.body.data.id,
      expires_at: invited.body.data.expires_at,
      created_at: invited.body.data.created_at
    })
    expect(listed.body.meta).toMatchObject({ total: 3, last_page: 1 })
    const third = await server.request("GET", "/api/account/members?per_page=2&page=2", { token: owner.token })
    expect(third.body.data.map((entry: any) => entry.email)).toEqual(["roster-invitee@example.test"])
    expect(third.body.meta).toMatchObject({ total: 3, last_page: 2, from: 3, to: 3 })
    await server.request("DELETE", `/api/account/invitations/${invited.body.data.id}`, { token: owner.token })
    expect((await server.request("GET", "/api/account/members", { token: owner.token })).body.meta.total).toBe(2)
  })

  it("an existing user accepts signed in as themselves; the account is added to theirs", async () => {
    const a = await server.bootstrap({ email: "a-owner@example.test", password: "owner-password" })
    await server.bootstrap({ email: "b-owner@example.test", password: "owner-password" })
    await server.request("POST", "/api/account/invitations", { token: a.token, body: { email: "b-owner@example.test", team_ids: [] } })
    const token = tokenMailedTo("b-owner@example.test")
    expect((await server.request("POST", `/api/invitations/${token}/accept`, { body: {} })).status).toBe(401)
    const aSession = sessionOf(await server.request("POST", "/api/auth/login", { body: { email: "a-owner@example.test", password: "owner-password" } }))
    expect((await server.request("POST", `/api/invitations/${token}/accept`, { cookie: aSession, headers: XHR, body: {} })).status).toBe(403)
    const bSession = sessionOf(await server.request("POST", "/api/auth/login", { body: { email: "b-owner@example.test", password: "owner-password" } }))
    expect((await server.request("POST", `/api/invitations/${token}/accept`, { cookie: bSession, body: {} })).status).toBe(403)
    const accepted = await server.request("POST", `/api/invitations/${token}/accept`, { cookie: bSession, headers: XHR, body: {} })
    expect(accepted.status).toBe(201)
    expect(accepted.body.data.user.email).toBe("b-owner@example.test")
    const members = await server.request("GET", "/api/account/members", { token: a.token })
    expect(members.body.data.map((m: any) => m.user.email)).toEqual(["a-owner@example.test", "b-owner@example.test"])
    expect(members.body.meta.total).toBe(2)
  })

  it("validates bodies with keys: unknown permission names, teams and users of another account, a bad address", async () => {
    const a = await server.bootstrap({ email: "v-owner@example.test", password: "owner-password" })
    const b = await server.bootstrap({ email: "v-other@example.test", password: "owner-password" })
    const unknown = await server.request("POST", "/api/account/teams", {
      token: a.token,
      body: { name: "X", permissions: ["deal-index", "deal-fly"] }
    })
    expect(unknown.status).toBe(422)
    expect(Object.keys(unknown.body.errors)).toEqual(["permissions.1"])
    const blank = await server.request("POST", "/api/account/teams", { token: a.token, body: { name: " ", permissions: [] } })
    expect(blank.body.errors).toEqual({ name: ["The name field is required."] })
    const otherTeam = await server.request("POST", "/api/account/invitations", {
      token: a.token,
      body: { email: "x@example.test", team_ids: [b.team_id] }
    })
    expect(otherTeam.body.errors).toEqual({ "team_ids.0": ["The selected team_ids.0 is invalid."] })
    const badAddress = await server.request("POST", "/api/account/invitations", { token: a.token, body: { email: "nope", team_ids: [] } })
    expect(badAddress.body.errors).toEqual({ email: ["The email field must be a valid email address."] })
    const otherUser = await server.request("PUT", `/api/account/teams/${a.team_id}/members`, {
      token: a.token,
      body: { user_ids: [a.user_id, b.user_id] }
    })
    expect(otherUser.body.errors).toEqual({ "user_ids.1": ["The selected user_ids.1 is invalid."] })
    const status = await server.request("PUT", `/api/account/members/${a.user_id}`, { token: a.token, body: { status: "gone" } })
    expect(Object.keys(status.body.errors)).toEqual(["status"])
  })

  it("keeps the account's last member holding member-manage (422 under a key)", async () => {
    const owner = await server.bootstrap({ email: "last@example.test", password: "owner-password" })
    const expectLast = (reply: Reply, key: string) => {
      expect(reply.status).toBe(422)
      expect(reply.body).toEqual({ message: LAST_MANAGER, errors: { [key]: [LAST_MANAGER] } })
    }
    expectLast(await server.request("PUT", `/api/account/members/${owner.user_id}`, { token: owner.token, body: { status: "suspended" } }), "status")
    expectLast(await server.request("PUT", `/api/account/members/${owner.user_id}`, { token: owner.token, body: { team_ids: [] } }), "team_ids")
    expectLast(await server.request("DELETE", `/api/account/members/${owner.user_id}`, { token: owner.token }), "user_id")
    expectLast(
      await server.request("PUT", `/api/account/teams/${owner.team_id}`, { token: owner.token, body: { name: "Administrators", permissions: ["deal-index"] } }),
      "permissions"
    )
    expectLast(await server.request("DELETE", `/api/account/teams/${owner.team_id}`, { token: owner.token }), "team")
    expectLast(await server.request("PUT", `/api/account/teams/${owner.team_id}/members`, { token: owner.token, body: { user_ids: [] } }), "user_ids")
    expect((await server.request("GET", "/api/me", { token: owner.token })).status).toBe(200)
  })

  it("refuses escalation (403 naming the permission) and a token whose user's permissions shrank", async () => {
    const owner = await server.bootstrap({ email: "esc-owner@example.test", password: "owner-password" })
    const leads = await server.request("POST", "/api/account/teams", {
      token: owner.token,
      body: { name: "Leads", permissions: ["member-manage", "team-manage", "token-manage", "deal-index"] }
    })
    const lead = await join(owner, "lead@example.test", [leads.body.data.id])
    expect(lead.tokenStatus).toBe(201)
    const webhooks = await server.request("POST", "/api/account/teams", {
      token: lead.token,
      body: { name: "Hooks", permissions: ["webhook-delete"] }
    })
    expect(webhooks.status).toBe(403)
    expect(webhooks.body.message).toContain("webhook-delete")
    const intoAdmins = await server.request("POST", "/api/account/invitations", {
      token: lead.token,
      body: { email: "friend@example.test", team_ids: [owner.team_id] }
    })
    expect(intoAdmins.status).toBe(403)
    expect((await server.request("PUT", `/api/account/members/${lead.userId}`, { token: lead.token, body: { team_ids: [leads.body.data.id, owner.team_id] } })).status).toBe(403)
    expect((await server.request("PUT", `/api/account/teams/${leads.body.data.id}`, { token: lead.token, body: { name: "Leads", permissions: ["member-manage", "team-manage", "token-manage", "deal-index", "deal-delete"] } })).status).toBe(403)

    // The lead's token holds `*`: once the team stops granting deal-index, the token cannot list deals.
    expect((await server.request("GET", "/api/deals", { token: lead.token })).status).toBe(200)
    const shrunk = await server.request("PUT", `/api/account/teams/${leads.body.data.id}`, {
      token: owner.token,
      body: { name: "Leads", permissions: ["member-manage", "team-manage", "token-manage"] }
    })
    expect(shrunk.status).toBe(200)
    expect((await server.request("GET", "/api/deals", { token: lead.token })).status).toBe(403)
    expect((await replica.request("GET", "/api/deals", { token: lead.token })).status).toBe(403)
  })

  it("a member of one account neither sees nor changes another's members or teams (404)", async () => {
    const a = await server.bootstrap({ email: "iso-a@example.test", password: "owner-password" })
    const b = await server.bootstrap({ email: "iso-b@example.test", password: "owner-password" })
    expect((await server.request("PUT", `/api/account/members/${a.user_id}`, { token: b.token, body: { status: "suspended" } })).status).toBe(404)
    expect((await server.request("DELETE", `/api/account/members/${a.user_id}`, { token: b.token })).status).toBe(404)
    expect((await server.request("GET", `/api/account/teams/${a.team_id}`, { token: b.token })).status).toBe(404)
    expect((await server.request("PUT", `/api/account/teams/${a.team_id}`, { token: b.token, body: { name: "x", permissions: [] } })).status).toBe(404)
    expect((await server.request("DELETE", `/api/account/teams/${a.team_id}`, { token: b.token })).status).toBe(404)
    expect((await server.request("PUT", `/api/account/teams/${a.team_id}/members`, { token: b.token, body: { user_ids: [] } })).status).toBe(404)
    const members = await server.request("GET", "/api/account/members", { token: b.token })
    expect(members.body.data.map((m: any) => m.user.id)).toEqual([b.user_id])
    const teams = await server.request("GET", "/api/account/teams", { token: b.token })
    expect(teams.body.data.map((t: any) => t.id)).toEqual([b.team_id])
    expect(teams.body.data[0].permissions).toEqual(expect.arrayContaining(["member-manage", "team-manage", "account-manage"]))
    expect((await server.request("PUT", "/api/account/members/abc", { token: b.token, body: { status: "active" } })).status).toBe(404)
    expect((await server.request("GET", `/api/account/teams/${a.team_id}x`, { token: b.token })).status).toBe(404)
  })

  it("a suspended or removed member is refused at once by a second server on the same database", async () => {
    const owner = await server.bootstrap({ email: "replica-owner@example.test", password: "owner-password" })
    const deals = await server.request("POST", "/api/account/teams", { token: owner.token, body: { name: "Deals", permissions: ["deal-index", "token-manage"] } })
    const agent = await join(owner, "replica-agent@example.test", [deals.body.data.id])
    // The replica has read (and keeps) the agent's token and grants.
    expect((await replica.request("GET", "/api/deals", { token: agent.token })).status).toBe(200)
    expect((await replica.request("GET", "/api/deals", { cookie: agent.session })).status).toBe(200)
    const suspended = await server.request("PUT", `/api/account/members/${agent.userId}`, { token: owner.token, body: { status: "suspended" } })
    expect(suspended.body.data.status).toBe("suspended")
    const refusedWithin = async (request: () => Promise<Reply>) => {
      const start = Date.now()
      while ((await request()).status !== 401) {
        expect(Date.now() - start).toBeLessThan(2_000) // the notification, well before the 10 s the cache keeps a value
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    expect((await server.request("GET", "/api/deals", { token: agent.token })).status).toBe(401)
    await refusedWithin(() => replica.request("GET", "/api/deals", { token: agent.token }))
    await refusedWithin(() => replica.request("GET", "/api/deals", { cookie: agent.session }))
    await server.request("PUT", `/api/account/members/${agent.userId}`, { token: owner.token, body: { status: "active" } })
    // Reactivated, the agent works on the replica again, which keeps its token and session anew.
    expect((await replica.request("GET", "/api/deals", { token: agent.token })).status).toBe(200)
    expect((await replica.request("GET", "/api/deals", { cookie: agent.session })).status).toBe(200)
    expect((await replica.request("GET", "/api/me", { cookie: agent.session })).status).toBe(200)
    expect((await server.request("DELETE", `/api/account/members/${agent.userId}`, { token: owner.token })).status).toBe(200)
    await refusedWithin(() => replica.request("GET", "/api/deals", { token: agent.token }))
    await refusedWithin(() => replica.request("GET", "/api/deals", { cookie: agent.session }))
    await refusedWithin(() => replica.request("GET", "/api/me", { cookie: agent.session }))
  })

  it("accepting is rate limited per client address like login", async () => {
    await roomInWindow()
    const statuses: Array<number> = []
    for (let i = 0; i < 4; i++) {
      statuses.push((await replica.request("POST", `/api/invitations/${"y".repeat(40)}/accept`, { body: {} })).status)
    }
    expect(statuses).toEqual([404, 404, 404, 429])
  })
})
