/**
 * Several accounts per user, their settings, e-mail change and verification, and who did what,
 * over HTTP on each database: switching a session (never a token) and what lists show after,
 * opening an account, the settings' 422s, a password change ending the other sessions and the
 * pending two-factor logins, the e-mail links followed from the mail outbox, created_by on
 * contacts made by the API, batches, imports and OTP sends, and last_used moving with token use.
 */
import { existsSync, readFileSync } from "node:fs"
import * as OTPAuth from "otpauth"
import { addOtpCredits } from "@wasl/core/Accounts"
import { processNextImport } from "@wasl/core/Imports"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Reply } from "./support/client.ts"
import { authenticationTemplate, createBroadcast, createPlatform, createToken } from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const XHR = { "x-requested-with": "XMLHttpRequest" }
const cookieOf = (reply: Reply, name = "wasl_session") =>
  reply.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))?.split(";")[0]

describe.each(DATABASES)("several accounts, settings and e-mail over HTTP on %s", (database) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(database)
  })
  afterAll(async () => {
    await server?.close()
  })

  const logIn = async (email: string, password: string) => {
    const reply = await server.request("POST", "/api/auth/login", { body: { email, password } })
    expect(reply.status).toBe(200)
    return cookieOf(reply)!
  }
  /** An owner with a token and a session. */
  const owner = async (email: string) => {
    const password = `${email}-password`
    const created = await server.bootstrap({ email, password })
    return { ...created, email, password, session: await logIn(email, password) }
  }
  const asSession = (cookie: string) => ({ cookie, headers: XHR })
  const mails = (): Array<{ to: string; subject: string; text: string }> =>
    existsSync(server.mailOutbox)
      ? readFileSync(server.mailOutbox, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
      : []
  const lastTokenTo = (to: string) => {
    const mail = mails().filter((m) => m.to === to).at(-1)!
    return /token=([A-Za-z0-9]+)/.exec(mail.text)![1]!
  }

  describe("several accounts", () => {
    it("opens an account from a session (201, free, its creator the first administrator); a token cannot (403)", async () => {
      const me = await owner("open-account@example.test")
      const opened = await server.request("POST", "/api/accounts", { ...asSession(me.session), body: { name: " Branch " } })
      expect(opened.status).toBe(201)
      expect(opened.body.message).toBe("Entity was created Successfully")
      expect(opened.body.data).toMatchObject({ name: "Branch", plan: "free", pivot: { user_id: me.user_id, status: "active" } })
      const [team] = await server.query("SELECT name, permissions FROM teams WHERE account_id = $1", [opened.body.data.id])
      expect(team.name).toBe("Administrators")
      expect(team.permissions).toContain("account-manage")
      const [sub] = await server.query("SELECT status FROM subscriptions WHERE account_id = $1", [opened.body.data.id])
      expect(sub.status).toBe("active")

      const byToken = await server.request("POST", "/api/accounts", { token: me.token, body: { name: "No" } })
      expect(byToken.status).toBe(403)
      const unnamed = await server.request("POST", "/api/accounts", { ...asSession(me.session), body: { name: "" } })
      expect(unnamed.status).toBe(422)
      expect(unnamed.body).toEqual({ message: "The name field is required.", errors: { name: ["The name field is required."] } })

      const listed = await server.request("GET", "/api/me/accounts", { cookie: me.session })
      expect(listed.status).toBe(200)
      expect(listed.body.data.map((a: any) => a.id).sort()).toEqual([me.account_id, opened.body.data.id].sort())
      expect(listed.body.data[0]).toHaveProperty("pivot.last_used")
    })

    it("switches a session; GET /api/me and every list then show the new account only; a token cannot switch", async () => {
      const me = await owner("switch@example.test")
      const first = await server.request("POST", "/api/contacts", { token: me.token, body: { firstname: "First's" } })
      expect(first.status).toBe(201)
      const second = (await server.request("POST", "/api/accounts", { ...asSession(me.session), body: { name: "Second" } })).body.data

      const switched = await server.request("PUT", "/api/me/current-account", { ...asSession(me.session), body: { account_id: second.id } })
      expect(switched.status).toBe(200)
      expect(switched.body.data.account.id).toBe(second.id)
      const shown = await server.request("GET", "/api/me", { cookie: me.session })
      expect(shown.body.account).toMatchObject({ id: second.id, plan: "free", pivot: { account_id: second.id } })
      expect(shown.body.teams.map((t: any) => t.account_id)).toEqual([second.id])

      const empty = await server.request("GET", "/api/contacts", { cookie: me.session })
      expect(empty.body.meta.total).toBe(0)
      expect((await server.request("GET", `/api/contacts/${first.body.data.properties._id}`, { cookie: me.session })).status).toBe(404)
      await server.request("POST", "/api/contacts", { ...asSession(me.session), body: { firstname: "Second's" } })
      const inSecond = await server.request("GET", "/api/contacts", { cookie: me.session })
      expect(inSecond.body.data.map((r: any) => r.properties.firstname)).toEqual(["Second's"])
      // The token stays in the first account.
      const inFirst = await server.request("GET", "/api/contacts", { token: me.token })
      expect(inFirst.body.data.map((r: any) => r.properties.firstname)).toEqual(["First's"])
      expect((await server.request("GET", "/api/me", { token: me.token })).body.account.id).toBe(me.account_id)

      const byToken = await server.request("PUT", "/api/me/current-account", { token: me.token, body: { account_id: second.id } })
      expect(byToken.status).toBe(403)
      expect((await server.request("GET", "/api/me", { token: me.token })).body.account.id).toBe(me.account_id)
    })

    it("switching to an account the user is not an active member of is 404, and the session stays", async () => {
      const me = await owner("not-mine@example.test")
      const stranger = await server.bootstrap({ email: "stranger@example.test", password: "stranger-password" })
      const refused = await server.request("PUT", "/api/me/current-account", {
        ...asSession(me.session),
        body: { account_id: stranger.account_id }
      })
      expect(refused.status).toBe(404)
      expect(refused.body).toEqual({ message: "Not found." })
      expect((await server.request("PUT", "/api/me/current-account", { ...asSession(me.session), body: { account_id: 987654 } })).status)
        .toBe(404)
      const second = (await server.request("POST", "/api/accounts", { ...asSession(me.session), body: { name: "Later suspended" } })).body
        .data
      await server.query("UPDATE account_user SET status = 'suspended' WHERE account_id = $1", [second.id])
      expect((await server.request("PUT", "/api/me/current-account", { ...asSession(me.session), body: { account_id: second.id } })).status)
        .toBe(404)
      expect((await server.request("GET", "/api/me", { cookie: me.session })).body.account.id).toBe(me.account_id)
      const notAnId = await server.request("PUT", "/api/me/current-account", { ...asSession(me.session), body: { account_id: "x" } })
      expect(notAnId.status).toBe(422)
      expect(Object.keys(notAnId.body.errors)).toEqual(["account_id"])
    })
  })

  describe("settings", () => {
    it("PUT /api/account sets the settings in canonical form (account-manage), 422 with every field's message", async () => {
      const me = await owner("settings@example.test")
      const changed = await server.request("PUT", "/api/account", {
        token: me.token,
        body: { name: "Acme KSA", timeZone: "asia/riyadh", calendar: "islamic-umalqura", hour12: true, locale: "ar-sa", currency: "sar", logo: "https://example.com/l.png" }
      })
      expect(changed.status).toBe(200)
      expect(changed.body.message).toBe("Entity was modified Successfully")
      expect(changed.body.data.account).toMatchObject({
        name: "Acme KSA",
        timeZone: "Asia/Riyadh",
        calendar: "islamic-umalqura",
        hour12: true,
        locale: "ar-SA",
        currency: "SAR",
        logo: "https://example.com/l.png",
        industry: null
      })
      expect((await server.request("GET", "/api/me", { token: me.token })).body.account.currency).toBe("SAR")

      const bad = await server.request("PUT", "/api/account", {
        token: me.token,
        body: { timeZone: "Nowhere/City", currency: "SARR", locale: "??", logo: "http://example.com/l.png", hour12: "yes" }
      })
      expect(bad.status).toBe(422)
      expect(Object.keys(bad.body.errors).sort()).toEqual(["hour12"])
      const invalid = await server.request("PUT", "/api/account", {
        token: me.token,
        body: { timeZone: "Nowhere/City", currency: "SARR", locale: "??", logo: "http://example.com/l.png" }
      })
      expect(invalid.status).toBe(422)
      expect(invalid.body.errors).toEqual({
        logo: ["The logo field must start with one of the following: https://."],
        timeZone: ["The timeZone field must be a valid IANA time zone, such as Asia/Riyadh."],
        locale: ["The locale field must be a BCP 47 language tag."],
        currency: ["The currency field must be an ISO 4217 currency code, such as SAR."]
      })
      expect(invalid.body.message).toBe("The logo field must start with one of the following: https://.")

      const limited = await createToken(server, me.token, ["contact-index"])
      expect((await server.request("PUT", "/api/account", { token: limited, body: { name: "Mine" } })).status).toBe(403)
    })

    it("PUT /api/me/preferences sets the caller's own pivot settings", async () => {
      const me = await owner("preferences@example.test")
      const changed = await server.request("PUT", "/api/me/preferences", {
        ...asSession(me.session),
        body: { timeZone: "Europe/Paris", hour12: true, locale: "fr-fr", currency: "eur" }
      })
      expect(changed.status).toBe(200)
      expect(changed.body.data.account.pivot).toMatchObject({ timeZone: "Europe/Paris", hour12: true, locale: "fr-FR", currency: "EUR" })
      expect(changed.body.data.account.timeZone).toBeNull()
      const bad = await server.request("PUT", "/api/me/preferences", { token: me.token, body: { timeZone: "Europe/Nowhere" } })
      expect(bad.status).toBe(422)
      expect(bad.body.errors).toEqual({ timeZone: ["The timeZone field must be a valid IANA time zone, such as Asia/Riyadh."] })
    })
  })

  describe("password and e-mail", () => {
    it("a password change ends the other sessions and the pending two-factor logins, and keeps this session", async () => {
      const me = await owner("password-2fa@example.test")
      const begun = await server.request("POST", "/api/me/two-factor", asSession(me.session))
      const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begun.body.data.secret) })
      expect((await server.request("POST", "/api/me/two-factor/confirm", { ...asSession(me.session), body: { code: app.generate() } })).status)
        .toBe(200)
      const pending = await server.request("POST", "/api/auth/login", { body: { email: me.email, password: me.password } })
      expect(pending.body).toEqual({ two_factor: true })
      const challenge = cookieOf(pending, "wasl_two_factor")!

      const changed = await server.request("PUT", "/api/me/password", {
        ...asSession(me.session),
        body: { current_password: me.password, password: "a brand new password" }
      })
      expect(changed.status).toBe(204)
      expect((await server.request("GET", "/api/me", { cookie: me.session })).status).toBe(200)
      const completed = await server.request("POST", "/api/auth/two-factor", { cookie: challenge, body: { code: app.generate() } })
      expect(completed.status).toBe(422)
      expect(cookieOf(completed)).toBeUndefined()
    })

    it("changes the e-mail through the link mailed to the new address, once; a taken address is 422", async () => {
      const me = await owner("old-address@example.test")
      await server.bootstrap({ email: "taken-address@example.test", password: "taken-password" })
      const noPassword = await server.request("PUT", "/api/me/email", { ...asSession(me.session), body: { email: "new-address@example.test" } })
      expect(noPassword.status).toBe(422)
      expect(noPassword.body.errors).toEqual({ password: ["The password field is required."] })
      const taken = await server.request("PUT", "/api/me/email", {
        ...asSession(me.session),
        body: { email: "TAKEN-address@example.test", password: me.password }
      })
      expect(taken.status).toBe(422)
      expect(taken.body.errors).toEqual({ email: ["The email has already been taken."] })

      const asked = await server.request("PUT", "/api/me/email", {
        ...asSession(me.session),
        body: { email: "new-address@example.test", password: me.password }
      })
      expect(asked.status).toBe(200)
      expect(asked.body.data).toMatchObject({ email: "old-address@example.test", change_email_to: "new-address@example.test" })
      expect((await server.request("GET", "/api/me", { cookie: me.session })).body.change_email_to).toBe("new-address@example.test")
      const mail = mails().filter((m) => m.to === "new-address@example.test").at(-1)!
      expect(mail.subject).toBe("Confirm your new e-mail address")
      expect(mail.text).toContain("/email/confirm?token=")
      const token = lastTokenTo("new-address@example.test")
      const [row] = await server.query("SELECT token_hash FROM email_tokens WHERE purpose = 'change' AND email = $1", ["new-address@example.test"])
      expect(row.token_hash).not.toBe(token)

      const confirmed = await server.request("POST", "/api/me/email/confirm", { body: { token } })
      expect(confirmed.status).toBe(200)
      expect(confirmed.body.data).toMatchObject({ email: "new-address@example.test", change_email_to: null })
      expect(confirmed.body.data.email_verified_at).toMatch(/Z$/)
      expect((await server.request("POST", "/api/me/email/confirm", { body: { token } })).body).toEqual({
        message: "This link is invalid or has expired.",
        errors: { token: ["This link is invalid or has expired."] }
      })
      expect((await server.request("POST", "/api/auth/login", { body: { email: me.email, password: me.password } })).status).toBe(422)
      await logIn("new-address@example.test", me.password)
    })

    it("verifies the e-mail through the link mailed to it; a verified address is not mailed again", async () => {
      const me = await owner("verify-me@example.test")
      const sent = await server.request("POST", "/api/me/email/verify", asSession(me.session))
      expect(sent.status).toBe(200)
      expect(sent.body.message).toBe("A verification link was sent to your e-mail address.")
      const token = lastTokenTo("verify-me@example.test")
      const wrongKind = await server.request("POST", "/api/me/email/confirm", { body: { token } })
      expect(wrongKind.status).toBe(422)
      const verified = await server.request("POST", "/api/me/email/verify/confirm", { body: { token } })
      expect(verified.status).toBe(200)
      expect((await server.request("GET", "/api/me", { token: me.token })).body.email_verified_at).toMatch(/Z$/)
      const count = mails().length
      const again = await server.request("POST", "/api/me/email/verify", { token: me.token })
      expect(again.body.message).toBe("Your e-mail address is already verified.")
      expect(mails().length).toBe(count)
    })
  })

  describe("who did what", () => {
    it("created_by is the acting user on contacts made by the API, a batch, an import (its uploader) and an OTP send", async () => {
      const me = await owner("creators@example.test")
      const single = await server.request("POST", "/api/contacts", { token: me.token, body: { firstname: "Api" } })
      expect(single.body.data.properties.created_by).toBe(me.user_id)
      const batch = await server.request("POST", "/api/contacts/batch/create", {
        token: me.token,
        body: { inputs: [{ properties: { firstname: "Batch" } }] }
      })
      expect(batch.status).toBe(201)
      expect(batch.body.data[0].properties.created_by).toBe(me.user_id)

      const form = new FormData()
      form.append("file", new Blob(["firstname\r\nImported\r\n"], { type: "text/csv" }), "people.csv")
      const uploaded = await fetch(`${server.url}/api/contacts/imports`, {
        method: "POST",
        headers: { authorization: `Bearer ${me.token}`, accept: "application/json" },
        body: form
      })
      expect(uploaded.status).toBe(202)
      while (await server.run(processNextImport())) {
        // next import
      }

      await server.run(addOtpCredits(me.account_id, 5))
      const platform = await createPlatform(server, me.token)
      const otp = await createBroadcast(server, me.token, platform.id, authenticationTemplate())
      const otpToken = await createToken(server, me.token, ["broadcast-send-otp"])
      const sent = await server.request("POST", `/api/broadcasts/${otp.id}/send-otp`, { token: otpToken, body: { to: "+966512340000" } })
      expect(sent.status).toBe(200)

      const listed = await server.request("GET", "/api/contacts?per_page=100", { token: me.token })
      const byName = Object.fromEntries(listed.body.data.map((r: any) => [r.properties.firstname ?? r.properties.whatsapp_number, r.properties.created_by]))
      expect(byName).toEqual({ Api: me.user_id, Batch: me.user_id, Imported: me.user_id, "+966512340000": me.user_id })
    })

    it("token use moves the member's last_used, at most once a minute", async () => {
      const me = await owner("last-used@example.test")
      const [token] = await server.query("SELECT id FROM api_tokens WHERE account_id = $1", [me.account_id])
      const lastUsed = async () =>
        Number((await server.query(
          "SELECT (extract(epoch FROM last_used) * 1000)::float8 AS ms FROM account_user WHERE account_id = $1",
          [me.account_id]
        ))[0].ms)
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
      // The clock, as the member and the token see it: last used an hour ago, by a token last used an hour ago.
      const past = new Date(Date.now() - 3_600_000)
      await server.query("UPDATE account_user SET last_used = $2 WHERE account_id = $1", [me.account_id, past])
      await server.query("UPDATE api_tokens SET last_used_at = $2 WHERE id = $1", [token.id, past])
      await pause(100) // the caches hear of it
      expect((await server.request("GET", "/api/contacts", { token: me.token })).status).toBe(200)
      for (let i = 0; i < 100 && (await lastUsed()) <= past.getTime(); i++) await pause(20)
      expect(await lastUsed()).toBeGreaterThan(Date.now() - 60_000)

      // Used 30 seconds ago: another request within the minute (from a token not used for an hour) does not move it.
      const recent = new Date(Math.floor((Date.now() - 30_000) / 1000) * 1000)
      await server.query("UPDATE account_user SET last_used = $2 WHERE account_id = $1", [me.account_id, recent])
      await server.query("UPDATE api_tokens SET last_used_at = $2 WHERE id = $1", [token.id, past])
      await pause(100)
      expect((await server.request("GET", "/api/contacts", { token: me.token })).status).toBe(200)
      await pause(300)
      expect(await lastUsed()).toBe(recent.getTime())
      expect((await server.request("GET", "/api/me", { token: me.token })).body.account.pivot.last_used).toMatch(
        /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
      )
    })
  })
})
