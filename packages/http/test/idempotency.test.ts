/**
 * The Idempotency-Key header over HTTP, on PGlite and PostgreSQL: a retry replays the first answer
 * (status, body, `Idempotent-Replayed: true`) and changes nothing — no second record, event,
 * charge or message; another request with the key is a 422, a request while the first runs a
 * 409; keys belong to one token (or one user's sessions) in one account; error answers are not
 * kept; a client whose connection dropped mid-create retries without a duplicate.
 */
import { addOtpCredits } from "@wasl/core"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  authenticationTemplate,
  countRows,
  createBroadcast,
  createPlatform,
  createToken,
  readOutbox,
  sessionCookie,
  utilityTemplate
} from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const KEY_ERROR = "This Idempotency-Key was already used with another request."

describe.each(DATABASES)("Idempotency-Key over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let keySeq = 0
  /** A key no other test uses. */
  const freshKey = () => `key-${database}-${keySeq++}`

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "idem-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "idem-other@example.test", password: "pw-other" })
  })
  afterAll(async () => {
    await server?.close()
  })

  const outboxCount = async (accountId: number) => countRows(server, "outbox_events", accountId)
  const contacts = async (accountId: number) => countRows(server, "contacts", accountId)

  const createContact = (key: string | undefined, body: unknown, token = owner.token) =>
    server.request("POST", "/api/contacts", {
      token,
      body,
      ...(key === undefined ? {} : { headers: { "idempotency-key": key } })
    })

  it("replays a create: same status and body, marked, with no second record or event", async () => {
    const key = freshKey()
    const [contactsBefore, eventsBefore] = [await contacts(owner.account_id), await outboxCount(owner.account_id)]
    const first = await createContact(key, { firstname: "Hind", email: "hind@example.test" })
    expect(first.status).toBe(201)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    const again = await createContact(key, { email: "hind@example.test", firstname: "Hind" })
    expect(again.status).toBe(201)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.headers.get("content-type")).toMatch(/^application\/json/)
    expect(again.text).toBe(first.text)
    expect(await contacts(owner.account_id)).toBe(contactsBefore + 1)
    expect(await outboxCount(owner.account_id)).toBe(eventsBefore + 1)
  })

  it("without the header, runs every request and keeps nothing", async () => {
    const keys = async () => Number((await server.query("SELECT count(*)::int AS n FROM idempotency_keys"))[0].n)
    const [contactsBefore, keysBefore] = [await contacts(owner.account_id), await keys()]
    for (let i = 0; i < 2; i++) {
      const reply = await createContact(undefined, { firstname: "Unkeyed" })
      expect(reply.status).toBe(201)
      expect(reply.headers.get("idempotent-replayed")).toBeNull()
    }
    expect(await contacts(owner.account_id)).toBe(contactsBefore + 2)
    expect(await keys()).toBe(keysBefore)
  })

  it("replays updates and deletes too", async () => {
    const id = (await createContact(undefined, { firstname: "Rami" })).body.data.properties._id
    const key = freshKey()
    const eventsBefore = await outboxCount(owner.account_id)
    const put = () =>
      server.request("PUT", `/api/contacts/${id}`, { token: owner.token, body: { lastname: "Saleh" }, headers: { "idempotency-key": key } })
    const updated = await put()
    expect(updated.status).toBe(200)
    const replayed = await put()
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expect(replayed.body).toEqual(updated.body)
    const deleteKey = freshKey()
    const del = () => server.request("DELETE", `/api/contacts/${id}`, { token: owner.token, headers: { "idempotency-key": deleteKey } })
    expect((await del()).status).toBe(200)
    const deletedAgain = await del()
    expect(deletedAgain.status).toBe(200)
    expect(deletedAgain.headers.get("idempotent-replayed")).toBe("true")
    expect(await outboxCount(owner.account_id)).toBe(eventsBefore + 2)
  })

  it("answers 422 for the key with another body, path or method, changing nothing", async () => {
    const key = freshKey()
    expect((await createContact(key, { firstname: "Lina" })).status).toBe(201)
    const before = await contacts(owner.account_id)
    for (
      const reply of [
        await createContact(key, { firstname: "Lina", lastname: "Other" }),
        await server.request("POST", "/api/companies", { token: owner.token, body: { firstname: "Lina" }, headers: { "idempotency-key": key } })
      ]
    ) {
      expect(reply.status).toBe(422)
      expect(reply.body).toEqual({ message: KEY_ERROR, errors: { "Idempotency-Key": [KEY_ERROR] } })
    }
    expect(await contacts(owner.account_id)).toBe(before)
  })

  it("answers 422 for a key that is empty, too long or not visible ASCII", async () => {
    const before = await contacts(owner.account_id)
    for (const key of ["", "x".repeat(256), "with space", "cl\u00e9"]) {
      const reply = await server.request("POST", "/api/contacts", {
        token: owner.token,
        body: { firstname: "Bad key" },
        headers: { "idempotency-key": key }
      })
      expect(reply.status, JSON.stringify(key)).toBe(422)
      expect(Object.keys(reply.body.errors)).toEqual(["Idempotency-Key"])
    }
    expect((await createContact("x".repeat(255), { firstname: "Longest key" })).status).toBe(201)
    expect(await contacts(owner.account_id)).toBe(before + 1)
  })

  it("keeps no error answer: the key then serves the corrected request", async () => {
    const key = freshKey()
    const refused = await createContact(key, { email: "not an email" })
    expect(refused.status).toBe(422)
    expect(refused.headers.get("idempotent-replayed")).toBeNull()
    const fixed = await createContact(key, { email: "fixed@example.test" })
    expect(fixed.status).toBe(201)
    expect((await createContact(key, { email: "fixed@example.test" })).headers.get("idempotent-replayed")).toBe("true")
  })

  it("keeps keys apart per token, per user's sessions and per account", async () => {
    const key = freshKey()
    const second = await createToken(server, owner.token, ["*"])
    const cookie = await sessionCookie(server, "idem-owner@example.test", "pw-owner")
    const before = await contacts(owner.account_id)
    const body = { firstname: "Same key" }
    const ids = new Set<string>()
    for (
      const reply of [
        await createContact(key, body),
        await createContact(key, body, second),
        await server.request("POST", "/api/contacts", {
          cookie,
          body,
          headers: { "idempotency-key": key, "x-requested-with": "XMLHttpRequest" }
        }),
        await createContact(key, body, other.token)
      ]
    ) {
      expect(reply.status).toBe(201)
      expect(reply.headers.get("idempotent-replayed")).toBeNull()
      ids.add(reply.body.data.properties._id)
    }
    expect(ids.size).toBe(4)
    expect(await contacts(owner.account_id)).toBe(before + 3)
    // Another session of the same user shares the user's keys.
    const cookie2 = await sessionCookie(server, "idem-owner@example.test", "pw-owner")
    const replay = await server.request("POST", "/api/contacts", {
      cookie: cookie2,
      body,
      headers: { "idempotency-key": key, "x-requested-with": "XMLHttpRequest" }
    })
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
  })

  it("replays a token creation with its secret, which is kept sealed", async () => {
    const key = freshKey()
    const create = () =>
      server.request("POST", "/api/tokens", { token: owner.token, body: { name: "ci", abilities: ["*"] }, headers: { "idempotency-key": key } })
    const first = await create()
    expect(first.status).toBe(201)
    const again = await create()
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body.token).toBe(first.body.token)
    const kept = await server.query("SELECT body FROM idempotency_keys WHERE key = $1", [key])
    expect(kept.length).toBe(1)
    expect(kept[0].body).not.toContain(first.body.token.split("|")[1])
  })

  it("replays a send-otp without a second charge or message", async () => {
    await server.run(addOtpCredits(owner.account_id, 5))
    const platform = await createPlatform(server, owner.token)
    const broadcast = await createBroadcast(server, owner.token, platform.id, authenticationTemplate({ name: "idem_otp" }))
    const otpToken = await createToken(server, owner.token, ["broadcast-send-otp"])
    const credits = async () =>
      Number((await server.query("SELECT otp_credits FROM accounts WHERE id = $1", [owner.account_id]))[0].otp_credits)
    const creditsBefore = await credits()
    const sentBefore = (await readOutbox(server.sandboxOutbox)).length
    const key = freshKey()
    const send = () =>
      server.request("POST", `/api/broadcasts/${broadcast.id}/send-otp`, {
        token: otpToken,
        body: { to: database === "postgres" ? "+966533000001" : "+966533000002" },
        headers: { "idempotency-key": key }
      })
    const first = await send()
    expect(first.status).toBe(200)
    const again = await send()
    expect(again.status).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    expect(await credits()).toBe(creditsBefore - 1)
    expect((await readOutbox(server.sandboxOutbox)).length).toBe(sentBefore + 1)

    // A wrong code is an attempt with a key as without one: its error answer keeps what it wrote.
    const verificationId = first.body.verification_id as string
    const attemptsLeft = async () =>
      (await server.request("GET", `/api/verifications/${verificationId}`, { token: otpToken })).body.data.attempts_remaining
    const before = await attemptsLeft()
    const wrong = await server.request("POST", `/api/verifications/${verificationId}/verify`, {
      token: otpToken,
      body: { code: "000000" === (await readOutbox(server.sandboxOutbox)).at(-1).code ? "111111" : "000000" },
      headers: { "idempotency-key": freshKey() }
    })
    expect(wrong.status).toBe(422)
    expect(await attemptsLeft()).toBe(before - 1)
  })

  it("replays a template send without a second message", async () => {
    const platform = await createPlatform(server, owner.token)
    const broadcast = await createBroadcast(server, owner.token, platform.id, utilityTemplate({ name: "idem_shipped" }))
    const contactId = (await createContact(undefined, { firstname: "Sami", whatsapp_number: "+966544000001" })).body.data.properties._id
    const sentBefore = (await readOutbox(server.sandboxOutbox)).length
    const messagesBefore = await countRows(server, "messages", owner.account_id)
    const key = freshKey()
    const send = () =>
      server.request("POST", `/api/broadcasts/${broadcast.id}/send`, {
        token: owner.token,
        body: { contact_id: contactId },
        headers: { "idempotency-key": key }
      })
    const first = await send()
    expect(first.status).toBe(200)
    const again = await send()
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    expect((await readOutbox(server.sandboxOutbox)).length).toBe(sentBefore + 1)
    expect(await countRows(server, "messages", owner.account_id)).toBe(messagesBefore + 1)
  })

  it("answers 409 to a request whose key's first request is still running", async () => {
    const hook = await server.request("POST", "/api/account/webhooks", {
      token: owner.token,
      body: { URL: "https://localhost/hooks/idem", events: ["contact-created"] }
    })
    expect(hook.status).toBe(201)
    let reached!: () => void
    const received = new Promise<void>((resolve) => (reached = resolve))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    server.webhookTransport.respond = async () => {
      reached()
      await held
      return { _tag: "Failed", error: "connect ECONNREFUSED", durationMillis: 1 }
    }
    const key = freshKey()
    const validate = () =>
      server.request("POST", `/api/account/webhooks/${hook.body.data.id}/validate`, { token: owner.token, headers: { "idempotency-key": key } })
    const first = validate()
    await received
    const second = await validate()
    expect(second.status).toBe(409)
    expect(second.body).toEqual({ message: "A request with this Idempotency-Key is still in progress. Retry later." })
    release()
    expect((await first).status).not.toBe(409)
  })

  it("lets a client whose connection dropped after the commit retry without a duplicate", async () => {
    const key = freshKey()
    const email = `dropped-${database}@example.test`
    const body = JSON.stringify({ firstname: "Dropped", email })
    const { port } = new URL(server.url)
    const socket = connect(Number(port), "127.0.0.1")
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
    socket.write(
      `POST /api/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${owner.token}\r\n` +
        `Content-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    )
    // The client never reads the answer: it waits for the commit, then drops the connection.
    const withEmail = async () =>
      Number((await server.query("SELECT count(*)::int AS n FROM contacts WHERE account_id = $1 AND email = $2", [owner.account_id, email]))[0].n)
    while ((await withEmail()) === 0) await new Promise((resolve) => setImmediate(resolve))
    socket.destroy()
    const retry = await createContact(key, JSON.parse(body))
    expect(retry.status).toBe(201)
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expect(retry.body.data.properties.email).toBe(email)
    expect(await withEmail()).toBe(1)
  })

  it("lets a client whose connection dropped at once retry until it gets the one answer", async () => {
    const key = freshKey()
    const email = `dropped-early-${database}@example.test`
    const body = JSON.stringify({ firstname: "Dropped early", email })
    const { port } = new URL(server.url)
    const socket = connect(Number(port), "127.0.0.1")
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
    await new Promise<void>((resolve) =>
      socket.write(
        `POST /api/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${owner.token}\r\n` +
          `Content-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        () => resolve()
      )
    )
    socket.destroy()
    // Whether the server finished the first request or gave it up, retries end with one contact.
    let retry = await createContact(key, JSON.parse(body))
    while (retry.status === 409) retry = await createContact(key, JSON.parse(body))
    expect(retry.status).toBe(201)
    const again = await createContact(key, JSON.parse(body))
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(retry.body)
    expect(Number((await server.query("SELECT count(*)::int AS n FROM contacts WHERE account_id = $1 AND email = $2", [owner.account_id, email]))[0].n))
      .toBe(1)
  })
})
