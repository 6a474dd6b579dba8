/**
 * Two-factor authentication over HTTP, on each database: enrolment and confirmation with codes
 * of the `otpauth` package (the user's authenticator app), login's second step with its cookie,
 * replay, attempts, recovery codes, and turning it off.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as OTPAuth from "otpauth"
import type { Reply } from "./support/client.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const STEP = 30_000
const XHR = { "x-requested-with": "XMLHttpRequest" }

/** The `name=value` of the cookie `name` set by a reply, and its attributes. */
const setCookie = (reply: Reply, name: string) => reply.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
const cookiePair = (reply: Reply, name: string) => setCookie(reply, name)?.split(";")[0]

describe.each(DATABASES)("two-factor authentication over HTTP on %s", (database) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(database)
  })
  afterAll(async () => {
    await server?.close()
  })

  /** A new owner with a session, and its authenticator once enrolled. */
  const owner = async (email: string) => {
    const password = `${email}-password`
    await server.bootstrap({ email, password })
    const login = await server.request("POST", "/api/auth/login", { body: { email, password } })
    return { email, password, session: cookiePair(login, "wasl_session")! }
  }

  /** Enrols and confirms two-factor for the owner; the app and the recovery codes. */
  const enrolled = async (email: string) => {
    const user = await owner(email)
    const begun = await server.request("POST", "/api/me/two-factor", { cookie: user.session, headers: XHR })
    const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begun.body.data.secret) })
    const confirmed = await server.request("POST", "/api/me/two-factor/confirm", {
      cookie: user.session,
      headers: XHR,
      body: { code: app.generate() }
    })
    expect(confirmed.status).toBe(200)
    return { ...user, app, recoveryCodes: confirmed.body.data.recovery_codes as Array<string> }
  }

  /** The password step of a user with two-factor on: its pending-login cookie. */
  const passwordStep = async (user: { email: string; password: string }) => {
    const reply = await server.request("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ two_factor: true })
    expect(setCookie(reply, "wasl_session")).toBeUndefined()
    return cookiePair(reply, "wasl_two_factor")!
  }

  const secondStep = (cookie: string | undefined, body: unknown) =>
    server.request("POST", "/api/auth/two-factor", { ...(cookie === undefined ? {} : { cookie }), body })

  it("enrols with a secret and an otpauth:// URI, confirms with the app's code, and GET /api/me tells it", async () => {
    const user = await owner("enrol@example.test")
    const begun = await server.request("POST", "/api/me/two-factor", { cookie: user.session, headers: XHR })
    expect(begun.status).toBe(200)
    expect(begun.body.data.secret).toMatch(/^[A-Z2-7]{32}$/)
    const parsed = OTPAuth.URI.parse(begun.body.data.otpauth_uri)
    expect(parsed.issuer).toBe("Wasl")
    expect(parsed.label).toBe("enrol@example.test")
    expect(parsed.secret.base32).toBe(begun.body.data.secret)
    // Stored sealed: the secret is nowhere in the users row.
    const [row] = await server.query("SELECT two_factor_secret FROM users WHERE email = $1", ["enrol@example.test"])
    expect(row.two_factor_secret).toMatch(/^v1\./)
    expect(row.two_factor_secret).not.toContain(begun.body.data.secret)
    expect((await server.request("GET", "/api/me", { cookie: user.session })).body.has2FA).toBe(false)

    const wrong = await server.request("POST", "/api/me/two-factor/confirm", {
      cookie: user.session,
      headers: XHR,
      body: { code: "000000" === (parsed as OTPAuth.TOTP).generate() ? "111111" : "000000" }
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body).toEqual({ message: "The code is invalid.", errors: { code: ["The code is invalid."] } })

    const confirmed = await server.request("POST", "/api/me/two-factor/confirm", {
      cookie: user.session,
      headers: XHR,
      body: { code: (parsed as OTPAuth.TOTP).generate() }
    })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.data.recovery_codes).toHaveLength(8)
    const me = await server.request("GET", "/api/me", { cookie: user.session })
    expect(me.body.has2FA).toBe(true)
    expect(me.body.two_factor_confirmed_at).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    // The recovery codes are kept only as hashes.
    const [codes] = await server.query("SELECT two_factor_recovery_codes FROM users WHERE email = $1", ["enrol@example.test"])
    expect(codes.two_factor_recovery_codes).toHaveLength(8)
    for (const code of confirmed.body.data.recovery_codes) expect(JSON.stringify(codes)).not.toContain(code)

    const again = await server.request("POST", "/api/me/two-factor", { cookie: user.session, headers: XHR })
    expect(again.status).toBe(422)
    expect(Object.keys(again.body.errors)).toEqual(["two_factor"])
  })

  it("logs in in two steps: no session from the password, then the app's code opens one, with the login's cookie", async () => {
    const user = await enrolled("login@example.test")
    const login = await server.request("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })
    expect(login.status).toBe(200)
    expect(login.body).toEqual({ two_factor: true })
    expect(setCookie(login, "wasl_session")).toBeUndefined()
    const pendingCookie = setCookie(login, "wasl_two_factor")!
    expect(pendingCookie).toMatch(/^wasl_two_factor=[A-Za-z0-9]{40};/)
    expect(pendingCookie).toMatch(/HttpOnly/i)
    expect(pendingCookie).toMatch(/Path=\/api\/auth\/two-factor/)
    expect(pendingCookie).toMatch(/Max-Age=300/)
    const pending = pendingCookie.split(";")[0]!

    const without = await secondStep(undefined, { code: user.app.generate({ timestamp: Date.now() + STEP }) })
    expect(without.status).toBe(422)
    expect(Object.keys(without.body.errors)).toEqual(["code"])
    const neither = await secondStep(pending, {})
    expect(neither.status).toBe(422)
    const wrong = await secondStep(pending, { code: "12345" })
    expect(wrong.status).toBe(422)
    expect(wrong.body).toEqual({ message: "The code is invalid.", errors: { code: ["The code is invalid."] } })

    // The next step's code: the confirming code's step is used.
    const code = user.app.generate({ timestamp: Date.now() + STEP })
    const done = await secondStep(pending, { code })
    expect(done.status).toBe(200)
    expect(done.body.data).toMatchObject({ email: user.email, has2FA: true })
    const session = setCookie(done, "wasl_session")!
    expect(session).toMatch(/^wasl_session=[A-Za-z0-9]{40};/)
    expect(session).toMatch(/Max-Age=1209600/)
    expect(setCookie(done, "wasl_two_factor")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
    const me = await server.request("GET", "/api/me", { cookie: session.split(";")[0]! })
    expect(me.status).toBe(200)
    expect(me.body.email).toBe(user.email)

    // The pending login is used up, and the code is not taken again for another login.
    expect((await secondStep(pending, { code })).status).toBe(422)
    const replay = await secondStep(await passwordStep(user), { code })
    expect(replay.status).toBe(422)
    expect(replay.body.errors).toEqual({ code: ["The code is invalid."] })
  })

  it("allows 5 attempts per pending login, then asks for the password again", async () => {
    const user = await enrolled("attempts@example.test")
    const pending = await passwordStep(user)
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await secondStep(pending, { code: "000001" })).status).toBe(422)
    }
    const spent = await secondStep(pending, { recovery_code: user.recoveryCodes[0] })
    expect(spent.status).toBe(422)
    expect(spent.body).toEqual({
      message: "The login has expired or had too many attempts: log in again.",
      errors: { recovery_code: ["The login has expired or had too many attempts: log in again."] }
    })
    // The recovery code was not spent by the refused attempt.
    expect((await secondStep(await passwordStep(user), { recovery_code: user.recoveryCodes[0] })).status).toBe(200)
  })

  it("takes a recovery code once", async () => {
    const user = await enrolled("recovery@example.test")
    const [code] = user.recoveryCodes
    const done = await secondStep(await passwordStep(user), { recovery_code: code })
    expect(done.status).toBe(200)
    expect(cookiePair(done, "wasl_session")).toMatch(/^wasl_session=/)
    const used = await secondStep(await passwordStep(user), { recovery_code: code })
    expect(used.status).toBe(422)
    expect(used.body).toEqual({
      message: "The recovery code is invalid.",
      errors: { recovery_code: ["The recovery code is invalid."] }
    })
  })

  it("turns off with the password only; then login opens a session at once", async () => {
    const user = await enrolled("off@example.test")
    const wrong = await server.request("DELETE", "/api/me/two-factor", {
      cookie: user.session,
      headers: XHR,
      body: { password: "not it" }
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body).toEqual({ message: "The password is incorrect.", errors: { password: ["The password is incorrect."] } })
    const off = await server.request("DELETE", "/api/me/two-factor", {
      cookie: user.session,
      headers: XHR,
      body: { password: user.password }
    })
    expect(off.status).toBe(204)
    const me = await server.request("GET", "/api/me", { cookie: user.session })
    expect(me.body.has2FA).toBe(false)
    expect(me.body.two_factor_confirmed_at).toBeNull()
    const login = await server.request("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })
    expect(login.status).toBe(200)
    expect(login.body.data.email).toBe(user.email)
    expect(cookiePair(login, "wasl_session")).toMatch(/^wasl_session=/)
  })
})
