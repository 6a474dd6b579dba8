/**
 * Rate limits over HTTP, on each database: per token and per session user on every authenticated
 * endpoint, per email and per client address on login, per account on OTP verify; the
 * `RateLimit-*` headers on every answer of a limited request, 429 with `Retry-After` over the
 * limit, counts that start over with a new window, limits shared by two replicas of one database,
 * and one statement per request for it all.
 */
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Exit, type Layer, Scope } from "effect"
import type { SqlClient } from "effect/sql"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { Reply } from "./support/client.ts"
import { roomInWindow } from "./support/rate-window.ts"
import { requestFrom } from "./support/request-from.ts"
import { DATABASES, sharedDatabaseOf, startTestServer, type TestServer } from "./support/server.ts"
import { countingTracer, withoutCachedReads } from "./support/statements.ts"

const perMinute = (limit: number) => ({ limit, window: Duration.minutes(1) })

const expectLimitHeaders = (reply: Reply, limit: number, remaining: number) => {
  expect(reply.headers.get("ratelimit-limit")).toBe(String(limit))
  expect(reply.headers.get("ratelimit-remaining")).toBe(String(remaining))
  const reset = Number(reply.headers.get("ratelimit-reset"))
  expect(reset).toBeGreaterThanOrEqual(1)
  expect(reset).toBeLessThanOrEqual(60)
}

const expectTooMany = (reply: Reply, limit: number) => {
  expect(reply.status).toBe(429)
  expect(reply.body).toEqual({ message: "Too Many Attempts." })
  expectLimitHeaders(reply, limit, 0)
  expect(reply.headers.get("retry-after")).toBe(reply.headers.get("ratelimit-reset"))
}

/** A JSON request sent from the loopback address `from` (127.0.0.0/8 all reach the server on Linux). */
const sendFrom = (
  url: string,
  from: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {}
): Promise<Reply> => requestFrom("POST", url + path, { from, headers, body })

/** Moves every count into a window long ended, as if the window had passed. */
const endWindows = (server: TestServer) => server.query("UPDATE rate_limit_buckets SET window_start = 0, window_end = 1")

describe.each(DATABASES)("rate limits over HTTP on %s", (database) => {
  // Two servers: `limited` limits callers (3 a minute), on a database a second replica joins in
  // the last tests; `open` limits only login and OTP verify. Both record their SQL statements.
  const scope = Effect.runSync(Scope.make())
  let sharedDatabase: () => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
  const limitedStatements: Array<string> = []
  const openStatements: Array<string> = []
  let limited: TestServer
  let open: TestServer
  let owner: { account_id: number; user_id: number; token: string }

  beforeAll(async () => {
    sharedDatabase = await Effect.runPromise(sharedDatabaseOf(database).pipe(Scope.provide(scope)))
    limited = await startTestServer(database, {
      rateLimits: { caller: perMinute(3) },
      database: sharedDatabase(),
      tracer: countingTracer(limitedStatements)
    })
    open = await startTestServer(database, {
      rateLimits: { login: perMinute(3), otpVerify: perMinute(2) },
      tracer: countingTracer(openStatements),
      trustedProxies: "127.0.0.30"
    })
    owner = await limited.bootstrap({ email: "owner@example.test", password: "owner-password" })
    await open.bootstrap({ email: "ann@example.test", password: "ann-password" })
  })
  afterAll(async () => {
    await limited?.close()
    await open?.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })
  beforeEach(() => roomInWindow())

  describe("per caller", () => {
    it("shows the limit on every answer, refuses the request over it with 429, and starts over with a new window", async () => {
      for (const remaining of [2, 1, 0]) {
        const reply = await limited.request("GET", "/api/me", { token: owner.token })
        expect(reply.status).toBe(200)
        expectLimitHeaders(reply, 3, remaining)
      }
      expectTooMany(await limited.request("GET", "/api/me", { token: owner.token }), 3)
      expectTooMany(await limited.request("GET", "/api/contacts", { token: owner.token }), 3)

      await endWindows(limited)
      const fresh = await limited.request("GET", "/api/me", { token: owner.token })
      expect(fresh.status).toBe(200)
      expectLimitHeaders(fresh, 3, 2)
    })

    it("counts answers that fail too, and each token apart; an unauthenticated request is not counted", async () => {
      await endWindows(limited)
      const created = await limited.request("POST", "/api/tokens", { token: owner.token, body: { name: "second", abilities: ["*"] } })
      expect(created.status).toBe(201)
      const missing = await limited.request("GET", "/api/contacts/000000000000000000000000", { token: owner.token })
      expect(missing.status).toBe(404)
      expectLimitHeaders(missing, 3, 1)
      expect((await limited.request("GET", "/api/me", { token: owner.token })).status).toBe(200)
      expectTooMany(await limited.request("GET", "/api/me", { token: owner.token }), 3)

      const other = await limited.request("GET", "/api/me", { token: created.body.token })
      expect(other.status).toBe(200)
      expectLimitHeaders(other, 3, 2)

      const anonymous = await limited.request("GET", "/api/me")
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get("ratelimit-limit")).toBeNull()
    })

    it("counts a user's sessions together", async () => {
      const user = await limited.bootstrap({ email: "session@example.test", password: "session-password" })
      const login = () =>
        limited.request("POST", "/api/auth/login", { body: { email: "session@example.test", password: "session-password" } })
      const cookieOf = (reply: Reply) => (reply.headers.get("set-cookie") ?? "").split(";")[0]!
      const first = cookieOf(await login())
      const second = cookieOf(await login())
      expect(first).not.toBe(second)
      for (const [cookie, remaining] of [[first, 2], [second, 1], [first, 0]] as const) {
        const reply = await limited.request("GET", "/api/me", { cookie })
        expect(reply.status).toBe(200)
        expectLimitHeaders(reply, 3, remaining)
      }
      expectTooMany(await limited.request("GET", "/api/me", { cookie: second }), 3)
      // The user's API token counts apart from its sessions.
      expect((await limited.request("GET", "/api/me", { token: user.token })).status).toBe(200)
    })
  })

  describe("on login", () => {
    it("limits attempts per email, whatever the address and the case, right or wrong", async () => {
      const attempt = (from: string, email: string, password: string) =>
        sendFrom(open.url, from, "/api/auth/login", { email, password })
      expect((await attempt("127.0.0.11", "ann@example.test", "wrong")).status).toBe(422)
      expect((await attempt("127.0.0.12", "ANN@example.test", "wrong")).status).toBe(422)
      const right = await attempt("127.0.0.13", "ann@example.test", "ann-password")
      expect(right.status).toBe(200)
      expectLimitHeaders(right, 3, 0)
      expectTooMany(await attempt("127.0.0.14", "Ann@Example.test", "ann-password"), 3)
      // Another email from a fresh address is not limited.
      expect((await attempt("127.0.0.15", "bob@example.test", "wrong")).status).toBe(422)
    })

    it("limits attempts per client address, whatever the email", async () => {
      for (const [n, remaining] of [[1, 2], [2, 1], [3, 0]] as const) {
        const reply = await sendFrom(open.url, "127.0.0.21", "/api/auth/login", { email: `nobody${n}@example.test`, password: "x" })
        expect(reply.status).toBe(422)
        expectLimitHeaders(reply, 3, remaining)
      }
      expectTooMany(await sendFrom(open.url, "127.0.0.21", "/api/auth/login", { email: "ann@example.test", password: "ann-password" }), 3)
      expect((await sendFrom(open.url, "127.0.0.22", "/api/auth/login", { email: "nobody4@example.test", password: "x" })).status)
        .toBe(422)
    })

    it("limits a login's second steps per client address, apart from the logins", async () => {
      // A login from the address first: the second steps count apart from it.
      expect((await sendFrom(open.url, "127.0.0.25", "/api/auth/login", { email: "nobody5@example.test", password: "x" })).status)
        .toBe(422)
      for (const remaining of [2, 1, 0]) {
        const reply = await sendFrom(open.url, "127.0.0.25", "/api/auth/two-factor", { code: "123456" })
        expect(reply.status).toBe(422)
        expectLimitHeaders(reply, 3, remaining)
      }
      expectTooMany(await sendFrom(open.url, "127.0.0.25", "/api/auth/two-factor", { code: "123456" }), 3)
      expect((await sendFrom(open.url, "127.0.0.26", "/api/auth/two-factor", { code: "123456" })).status).toBe(422)
    })

    it("takes the client address from X-Forwarded-For only behind a trusted proxy", async () => {
      const attempt = (from: string, client: string, n: number) =>
        sendFrom(open.url, from, "/api/auth/login", { email: `proxied${n}@example.test`, password: "x" }, {
          "x-forwarded-for": `198.51.100.1, ${client}`
        })
      // From the trusted proxy: each forwarded client counts apart.
      for (const n of [1, 2, 3]) expect((await attempt("127.0.0.30", "203.0.113.1", n)).status).toBe(422)
      expectTooMany(await attempt("127.0.0.30", "203.0.113.1", 4), 3)
      expect((await attempt("127.0.0.30", "203.0.113.2", 5)).status).toBe(422)
      // From anyone else the header is ignored: changing it does not escape the peer's count.
      for (const n of [6, 7, 8]) expect((await attempt("127.0.0.31", `203.0.113.${n}`, n)).status).toBe(422)
      expectTooMany(await attempt("127.0.0.31", "203.0.113.9", 9), 3)
    })
  })

  describe("on OTP verify", () => {
    it("limits verifications per account, across its tokens", async () => {
      const one = await open.bootstrap({ email: "one@example.test", password: "one-password" })
      const two = await open.bootstrap({ email: "two@example.test", password: "two-password" })
      const second = await open.request("POST", "/api/tokens", { token: one.token, body: { name: "b", abilities: ["*"] } })
      const verify = (token: string) =>
        open.request("POST", "/api/verifications/000000000000000000000000/verify", { token, body: { code: "123456" } })
      const first = await verify(one.token)
      expect(first.status).toBe(404)
      expectLimitHeaders(first, 2, 1)
      expect((await verify(second.body.token)).status).toBe(404)
      expectTooMany(await verify(one.token), 2)
      expect((await verify(two.token)).status).toBe(404)
      // Only verify is limited there: the account's other requests are not.
      const me = await open.request("GET", "/api/me", { token: one.token })
      expect(me.status).toBe(200)
      expect(me.headers.get("ratelimit-limit")).toBeNull()
    })
  })

  it("costs one statement per limited request", async () => {
    const statementsOf = async (server: TestServer, statements: Array<string>) => {
      const { token } = await server.bootstrap({ email: "count@example.test", password: "count-password" })
      await server.request("GET", "/api/me", { token })
      statements.length = 0
      expect((await server.request("GET", "/api/me", { token })).status).toBe(200)
      return withoutCachedReads(statements)
    }
    // What the caches keep (the token, the grants, the answer's parts) may or may not be read
    // again: left out, the request without a limit makes no statement, the limited one only its count.
    const without = await statementsOf(open, openStatements)
    const withLimit = await statementsOf(limited, limitedStatements)
    expect(without).toEqual([])
    expect(withLimit).toHaveLength(1)
    expect(withLimit[0]).toMatch(/rate_limit_buckets/)
  })

  it("two replicas on one database share the limit", async () => {
    const replica = await startTestServer(database, { rateLimits: { caller: perMinute(4) }, database: sharedDatabase() })
    try {
      const { token } = await limited.bootstrap({ email: "shared@example.test", password: "shared-password" })
      const remaining = []
      // `limited` allows 3 a minute and the replica 4: each answers by its own limit, over one count.
      for (const server of [replica, limited, replica]) {
        const reply = await server.request("GET", "/api/me", { token })
        expect(reply.status).toBe(200)
        remaining.push(reply.headers.get("ratelimit-remaining"))
      }
      expect(remaining).toEqual(["3", "1", "1"])
      expectTooMany(await limited.request("GET", "/api/me", { token }), 3)
      expectTooMany(await replica.request("GET", "/api/me", { token }), 4)
    } finally {
      await replica.close()
    }
  })
})
