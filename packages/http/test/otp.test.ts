/**
 * One-time passwords over HTTP, on PGlite and PostgreSQL (sessions refused; the cooldown, verify,
 * read, masking and credits): every status of send-otp (200, 402, 403, 404, 422, 429), relay and managed modes,
 * contact creation for unknown numbers, credits charged exactly once, never on rejection and never
 * below zero under concurrent sends, the verify state machine end to end.
 */
import { addOtpCredits } from "@wasl/core/Accounts"
import { type Principal } from "@wasl/core/Auth"
import { verifyCode } from "@wasl/core/Otp"
import { DateTime, Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import { createHmac } from "node:crypto"
import parsePrometheusTextFormat from "parse-prometheus-text-format"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  authenticationTemplate,
  bootstrapOwnerAndOther,
  countRows,
  createBroadcast,
  createContact,
  createPlatform,
  createToken,
  readOutbox,
  sessionCookie,
  utilityTemplate
} from "./support/messaging-fixtures.ts"
import { TEST_OTP_KEY } from "./support/messaging-services.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const RECORD_ID = /^[0-9a-f]{24}$/
const EXPIRES_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/

type Owner = { account_id: number; user_id: number; token: string }

const credits = async (server: TestServer, accountId: number) =>
  Number((await server.query("SELECT otp_credits FROM accounts WHERE id = $1", [accountId]))[0].otp_credits)

/** `wasl_otp_sends_total` by outcome, from the server's metrics. */
const otpSends = async (server: TestServer): Promise<Record<string, number>> => {
  const family = parsePrometheusTextFormat((await server.request("GET", "/metrics")).text)
    .find((f) => f.name === "wasl_otp_sends_total")
  return Object.fromEntries((family?.metrics ?? []).map((m) => [m.labels?.["outcome"] ?? "", Number(m.value)]))
}

const lastCode = async (server: TestServer) => (await readOutbox(server.sandboxOutbox)).at(-1).code as string

describe.each(DATABASES)("send-otp and verification over HTTP on %s", (database) => {
  let server: TestServer
  let owner: Owner
  let other: Owner
  let otpToken: string
  let authId: number
  let authDefaultId: number
  let contactId: string

  beforeAll(async () => {
    server = await startTestServer(database)
    ;({ owner, other } = await bootstrapOwnerAndOther(server, "otp"))
    await server.run(addOtpCredits(owner.account_id, 100))
    const platform = await createPlatform(server, owner.token)
    authId = (await createBroadcast(server, owner.token, platform.id, authenticationTemplate({ code_expiration_minutes: 10 }))).id
    authDefaultId = (await createBroadcast(server, owner.token, platform.id, authenticationTemplate({ name: "default_expiry" }))).id
    otpToken = await createToken(server, owner.token, ["broadcast-send-otp"])
    contactId = await createContact(server, owner.token, { firstname: "Omar", whatsapp_number: "+966511111111" })
  })
  afterAll(async () => {
    await server?.close()
  })

  let numberSeq = 0
  /** A fresh recipient number per test, so the 60-second cooldown never links tests. */
  const freshNumber = () => `+9665${String(20_000_000 + numberSeq++ + (database === "postgres" ? 5_000_000 : 0))}`

  const sendOtp = (body: Record<string, unknown>, token = otpToken, id = authId) =>
    server.request("POST", `/api/broadcasts/${id}/send-otp`, { token, body })

  it("documents every status of send-otp and verify in OpenAPI, 429 and 503 with Retry-After", async () => {
    const spec = (await server.request("GET", "/api/openapi.json")).body
    const sendOtp = spec.paths["/api/broadcasts/{id}/send-otp"].post.responses
    expect(Object.keys(sendOtp).sort()).toEqual(["200", "401", "402", "403", "404", "409", "422", "429", "503"])
    expect(JSON.stringify(sendOtp["429"]).toLowerCase()).toContain("retry-after")
    const verifyResponses = spec.paths["/api/verifications/{id}/verify"].post.responses
    expect(Object.keys(verifyResponses)).toEqual(expect.arrayContaining(["200", "403", "404", "410", "422"]))
  })

  describe("who may send (403, 404)", () => {
    it("refuses a session (403) even with the permission: send-otp takes API tokens only", async () => {
      const cookie = await sessionCookie(server, "otp-owner@example.test", "pw-owner")
      const reply = await server.request("POST", `/api/broadcasts/${authId}/send-otp`, {
        cookie,
        headers: { "x-requested-with": "XMLHttpRequest" },
        body: { to: freshNumber() }
      })
      expect(reply.status).toBe(403)
      const verify = await server.request("POST", `/api/verifications/${"a".repeat(24)}/verify`, {
        cookie,
        headers: { "x-requested-with": "XMLHttpRequest" },
        body: { code: "123456" }
      })
      expect(verify.status).toBe(403)
    })

    it("refuses a token without broadcast-send-otp (403)", async () => {
      const sender = await createToken(server, owner.token, ["broadcast-send"])
      expect((await sendOtp({ to: freshNumber() }, sender)).status).toBe(403)
    })

    it("refuses a template that is not an authentication template (403)", async () => {
      const platform = await createPlatform(server, owner.token)
      const utility = await createBroadcast(server, owner.token, platform.id, utilityTemplate({ name: "not_auth" }))
      const reply = await sendOtp({ to: freshNumber() }, otpToken, utility.id)
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual({ message: "The template is not an approved authentication template." })
    })

    it("answers 404 for an unknown template and for another account's", async () => {
      expect((await sendOtp({ to: freshNumber() }, otpToken, 999_999)).status).toBe(404)
      expect((await sendOtp({ to: freshNumber() }, other.token)).status).toBe(404)
    })
  })

  describe("validation (422: recipient, number and code limits)", () => {
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, Record<string, ReadonlyArray<string>>]> = [
      ["neither recipient", {}, {
        contact_id: ["The contact_id field is required when to is not present."],
        to: ["The to field is required when contact_id is not present."]
      }],
      ["both recipients (neither silently wins)", { contact_id: "a".repeat(24), to: "+966500000000" }, {
        contact_id: ["The contact_id field prohibits to from being present."],
        to: ["The to field prohibits contact_id from being present."]
      }],
      ["a to of 5 digits", { to: "12345" }, { to: ["The to field format is invalid."] }],
      ["a to of 21 digits", { to: "1".repeat(21) }, { to: ["The to field format is invalid."] }],
      ["a to with letters", { to: "+9665abc0000" }, { to: ["The to field format is invalid."] }],
      ["a code with punctuation", { to: "+966500000000", code: "12-34" }, {
        code: ["The code field must only contain letters and numbers."]
      }],
      ["a code of 3 characters", { to: "+966500000000", code: "123" }, {
        code: ["The code field must be between 4 and 15 characters."]
      }],
      ["a code of 16 characters", { to: "+966500000000", code: "A".repeat(16) }, {
        code: ["The code field must be between 4 and 15 characters."]
      }]
    ]
    for (const [name, body, errors] of cases) {
      it(`refuses ${name}`, async () => {
        const before = await credits(server, owner.account_id)
        const reply = await sendOtp(body)
        expect(reply.status).toBe(422)
        expect(reply.body.errors).toEqual(errors)
        expect(reply.body.message).toBe(Object.values(errors)[0]![0])
        expect(await credits(server, owner.account_id)).toBe(before)
      })
    }

    it("refuses a contact_id of another account (422)", async () => {
      const foreign = await createContact(server, other.token, { firstname: "F", whatsapp_number: "+966522222222" })
      const reply = await sendOtp({ contact_id: foreign })
      expect(reply.status).toBe(422)
      expect(reply.body.errors).toEqual({ contact_id: ["The selected contact_id is invalid."] })
    })

    it("accepts the limits: 6 and 20 digits, codes of 4 and 15 letters and digits", async () => {
      expect((await sendOtp({ to: "123456", code: "Ab12" })).status).toBe(200)
      expect((await sendOtp({ to: "+" + "7".repeat(20), code: "A1b2C3d4E5f6G7h" })).status).toBe(200)
    })
  })

  describe("relay mode (rule 2)", () => {
    it("delivers the caller's code, answers { data } only, masks it, issues no verification, charges 1 credit", async () => {
      const before = await credits(server, owner.account_id)
      const verifications = await countRows(server, "otp_verifications", owner.account_id)
      const relayContact = await createContact(server, owner.token, { firstname: "Relay", whatsapp_number: "+966511111112" })
      const reply = await sendOtp({ contact_id: relayContact, code: "Relay42" })
      expect(reply.status).toBe(200)
      expect(Object.keys(reply.body)).toEqual(["data"])
      expect(reply.text).not.toContain("Relay42")
      expect(reply.body.data.body).toBe("****** is your verification code.")
      expect(reply.body.data).toMatchObject({ status: "sent", broadcast_id: authId, receiver_third_party_id: "966511111112" })
      expect(await lastCode(server)).toBe("Relay42")
      expect(server.logs.join("\n")).not.toContain("Relay42")
      expect(await credits(server, owner.account_id)).toBe(before - 1)
      expect(await countRows(server, "otp_verifications", owner.account_id)).toBe(verifications)
      const [stored] = await server.query("SELECT body FROM messages WHERE account_id = $1 AND id = $2", [
        owner.account_id,
        reply.body.data._id
      ])
      expect(stored.body).toBe("****** is your verification code.")
    })
  })

  describe("managed mode (code, expiry, masking, contact creation)", () => {
    it("generates a 6-digit code, stores only its HMAC, answers verification_id and expires_at (+10 min)", async () => {
      const before = await credits(server, owner.account_id)
      const sentAt = Date.now()
      const reply = await sendOtp({ contact_id: contactId })
      expect(reply.status).toBe(200)
      expect(Object.keys(reply.body).sort()).toEqual(["data", "expires_at", "verification_id"])
      const { verification_id: id, expires_at } = reply.body
      expect(id).toMatch(RECORD_ID)
      expect(expires_at).toMatch(EXPIRES_AT)
      const expires = Date.parse(expires_at)
      expect(expires).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) * 1000 + 10 * 60_000 - 1000)
      expect(expires).toBeLessThanOrEqual(Date.now() + 10 * 60_000)
      const code = await lastCode(server)
      expect(code).toMatch(/^\d{6}$/)
      expect(reply.text).not.toContain(code)
      expect(reply.body.data.body).toBe("****** is your verification code.")
      expect(await credits(server, owner.account_id)).toBe(before - 1)
      const [row] = await server.query(
        "SELECT code_hash, status, attempts, recipient FROM otp_verifications WHERE account_id = $1 AND id = $2",
        [owner.account_id, id]
      )
      expect(row).toMatchObject({ status: "live", attempts: 0, recipient: "+966511111111" })
      expect(row.code_hash).toBe(createHmac("sha256", TEST_OTP_KEY).update(id + code).digest("hex"))
      const shown = await server.request("GET", `/api/verifications/${id}`, { token: otpToken })
      expect(shown.status).toBe(200)
      expect(shown.body.data).toEqual({
        verification_id: id,
        status: "live",
        to: "+966511111111",
        contact_id: contactId,
        expires_at,
        attempts_remaining: 5
      })
      expect(shown.text).not.toContain(code)
      expect(server.logs.join("\n")).not.toContain(code)
    })

    it("uses 5 minutes when the template has no code_expiration_minutes (rule 6)", async () => {
      const sentAt = Date.now()
      const reply = await sendOtp({ to: freshNumber() }, otpToken, authDefaultId)
      expect(reply.status).toBe(200)
      const expires = Date.parse(reply.body.expires_at)
      expect(expires).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) * 1000 + 5 * 60_000 - 1000)
      expect(expires).toBeLessThanOrEqual(Date.now() + 5 * 60_000)
    })

    it("finds the contact of a known number, and creates one (source whatsapp / api) for an unknown one (rule 7)", async () => {
      const knownContact = await createContact(server, owner.token, { firstname: "Known", whatsapp_number: "+966511111113" })
      const known = await sendOtp({ to: "966511111113", code: "Known1" })
      expect(known.status).toBe(200)
      expect(known.body.data.contact_id).toBe(knownContact)

      const number = freshNumber()
      const contacts = await countRows(server, "outbox_events", owner.account_id)
      const reply = await sendOtp({ to: number })
      expect(reply.status).toBe(200)
      const created = reply.body.data.contact_id
      expect(created).toMatch(RECORD_ID)
      expect(created).not.toBe(contactId)
      const contact = await server.request("GET", `/api/contacts/${created}`, { token: owner.token })
      expect(contact.status).toBe(200)
      expect(contact.body.data.properties).toMatchObject({
        whatsapp_number: number,
        original_source: "whatsapp",
        original_source_drill_down_1: "api"
      })
      const events = await server.query(
        "SELECT name FROM outbox_events WHERE account_id = $1 AND payload::text LIKE $2",
        [owner.account_id, `%${created}%`]
      )
      expect(events.map((e: { name: string }) => e.name)).toEqual(["contact-created"])
      expect(await countRows(server, "outbox_events", owner.account_id)).toBeGreaterThan(contacts)
      const verification = await server.request("GET", `/api/verifications/${reply.body.verification_id}`, { token: otpToken })
      expect(verification.body.data).toMatchObject({ to: number, contact_id: created })
    })
  })

  describe("cooldown (rule 8, WASL_OTP_COOLDOWN default 60 s)", () => {
    it("answers 429 with Retry-After for a second send to the same recipient, and does not charge it", async () => {
      const number = freshNumber()
      expect((await sendOtp({ to: number })).status).toBe(200)
      const before = await credits(server, owner.account_id)
      const again = await sendOtp({ to: number, code: "Again1" }, otpToken, authDefaultId)
      expect(again.status).toBe(429)
      expect(again.body).toEqual({ message: "A code was already sent to this recipient. Try again later." })
      const retryAfter = Number(again.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThanOrEqual(58)
      expect(retryAfter).toBeLessThanOrEqual(60)
      expect(await credits(server, owner.account_id)).toBe(before)
      // The same person by contact_id is the same recipient.
      const contact = await createContact(server, owner.token, { firstname: "C", whatsapp_number: number })
      expect((await sendOtp({ contact_id: contact })).status).toBe(429)
    })

    it("counts each send by outcome in the metrics: sent, and the cooldown's too_many_requests", async () => {
      const before = await otpSends(server)
      const number = freshNumber()
      expect((await sendOtp({ to: number })).status).toBe(200)
      expect((await sendOtp({ to: number })).status).toBe(429)
      const after = await otpSends(server)
      expect(after["sent"]).toBe((before["sent"] ?? 0) + 1)
      expect(after["too_many_requests"]).toBe((before["too_many_requests"] ?? 0) + 1)
    })

    it("keys the cooldown per account: another account may send to the same number", async () => {
      const number = freshNumber()
      expect((await sendOtp({ to: number })).status).toBe(200)
      await server.run(addOtpCredits(other.account_id, 1))
      const platform = await createPlatform(server, other.token)
      const b = await createBroadcast(server, other.token, platform.id, authenticationTemplate())
      expect((await sendOtp({ to: number }, other.token, b.id)).status).toBe(200)
    })
  })

  describe("credits (one per accepted send, 402 when none are left)", () => {
    it("answers 402 when the account has no credits, and sends nothing", async () => {
      const poor = await server.bootstrap({ email: "otp-poor@example.test", password: "pw" })
      const platform = await createPlatform(server, poor.token)
      const b = await createBroadcast(server, poor.token, platform.id, authenticationTemplate())
      const lines = (await readOutbox(server.sandboxOutbox)).length
      const number = freshNumber()
      const reply = await sendOtp({ to: number }, poor.token, b.id)
      expect(reply.status).toBe(402)
      expect(reply.body).toEqual({ message: "The account has no OTP credits left." })
      expect((await readOutbox(server.sandboxOutbox)).length).toBe(lines)
      expect(await countRows(server, "messages", poor.account_id)).toBe(0)
      // No contact was created for the unknown number either.
      const contacts = await server.request("GET", "/api/contacts", { token: poor.token })
      expect(contacts.body.meta.total).toBe(0)
      await server.run(addOtpCredits(poor.account_id, 1))
      expect((await sendOtp({ to: number }, poor.token, b.id)).status).toBe(200)
      expect(await credits(server, poor.account_id)).toBe(0)
    })

    it("does not charge a send the provider rejects: 422 on to / contact_id, no verification, no contact", async () => {
      const before = await credits(server, owner.account_id)
      const verifications = await countRows(server, "otp_verifications", owner.account_id)
      const contactsBefore = (await server.request("GET", "/api/contacts", { token: owner.token })).body.meta.total
      const reply = await sendOtp({ to: "+999500000001" })
      expect(reply.status).toBe(422)
      expect(reply.body).toEqual({
        message: "The message could not be delivered to this recipient.",
        errors: { to: ["The message could not be delivered to this recipient."] }
      })
      const unreachable = await createContact(server, owner.token, { firstname: "U", whatsapp_number: "+999500000002" })
      const byContact = await sendOtp({ contact_id: unreachable })
      expect(byContact.status).toBe(422)
      expect(Object.keys(byContact.body.errors)).toEqual(["contact_id"])
      expect(await credits(server, owner.account_id)).toBe(before)
      expect(await countRows(server, "otp_verifications", owner.account_id)).toBe(verifications)
      expect((await server.request("GET", "/api/contacts", { token: owner.token })).body.meta.total).toBe(contactsBefore + 1)
      // A rejected send does not start the cooldown.
      expect((await sendOtp({ to: "+999500000001" })).status).toBe(422)
    })
  })

  describe("verify", () => {
    const managedSend = async () => {
      const to = freshNumber()
      const reply = await sendOtp({ to })
      expect(reply.status).toBe(200)
      return { id: reply.body.verification_id as string, code: await lastCode(server), reply, to }
    }
    const verify = (id: string, code: unknown, token = otpToken) =>
      server.request("POST", `/api/verifications/${id}/verify`, { token, body: { code } })
    const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0")

    it("approves the right code once; a second verify is 410 with the status", async () => {
      const { id, code, reply, to } = await managedSend()
      const wrong = await verify(id, wrongOf(code))
      expect(wrong.status).toBe(422)
      expect(wrong.body).toEqual({ message: "The code is invalid.", errors: { code: ["The code is invalid."] }, attempts_remaining: 4 })
      const right = await verify(id, code)
      expect(right.status).toBe(200)
      expect(right.body).toEqual({
        data: {
          verification_id: id,
          status: "approved",
          to,
          contact_id: reply.body.data.contact_id,
          expires_at: reply.body.expires_at
        }
      })
      expect(right.text).not.toContain(`"${code}"`)
      const again = await verify(id, code)
      expect(again.status).toBe(410)
      expect(again.body).toEqual({ message: "The verification is no longer valid.", status: "approved" })
      const shown = await server.request("GET", `/api/verifications/${id}`, { token: otpToken })
      expect(shown.body.data).toMatchObject({ status: "approved", attempts_remaining: 4 })
    })

    it("locks after the fifth wrong code (max_attempts_reached), even against the right code", async () => {
      const { id, code } = await managedSend()
      for (let remaining = 4; remaining >= 0; remaining--) {
        const reply = await verify(id, wrongOf(code))
        expect(reply.status).toBe(422)
        expect(reply.body.attempts_remaining).toBe(remaining)
      }
      const locked = await verify(id, code)
      expect(locked.status).toBe(410)
      expect(locked.body).toEqual({ message: "The verification is no longer valid.", status: "max_attempts_reached" })
      const shown = await server.request("GET", `/api/verifications/${id}`, { token: otpToken })
      expect(shown.body.data).toMatchObject({ status: "max_attempts_reached", attempts_remaining: 0 })
    })

    it("expires at expires_at: a verify then (driven by TestClock) is 410 expired, and the read shows expired", async () => {
      const { id, code, reply } = await managedSend()
      const expiresAt = DateTime.makeUnsafe(reply.body.expires_at)
      const principal: Principal = {
        kind: "token",
        accountId: owner.account_id,
        userId: owner.user_id,
        permissions: new Set(["broadcast-send-otp"]),
        abilities: ["*"],
        tokenId: 1,
        sessionId: null
      }
      // The use-case on the server's own services, with the clock moved to just past the expiry.
      const late = await server.run(
        Effect.andThen(
          TestClock.setTime(DateTime.toEpochMillis(DateTime.addDuration(expiresAt, Duration.seconds(1)))),
          Effect.flip(verifyCode(principal, id, { code }))
        ).pipe(Effect.provide(TestClock.layer()))
      )
      expect(late).toMatchObject({ _tag: "Gone", status: "expired" })
      const shown = await server.request("GET", `/api/verifications/${id}`, { token: otpToken })
      expect(shown.body.data.status).toBe("expired")
      const again = await verify(id, code)
      expect(again.status).toBe(410)
      expect(again.body).toEqual({ message: "The verification is no longer valid.", status: "expired" })
    })

    it("answers 404 for unknown ids, malformed ids and another account's verification", async () => {
      const { id, code } = await managedSend()
      expect((await verify("f".repeat(24), "123456")).status).toBe(404)
      expect((await verify("not-an-id", "123456")).status).toBe(404)
      expect((await verify(id, code, other.token)).status).toBe(404)
      expect((await server.request("GET", `/api/verifications/${id}`, { token: other.token })).status).toBe(404)
      // The foreign attempt did not count.
      const shown = await server.request("GET", `/api/verifications/${id}`, { token: otpToken })
      expect(shown.body.data.attempts_remaining).toBe(5)
    })

    it("validates the body without using an attempt (422)", async () => {
      const { id } = await managedSend()
      const missing = await verify(id, undefined)
      expect(missing.status).toBe(422)
      expect(missing.body.errors).toEqual({ code: ["The code field is required."] })
      expect(missing.body.attempts_remaining).toBeUndefined()
      const shown = await server.request("GET", `/api/verifications/${id}`, { token: otpToken })
      expect(shown.body.data.attempts_remaining).toBe(5)
    })

    it("counts concurrent wrong attempts one by one: exactly five 422s, the rest 410", async () => {
      const { id, code } = await managedSend()
      const replies = await Promise.all(Array.from({ length: 9 }, () => verify(id, wrongOf(code))))
      const statuses = replies.map((r) => r.status)
      expect(statuses.filter((s) => s === 422)).toHaveLength(5)
      expect(statuses.filter((s) => s === 410)).toHaveLength(4)
      expect(replies.filter((r) => r.status === 422).map((r) => r.body.attempts_remaining).sort()).toEqual([0, 1, 2, 3, 4])
      const [row] = await server.query("SELECT attempts, status FROM otp_verifications WHERE account_id = $1 AND id = $2", [
        owner.account_id,
        id
      ])
      expect(row).toEqual({ attempts: 5, status: "max_attempts_reached" })
    })

    it("needs broadcast-send-otp for verify and read (403)", async () => {
      const { id, code } = await managedSend()
      const reader = await createToken(server, owner.token, ["broadcast-index"])
      expect((await verify(id, code, reader)).status).toBe(403)
      expect((await server.request("GET", `/api/verifications/${id}`, { token: reader })).status).toBe(403)
    })
  })
})

describe.each(DATABASES)("send-otp with a 1-second cooldown on %s", (database) => {
  let server: TestServer
  let owner: Owner
  let authId: number

  beforeAll(async () => {
    server = await startTestServer(database, { otpCooldown: "1 second" })
    owner = await server.bootstrap({ email: "otp-race@example.test", password: "pw" })
    const platform = await createPlatform(server, owner.token)
    authId = (await createBroadcast(server, owner.token, platform.id, authenticationTemplate())).id
  })
  afterAll(async () => {
    await server?.close()
  })

  const sendOtp = (body: Record<string, unknown>) =>
    server.request("POST", `/api/broadcasts/${authId}/send-otp`, { token: owner.token, body })
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  it("sends again once the cooldown has passed, and the new code supersedes the live one (failed)", async () => {
    await server.run(addOtpCredits(owner.account_id, 2))
    const first = await sendOtp({ to: "+966533333333" })
    expect(first.status).toBe(200)
    const firstCode = await lastCode(server)
    expect((await sendOtp({ to: "+966533333333" })).status).toBe(429)
    await sleep(1100)
    const second = await sendOtp({ to: "+966533333333" })
    expect(second.status).toBe(200)
    const old = await server.request("GET", `/api/verifications/${first.body.verification_id}`, { token: owner.token })
    expect(old.body.data.status).toBe("failed")
    const stale = await server.request("POST", `/api/verifications/${first.body.verification_id}/verify`, {
      token: owner.token,
      body: { code: firstCode }
    })
    expect(stale.status).toBe(410)
    expect(stale.body.status).toBe("failed")
    const current = await server.request("GET", `/api/verifications/${second.body.verification_id}`, { token: owner.token })
    expect(current.body.data.status).toBe("live")
    const live = await server.query("SELECT count(*)::int AS n FROM otp_verifications WHERE account_id = $1 AND status = 'live'", [
      owner.account_id
    ])
    expect(live[0].n).toBe(1)
  })

  it("charges concurrent sends racing for one credit exactly once and never goes below zero", async () => {
    const balance = await credits(server, owner.account_id)
    expect(balance).toBe(0)
    await server.run(addOtpCredits(owner.account_id, 1))
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => sendOtp({ to: `+96654000000${String(i).padStart(2, "0")}` }))
    )
    const statuses = replies.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 402)).toHaveLength(11)
    expect(await credits(server, owner.account_id)).toBe(0)
    expect(await countRows(server, "otp_verifications", owner.account_id)).toBe(2 + 1)
  })

  it("lets only one of concurrent sends to one recipient through the cooldown, charging only it", async () => {
    await sleep(1100)
    await server.run(addOtpCredits(owner.account_id, 10))
    const replies = await Promise.all(Array.from({ length: 8 }, () => sendOtp({ to: "+966550000000" })))
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 429)).toHaveLength(7)
    expect(await credits(server, owner.account_id)).toBe(9)
  })
})
