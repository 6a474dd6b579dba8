/**
 * The absolute URLs in Wasl's answers and the session cookie, as the client reached Wasl: with
 * `WASL_PUBLIC_URL` (the test server's `publicUrl`) every link is on it whatever the request says;
 * without it a link is on the request's own Host and scheme, where the forwarded headers
 * (`X-Forwarded-Proto`, `X-Forwarded-Host`, `Forwarded`) count only from a trusted proxy
 * (`WASL_TRUST_PROXY`). The `wasl_session` cookie is `Secure` exactly when Wasl is reached over
 * HTTPS: a public URL in https, or a trusted proxy's `X-Forwarded-Proto: https`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Reply } from "./support/client.ts"
import { requestFrom, type RequestFromOptions } from "./support/request-from.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const PROXY = "127.0.0.40"
const STRANGER = "127.0.0.41"

/** Every header a proxy may forward, each saying the client used https on crm.example.com. */
const FORWARDED = {
  "x-forwarded-for": "203.0.113.9",
  "x-forwarded-proto": "https",
  "x-forwarded-host": "crm.example.com",
  forwarded: "for=203.0.113.9;proto=https;host=crm.example.com"
}

/** A request sent from the loopback address `from`, with headers as written (a Host of its own too). */
const send = (server: TestServer, method: string, path: string, options: RequestFromOptions = {}): Promise<Reply> =>
  requestFrom(method, server.url + path, options)

/** Every URL of a list answer's `links` and `meta`. */
const urlsOf = (reply: Reply): Array<string> => [
  ...Object.values(reply.body.links as Record<string, string | null>).filter((url): url is string => url !== null),
  reply.body.meta.path,
  ...(reply.body.meta.links as Array<{ url: string | null }>).flatMap((link) => link.url === null ? [] : [link.url])
]

/** Asserts that every URL of the list answer is on `base` + `/api/deals`. */
const expectLinksOn = (reply: Reply, base: string) => {
  expect(reply.status).toBe(200)
  expect(reply.body.meta.path).toBe(`${base}/api/deals`)
  expect(reply.body.links.first).toBe(`${base}/api/deals?per_page=1&page=1`)
  expect(reply.body.links.next).toBe(`${base}/api/deals?per_page=1&page=2`)
  for (const url of urlsOf(reply)) expect(url.startsWith(`${base}/api/deals`), url).toBe(true)
}

describe.each(DATABASES)("links and the session cookie as the client reached Wasl, on %s", (database) => {
  // `direct`: no proxy, no public URL; `proxied`: behind the trusted proxy PROXY; `published`: a
  // public URL with a path prefix, behind the same proxy.
  let direct: TestServer
  let proxied: TestServer
  let published: TestServer
  const tokens = new Map<TestServer, string>()

  beforeAll(async () => {
    direct = await startTestServer(database)
    proxied = await startTestServer(database, { trustedProxies: PROXY })
    published = await startTestServer(database, { trustedProxies: PROXY, publicUrl: "https://crm.example.com/wasl" })
    for (const server of [direct, proxied, published]) {
      const owner = await server.bootstrap({ email: "owner@example.test", password: "owner-password" })
      tokens.set(server, owner.token)
      for (const name of ["One", "Two"]) {
        await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: name } })
      }
    }
  })
  afterAll(async () => {
    await direct?.close()
    await proxied?.close()
    await published?.close()
  })

  const list = (server: TestServer, options: { readonly from?: string; readonly headers?: Record<string, string> } = {}) =>
    send(server, "GET", "/api/deals?per_page=1", {
      ...options,
      headers: { authorization: `Bearer ${tokens.get(server)}`, ...options.headers }
    })

  describe("the links of a list", () => {
    it("are on the request's Host and scheme when no proxy is trusted, whatever forwarded headers say", async () => {
      const origin = direct.url
      expectLinksOn(await list(direct), origin)
      expectLinksOn(await list(direct, { headers: FORWARDED }), origin)
      expectLinksOn(await list(direct, { headers: { host: "crm.local:8080" } }), "http://crm.local:8080")
    })

    it("take the scheme and host a trusted proxy forwards, and only from it", async () => {
      expectLinksOn(await list(proxied, { from: PROXY, headers: FORWARDED }), "https://crm.example.com")
      expectLinksOn(await list(proxied, { from: STRANGER, headers: FORWARDED }), proxied.url)
    })

    it("never carry a Host that is not a host name or address", async () => {
      expectLinksOn(await list(direct, { headers: { host: "evil.example/phish?x=" } }), "http://localhost")
    })

    it("are on the public URL, with its path, whatever the Host and the forwarded headers say", async () => {
      const base = "https://crm.example.com/wasl"
      expectLinksOn(await list(published), base)
      expectLinksOn(await list(published, { headers: { host: "evil.example" } }), base)
      expectLinksOn(
        await list(published, { from: PROXY, headers: { ...FORWARDED, "x-forwarded-proto": "http", "x-forwarded-host": "evil.example" } }),
        base
      )
    })
  })

  describe("the session cookie", () => {
    /** Logs in and out through `server` as the given peer with the given headers; answers both Set-Cookie lines. */
    const session = async (server: TestServer, options: { readonly from?: string; readonly headers?: Record<string, string> } = {}) => {
      const login = await send(server, "POST", "/api/auth/login", {
        ...options,
        body: { email: "owner@example.test", password: "owner-password" }
      })
      expect(login.status).toBe(200)
      const loginCookie = login.headers.get("set-cookie") ?? ""
      const logout = await send(server, "POST", "/api/auth/logout", {
        ...options,
        headers: { ...options.headers, cookie: loginCookie.split(";")[0]!, "x-requested-with": "XMLHttpRequest" }
      })
      expect(logout.status).toBe(204)
      const logoutCookie = logout.headers.get("set-cookie") ?? ""
      expect([loginCookie, logoutCookie].map((line) => line.split("=")[0])).toEqual(["wasl_session", "wasl_session"])
      return [loginCookie, logoutCookie]
    }
    const secure = (line: string) => /;\s*Secure(;|$)/i.test(line)

    it("is Secure, at login and at logout, when the public URL is https", async () => {
      expect((await session(published)).map(secure)).toEqual([true, true])
    })

    it("is Secure, at login and at logout, when a trusted proxy forwards https", async () => {
      expect((await session(proxied, { from: PROXY, headers: FORWARDED })).map(secure)).toEqual([true, true])
    })

    it("is not Secure over plain http, nor when an untrusted peer claims https", async () => {
      expect((await session(direct)).map(secure)).toEqual([false, false])
      expect((await session(direct, { headers: FORWARDED })).map(secure)).toEqual([false, false])
      expect((await session(proxied, { from: STRANGER, headers: FORWARDED })).map(secure)).toEqual([false, false])
      expect((await session(proxied, { from: PROXY, headers: { ...FORWARDED, "x-forwarded-proto": "http" } })).map(secure))
        .toEqual([false, false])
    })
  })

  describe("the OpenAPI document", () => {
    it("names the public URL as its server, else the server that serves it", async () => {
      const servers = async (server: TestServer) => (await send(server, "GET", "/api/openapi.json")).body.servers
      expect(await servers(published)).toEqual([{ url: "https://crm.example.com/wasl", description: "Wasl's public URL" }])
      expect(await servers(direct)).toEqual([{ url: "/", description: "The server that serves this document" }])
      // The reference page embeds the same document.
      expect((await send(published, "GET", "/docs", { headers: { accept: "text/html" } })).text).toContain("https://crm.example.com/wasl")
    })
  })
})
