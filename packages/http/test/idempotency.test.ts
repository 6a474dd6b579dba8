/**
 * The Idempotency-Key header over HTTP, on PGlite and PostgreSQL: a retry replays the first answer
 * (status, body, `Idempotent-Replayed: true`) and changes nothing — no second record, event,
 * charge or message; another request with the key is a 422, a request while the first runs a
 * 409; keys belong to one token (or one user's sessions) in one account; error answers are not
 * kept; a client whose connection dropped mid-create retries without a duplicate; a replay asks
 * again who may make the request (credentials, permissions, abilities) before it answers.
 */
import { addOtpCredits } from "@wasl/core/Accounts"
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

  describe("a replay asks again who may make the request", () => {
    let member: { account_id: number; user_id: number; team_id: number; token: string }
    const FORBIDDEN = { message: "This action is unauthorized." }

    beforeAll(async () => {
      member = await server.bootstrap({ email: `idem-member-${database}@example.test`, password: "pw-member" })
    })

    /** Takes `permission` from the member's team, or gives it back, and waits until a fresh request sees it. */
    const setPermission = async (permission: string, held: boolean, fresh: () => Promise<{ status: number }>) => {
      await server.query(
        held
          ? "UPDATE teams SET permissions = array_append(permissions, $2) WHERE account_id = $1 AND id = $3"
          : "UPDATE teams SET permissions = array_remove(permissions, $2) WHERE account_id = $1 AND id = $3",
        [member.account_id, permission, member.team_id]
      )
      // The process drops its copy of the grants when PostgreSQL's notification arrives.
      for (let tries = 0; ((await fresh()).status === 403) === held; tries++) {
        if (tries === 200) throw new Error(`${permission} still ${held ? "refused" : "allowed"}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    const keyed = (method: string, path: string, body: unknown, key: string, token = member.token) =>
      server.request(method, path, { token, body, headers: { "idempotency-key": key } })
    /** A request that needs contact-create and changes nothing: its body is refused after the permission check. */
    const contactCreateProbe = () => server.request("POST", "/api/contacts", { token: member.token, body: { email: "not an email" } })

    it("POST /api/contacts: 403 once contact-create is taken away, the kept 201 again once it is back", async () => {
      const key = freshKey()
      const body = { firstname: "Replayed", email: `replayed-${database}@example.test` }
      const first = await keyed("POST", "/api/contacts", body, key)
      expect(first.status).toBe(201)
      await setPermission("contact-create", false, contactCreateProbe)
      const refused = await keyed("POST", "/api/contacts", body, key)
      await setPermission("contact-create", true, contactCreateProbe)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual(FORBIDDEN)
      expect(refused.headers.get("idempotent-replayed")).toBeNull()
      const again = await keyed("POST", "/api/contacts", body, key)
      expect(again.status).toBe(201)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.text).toBe(first.text)
      expect(await contacts(member.account_id)).toBe(1)
    })

    it("POST /api/tokens: 403 without token-manage, and the token is not in the answer", async () => {
      const key = freshKey()
      const body = { name: "replayed", abilities: ["contact-index"] }
      const first = await keyed("POST", "/api/tokens", body, key)
      expect(first.status).toBe(201)
      const secret = first.body.token.split("|")[1] as string
      const tokenManageProbe = () => server.request("GET", "/api/tokens", { token: member.token })
      await setPermission("token-manage", false, tokenManageProbe)
      const refused = await keyed("POST", "/api/tokens", body, key)
      await setPermission("token-manage", true, tokenManageProbe)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual(FORBIDDEN)
      expect(refused.text).not.toContain(secret)
      const again = await keyed("POST", "/api/tokens", body, key)
      expect(again.status).toBe(201)
      expect(again.body.token).toBe(first.body.token)
    })

    it("POST /api/tokens: 403 once the caller no longer holds an ability the token was given", async () => {
      const key = freshKey()
      const body = { name: "reader", abilities: ["deal-index"] }
      const first = await keyed("POST", "/api/tokens", body, key)
      expect(first.status).toBe(201)
      const dealIndexProbe = () => server.request("GET", "/api/deals", { token: member.token })
      await setPermission("deal-index", false, dealIndexProbe)
      const refused = await keyed("POST", "/api/tokens", body, key)
      await setPermission("deal-index", true, dealIndexProbe)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({ message: "A token cannot be given an ability the caller does not hold: deal-index." })
      expect(refused.text).not.toContain(first.body.token.split("|")[1])
      expect((await keyed("POST", "/api/tokens", body, key)).body.token).toBe(first.body.token)
    })

    it("a batch upsert: 403 once either of the permissions it needs is taken away", async () => {
      const key = freshKey()
      const body = { id_property: "email", inputs: [{ id: `batch-${database}@example.test`, properties: { firstname: "Batch" } }] }
      const first = await keyed("POST", "/api/contacts/batch/upsert", body, key)
      expect(first.status).toBe(200)
      const contactUpdateProbe = () =>
        server.request("POST", "/api/contacts/batch/update", { token: member.token, body: { inputs: "not a list" } })
      await setPermission("contact-update", false, contactUpdateProbe)
      const refused = await keyed("POST", "/api/contacts/batch/upsert", body, key)
      await setPermission("contact-update", true, contactUpdateProbe)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual(FORBIDDEN)
      const again = await keyed("POST", "/api/contacts/batch/upsert", body, key)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.text).toBe(first.text)
    })

    it("a token revoked in between is a 401", async () => {
      const limited = (await server.request("POST", "/api/tokens", {
        token: member.token,
        body: { name: "writer", abilities: ["contact-create"] }
      })).body
      const key = freshKey()
      const body = { firstname: "By the writer" }
      expect((await keyed("POST", "/api/contacts", body, key, limited.token)).status).toBe(201)
      expect((await server.request("DELETE", `/api/tokens/${limited.data.id}`, { token: member.token })).status).toBe(200)
      const replay = await keyed("POST", "/api/contacts", body, key, limited.token)
      expect(replay.status).toBe(401)
      expect(replay.body).toEqual({ message: "Unauthenticated." })
    })

    it("an answer kept without the checks of its first request is not replayed (409)", async () => {
      const key = freshKey()
      const body = { firstname: "Kept before" }
      expect((await keyed("POST", "/api/contacts", body, key)).status).toBe(201)
      await server.query("UPDATE idempotency_keys SET caller_checks = NULL WHERE key = $1", [key])
      const replay = await keyed("POST", "/api/contacts", body, key)
      expect(replay.status).toBe(409)
      expect(replay.body).toEqual({ message: "The answer kept for this Idempotency-Key can no longer be replayed." })
    })
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
