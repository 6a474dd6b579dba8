/**
 * The foundation over a real socket, on each database: authentication,
 * tokens, sessions, /api/me, and the Laravel-style error bodies `{ message, errors? }`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DateTime, Effect, Schema } from "effect"
import { CurrentUser } from "@wasl/core/Accounts"
import { PERMISSIONS } from "@wasl/core/Auth"
import { NotificationRepository } from "@wasl/core/Notifications"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"
import { countingTracer, CURRENT_USER_READ, withoutAuthentication } from "./support/statements.ts"

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const TOKEN = /^[1-9][0-9]*\|[A-Za-z0-9]{40}$/

describe.each(DATABASES)("foundation over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  const statements: Array<string> = []

  beforeAll(async () => {
    server = await startTestServer(database, { tracer: countingTracer(statements) })
    owner = await server.bootstrap({ email: "owner@example.test", password: "owner-password" })
    other = await server.bootstrap({ email: "other@example.test", password: "other-password" })
  })
  afterAll(async () => {
    await server?.close()
  })

  describe("authentication", () => {
    it("answers 401 Unauthenticated. without credentials", async () => {
      const reply = await server.request("GET", "/api/me")
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual({ message: "Unauthenticated." })
    })

    it.each([
      ["malformed", "not-a-token"],
      ["unknown id", `999999|${"a".repeat(40)}`],
      ["wrong secret", () => owner.token.replace(/\|.*/, `|${"b".repeat(40)}`)],
      ["short secret", () => owner.token.slice(0, -1)]
    ])("answers 401 for a %s bearer token", async (_name, token) => {
      const reply = await server.request("GET", "/api/me", { token: typeof token === "function" ? token() : token })
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual({ message: "Unauthenticated." })
    })
  })

  describe("GET /api/me", () => {
    /** The statements of one `GET /api/me` of the owner that authentication does not make. */
    const bodyStatements = async () => {
      statements.length = 0
      expect((await server.request("GET", "/api/me", { token: owner.token })).status).toBe(200)
      return withoutAuthentication(statements)
    }

    it("reads the whole body in one statement when the process does not keep it", async () => {
      await server.request("GET", "/api/me", { token: owner.token })
      // A write of the member's notifications (here one that finds none to mark) drops what the
      // process kept of the answer.
      await server.run(Effect.flatMap(DateTime.now, (now) =>
        NotificationRepository.use((notifications) => notifications.markRead(owner.account_id, owner.user_id, 0, now))))
      const body = await bodyStatements()
      expect(body).toHaveLength(1)
      expect(body[0]).toMatch(CURRENT_USER_READ)
    })

    it("keeps the body's parts across requests: once kept, a request reads no statement", async () => {
      // The process keeps nothing until its listener for the caches' notifications is confirmed.
      let body = await bodyStatements()
      for (let tries = 0; body.length > 0 && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        body = await bodyStatements()
      }
      expect(body).toEqual([])
    })

    it("answers the bytes of its schema's encoding (key order and timestamps as the OpenAPI document shows them)", async () => {
      const reply = await server.request("GET", "/api/me", { token: owner.token })
      expect(reply.headers.get("content-type")).toBe("application/json")
      expect(reply.text).toBe(JSON.stringify(Schema.encodeSync(CurrentUser)(Schema.decodeUnknownSync(CurrentUser)(reply.body))))
    })

    it("returns the user without a data wrapper, with account, pivot, subscription, preferences and teams", async () => {
      const reply = await server.request("GET", "/api/me", { token: owner.token })
      expect(reply.status).toBe(200)
      const me = reply.body
      expect(me.data).toBeUndefined()
      expect(me).toMatchObject({
        id: owner.user_id,
        email: "owner@example.test",
        unread_notifications_count: 0,
        has2FA: false,
        contacts_view_id: null,
        deals_view_id: null
      })
      expect(me.created_at).toMatch(WIRE_TIME)
      expect(me.updated_at).toMatch(WIRE_TIME)
      expect(me.account).toMatchObject({ id: owner.account_id, plan: "business", otp_credits: 0 })
      expect(me.account.created_at).toMatch(WIRE_TIME)
      expect(me.account.webhook_limit).toBeUndefined()
      expect(me.account.pivot).toMatchObject({ user_id: owner.user_id, account_id: owner.account_id, status: "active" })
      expect(typeof me.account.pivot.timeZone).toBe("string")
      expect(typeof me.account.pivot.hour12).toBe("boolean")
      expect(me.account.subscription).toMatchObject({ account_id: owner.account_id, status: "active" })
      expect(typeof me.account.subscription.id).toBe("string")
      expect(Number.isInteger(me.account.subscription.interval)).toBe(true)
      const names = me.notification_preferences.map((p: { name: string }) => p.name)
      expect(names).toContain("WebhookDeactivated")
      expect(names).toContain("IncomingMessage")
      for (const p of me.notification_preferences) {
        expect(p).toMatchObject({ stored: true, popup: true, browser: true, email: true })
      }
      expect(me.teams).toHaveLength(1)
      expect(me.teams[0]).toMatchObject({ name: "Administrators", account_id: owner.account_id })
      expect(me.teams[0].pivot).toMatchObject({ user_id: owner.user_id, team_id: me.teams[0].id })
      expect(me.teams[0].permissions).toEqual(expect.arrayContaining(["webhook-index", "token-manage", "deal-show"]))
    })

    it("records when the token was used in the pivot's last_used (YYYY-MM-DD HH:MM:SS)", async () => {
      await server.request("POST", "/api/auth/login", { body: { email: "owner@example.test", password: "owner-password" } })
      const reply = await server.request("GET", "/api/me", { token: owner.token })
      expect(reply.body.account.pivot.last_used).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    })

    it("accepts a trailing slash and answers JSON without an Accept header", async () => {
      const reply = await server.request("GET", "/api/me/", { token: owner.token, headers: { accept: "*/*" } })
      expect(reply.status).toBe(200)
      expect(reply.headers.get("content-type")).toMatch(/application\/json/)
    })
  })

  describe("tokens", () => {
    it("creates a token shown once, which authenticates, is listed, and dies when revoked", async () => {
      const created = await server.request("POST", "/api/tokens", {
        token: owner.token,
        body: { name: "ci", abilities: ["deal-index"] }
      })
      expect(created.status).toBe(201)
      expect(created.body.token).toMatch(TOKEN)
      expect(created.body.data).toMatchObject({ name: "ci", abilities: ["deal-index"] })
      expect(created.body.data.created_at).toMatch(WIRE_TIME)
      expect(created.body.data.secret_hash).toBeUndefined()
      const id = created.body.data.id
      expect(created.body.token.startsWith(`${id}|`)).toBe(true)

      expect((await server.request("GET", "/api/me", { token: created.body.token })).status).toBe(200)

      const listed = await server.request("GET", "/api/tokens", { token: owner.token })
      expect(listed.status).toBe(200)
      expect(listed.body.data.map((t: { id: number }) => t.id)).toContain(id)
      expect(JSON.stringify(listed.body)).not.toContain(created.body.token.split("|")[1])

      const revoked = await server.request("DELETE", `/api/tokens/${id}`, { token: owner.token })
      expect(revoked.status).toBe(200)
      expect(revoked.body).toEqual({ message: "Entity was deleted Successfully", data: [] })
      expect((await server.request("GET", "/api/me", { token: created.body.token })).status).toBe(401)
      const again = await server.request("DELETE", `/api/tokens/${id}`, { token: owner.token })
      expect(again.status).toBe(404)
      expect(again.body).toEqual({ message: "Not found." })
    })

    it("needs the token-manage ability on the token as well as the permission", async () => {
      const limited = await server.request("POST", "/api/tokens", {
        token: owner.token,
        body: { name: "limited", abilities: ["deal-index"] }
      })
      const reply = await server.request("GET", "/api/tokens", { token: limited.body.token })
      expect(reply.status).toBe(403)
      expect(typeof reply.body.message).toBe("string")
      expect(Object.keys(reply.body)).toEqual(["message"])
    })

    it("refuses a token a stronger token than itself: * only from *, no ability it lacks (403)", async () => {
      const manager = await server.request("POST", "/api/tokens", {
        token: owner.token,
        body: { name: "manager", abilities: ["token-manage", "deal-index"] }
      })
      for (const abilities of [["*"], ["webhook-index"], ["deal-index", "deal-delete"]]) {
        const reply = await server.request("POST", "/api/tokens", {
          token: manager.body.token,
          body: { name: "escalated", abilities }
        })
        expect(reply.status).toBe(403)
        expect(Object.keys(reply.body)).toEqual(["message"])
      }
      const narrower = await server.request("POST", "/api/tokens", {
        token: manager.body.token,
        body: { name: "narrower", abilities: ["deal-index"] }
      })
      expect(narrower.status).toBe(201)
      const listed = await server.request("GET", "/api/tokens", { token: owner.token })
      expect(listed.body.data.map((t: { name: string }) => t.name)).not.toContain("escalated")
    })

    it("hides another account's tokens: revoking one answers 404", async () => {
      const theirs = await server.request("POST", "/api/tokens", {
        token: other.token,
        body: { name: "theirs", abilities: ["*"] }
      })
      const reply = await server.request("DELETE", `/api/tokens/${theirs.body.data.id}`, { token: owner.token })
      expect(reply.status).toBe(404)
      expect((await server.request("GET", "/api/me", { token: theirs.body.token })).status).toBe(200)
      const mine = await server.request("GET", "/api/tokens", { token: owner.token })
      expect(mine.body.data.map((t: { id: number }) => t.id)).not.toContain(theirs.body.data.id)
    })

    it("lists the tokens one page at a time, by id, with the Laravel paginator body", async () => {
      const { token } = await server.bootstrap({ email: "paged-tokens@example.test", password: "pw" })
      const made = [Number(token.split("|")[0])]
      for (const name of ["two", "three"]) {
        made.push((await server.request("POST", "/api/tokens", { token, body: { name, abilities: ["*"] } })).body.data.id)
      }
      const first = await server.request("GET", "/api/tokens?per_page=2", { token })
      expect(first.status).toBe(200)
      expect(first.body.data.map((t: { id: number }) => t.id)).toEqual(made.slice(0, 2))
      expect(first.body.meta).toMatchObject({ current_page: 1, last_page: 2, per_page: 2, from: 1, to: 2, total: 3 })
      expect(first.body.meta.path).toMatch(/\/api\/tokens$/)
      expect(first.body.links.next).toMatch(/\/api\/tokens\?per_page=2&page=2$/)
      const second = await server.request("GET", "/api/tokens?per_page=2&page=2", { token })
      expect(second.body.data.map((t: { id: number }) => t.id)).toEqual(made.slice(2))
      expect(second.body.links.next).toBeNull()
      const whole = await server.request("GET", "/api/tokens", { token })
      expect(whole.body.meta).toMatchObject({ per_page: 15, total: 3 })
      for (const query of ["per_page=0", "per_page=101", "page=0", "page=x"]) {
        const bad = await server.request("GET", `/api/tokens?${query}`, { token })
        expect(bad.status, query).toBe(422)
        expect(Object.keys(bad.body.errors), query).toEqual([query.split("=")[0]])
      }
    })

    it("answers 404 for a token id that is not a number", async () => {
      const reply = await server.request("DELETE", "/api/tokens/abc", { token: owner.token })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({ message: "Not found." })
    })

    it("validates the body with Laravel's 422 shape and dot-notation keys", async () => {
      const empty = await server.request("POST", "/api/tokens", { token: owner.token, body: {} })
      expect(empty.status).toBe(422)
      expect(empty.body).toEqual({
        message: "The name field is required.",
        errors: { name: ["The name field is required."], abilities: ["The abilities field is required."] }
      })
      const wrong = await server.request("POST", "/api/tokens", {
        token: owner.token,
        body: { name: 7, abilities: ["deal-index", "no-such-thing"] }
      })
      expect(wrong.status).toBe(422)
      expect(wrong.body.errors).toEqual({
        name: ["The name field must be a string."],
        "abilities.1": ["The selected abilities.1 is invalid."]
      })
      const none = await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "x", abilities: [] } })
      expect(none.status).toBe(422)
      expect(Object.keys(none.body.errors)).toEqual(["abilities"])
    })

    it("keeps each ability once, in the order first given; more abilities than there are is a 422 on abilities", async () => {
      const known = [...PERMISSIONS, "*"]
      const tooMany = `The abilities field must not have more than ${known.length} items.`
      for (const abilities of [Array(60_000).fill("deal-index"), [...known, "deal-index"]]) {
        const reply = await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "many", abilities } })
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({ message: tooMany, errors: { abilities: [tooMany] } })
      }
      const all = await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "all", abilities: known } })
      expect(all.status).toBe(201)
      expect(all.body.data.abilities).toEqual(known)
      const repeated = await server.request("POST", "/api/tokens", {
        token: owner.token,
        body: { name: "repeated", abilities: ["deal-show", "deal-index", "deal-show", "deal-index", "contact-index"] }
      })
      expect(repeated.status).toBe(201)
      expect(repeated.body.data.abilities).toEqual(["deal-show", "deal-index", "contact-index"])
      const listed = await server.request("GET", "/api/tokens", { token: owner.token })
      expect(listed.body.data.find((t: { id: number }) => t.id === repeated.body.data.id).abilities)
        .toEqual(["deal-show", "deal-index", "contact-index"])
      expect((await server.query("SELECT count(*)::int AS n FROM api_tokens WHERE name = 'many'"))[0].n).toBe(0)
    })
  })

  describe("sessions", () => {
    const credentials = { email: "owner@example.test", password: "owner-password" }

    it("refuses wrong credentials with 422 on email", async () => {
      for (const body of [{ ...credentials, password: "nope" }, { ...credentials, email: "nobody@example.test" }]) {
        const reply = await server.request("POST", "/api/auth/login", { body })
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({
          message: "These credentials do not match our records.",
          errors: { email: ["These credentials do not match our records."] }
        })
      }
      const missing = await server.request("POST", "/api/auth/login", { body: {} })
      expect(missing.status).toBe(422)
      expect(Object.keys(missing.body.errors).sort()).toEqual(["email", "password"])
    })

    it("logs in with an HttpOnly SameSite=Lax cookie, guards state changes against CSRF, and logs out", async () => {
      const login = await server.request("POST", "/api/auth/login", { body: { ...credentials, email: "OWNER@example.test" } })
      expect(login.status).toBe(200)
      expect(login.body.data).toMatchObject({ id: owner.user_id, email: "owner@example.test" })
      const setCookie = login.headers.get("set-cookie") ?? ""
      expect(setCookie).toMatch(/^wasl_session=[A-Za-z0-9]{40};/)
      expect(setCookie).toMatch(/HttpOnly/i)
      expect(setCookie).toMatch(/SameSite=Lax/i)
      expect(setCookie).toMatch(/Max-Age=1209600/)
      const cookie = setCookie.split(";")[0]!

      const me = await server.request("GET", "/api/me", { cookie })
      expect(me.status).toBe(200)
      expect(me.body.id).toBe(owner.user_id)

      const body = { name: "from-session", abilities: ["*"] }
      const unguarded = await server.request("POST", "/api/tokens", { cookie, body })
      expect(unguarded.status).toBe(403)
      const guarded = await server.request("POST", "/api/tokens", {
        cookie,
        body,
        headers: { "x-requested-with": "XMLHttpRequest" }
      })
      expect(guarded.status).toBe(201)

      const logout = await server.request("POST", "/api/auth/logout", {
        cookie,
        headers: { "x-requested-with": "XMLHttpRequest" }
      })
      expect(logout.status).toBe(204)
      expect(logout.headers.get("set-cookie")).toMatch(/^wasl_session=;/)
      expect((await server.request("GET", "/api/me", { cookie })).status).toBe(401)
    })
  })

  describe("error bodies", () => {
    it("answers malformed JSON with 400, never 500", async () => {
      const reply = await server.request("POST", "/api/tokens", { token: owner.token, raw: "{\"name\": " })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual({ message: "Malformed JSON body." })
    })

    it("answers an unsupported content type with 415", async () => {
      const reply = await server.request("POST", "/api/tokens", {
        token: owner.token,
        raw: "name=x",
        headers: { "content-type": "text/plain" }
      })
      expect(reply.status).toBe(415)
      expect(typeof reply.body.message).toBe("string")
    })

    it("answers a body over 1 MiB with 413", async () => {
      const reply = await server.request("POST", "/api/tokens", {
        token: owner.token,
        body: { name: "x".repeat(1024 * 1024 + 10), abilities: ["*"] }
      })
      expect(reply.status).toBe(413)
      expect(typeof reply.body.message).toBe("string")
    })

    it("answers unknown routes with 404 and a wrong method with 405", async () => {
      for (const path of ["/api/nothing-here", "/nothing", "/api/tokens/1/extra"]) {
        const reply = await server.request("GET", path, { token: owner.token })
        expect(reply.status).toBe(404)
        expect(reply.body).toEqual({ message: "Not found." })
      }
      const wrong = await server.request("PATCH", "/api/tokens", { token: owner.token, body: {} })
      expect(wrong.status).toBe(405)
      expect(wrong.headers.get("allow")).toMatch(/GET/)
      expect(typeof wrong.body.message).toBe("string")
    })

    it("tags every response with a request id", async () => {
      const reply = await server.request("GET", "/api/me", { headers: { "x-request-id": "abc-123" } })
      expect(reply.headers.get("x-request-id")).toBe("abc-123")
      const fresh = await server.request("GET", "/api/me")
      expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    })
  })

  describe("access log", () => {
    it("writes one structured line per request and never a token, password or cookie", async () => {
      const login = await server.request("POST", "/api/auth/login", {
        body: { email: "owner@example.test", password: "owner-password" }
      })
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!.split("=")[1]!
      await server.request("GET", "/api/me?probe=1", { token: owner.token, headers: { "x-request-id": "log-probe" } })
      const lines = server.logs.map((line) => JSON.parse(line))
      const probe = lines.filter((l) => l.annotations?.request_id === "log-probe")
      expect(probe).toHaveLength(1)
      expect(probe[0].annotations).toMatchObject({ method: "GET", path: "/api/me", status: 200 })
      expect(typeof probe[0].annotations.duration_ms).toBe("number")
      const everything = server.logs.join("\n")
      for (const secret of [owner.token.split("|")[1]!, "owner-password", cookie]) {
        expect(everything).not.toContain(secret)
      }
    })
  })

  describe("self-description", () => {
    it("serves OpenAPI 3.1 generated from the contract, and a docs page", async () => {
      const spec = await server.request("GET", "/api/openapi.json")
      expect(spec.status).toBe(200)
      expect(spec.body.openapi).toMatch(/^3\.1/)
      expect(Object.keys(spec.body.paths)).toEqual(expect.arrayContaining(["/api/me", "/api/tokens", "/api/auth/login"]))
      const docs = await fetch(server.url + "/docs")
      expect(docs.status).toBe(200)
      expect(await docs.text()).toMatch(/<html/i)
    })
  })
})
