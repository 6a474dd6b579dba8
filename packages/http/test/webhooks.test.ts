/**
 * Webhook management over HTTP, on PGlite and PostgreSQL: the webhook shape and its state
 * machine, the endpoints and their permissions, the 402/403/422 errors, the plan limits and the
 * address rule. Validation challenges go through an in-process WebhookTransport that
 * answers like an endpoint would.
 */
import { challengeAnswer, type WebhookRequest } from "@wasl/core/Webhooks"
import { Effect } from "effect"
import { Webhook, WebhookVerificationError } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const URL_A = "https://localhost/hooks/a"
const URL_B = "https://localhost/hooks/b"

/** An endpoint that answers the challenge with HMAC(secret, challenge). */
const answering = (secret: string) => async (request: WebhookRequest) => {
  const { challenge } = JSON.parse(request.body) as { challenge: string }
  const signature = await Effect.runPromise(challengeAnswer(secret, challenge))
  return { _tag: "Answered" as const, status: 200, body: JSON.stringify({ signature }), durationMillis: 3 }
}

describe.each(DATABASES)("webhook management over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "hooks-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "hooks-other@example.test", password: "pw-other" })
  })
  afterAll(async () => {
    await server?.close()
  })

  const tokenWith = async (abilities: ReadonlyArray<string>) =>
    (await server.request("POST", "/api/tokens", { token: owner.token, body: { name: abilities.join(","), abilities } }))
      .body.token as string
  const create = (body: unknown, token = owner.token) => server.request("POST", "/api/account/webhooks", { token, body })
  const count = async (accountId: number) =>
    Number((await server.query("SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1", [accountId]))[0].n)
  const removeAll = async () => {
    await server.query("DELETE FROM webhooks WHERE account_id = $1", [owner.account_id])
  }

  it("creates an unvalidated, inactive webhook with a generated 32-character secret (201)", async () => {
    const reply = await create({ URL: URL_A, events: ["deal-created", "contact-note-deleted", "deal-created"] })
    expect(reply.status).toBe(201)
    expect(reply.body.message).toBe("Entity was created successfully.")
    const hook = reply.body.data
    expect(Object.keys(hook)).toEqual([
      "id", "URL", "secret", "is_validated", "is_active", "consecutive_failures", "last_failure_at",
      "account_id", "created_at", "updated_at", "events"
    ])
    expect(hook).toMatchObject({
      URL: URL_A, is_validated: false, is_active: false, consecutive_failures: 0, last_failure_at: null,
      account_id: owner.account_id
    })
    expect(hook.secret).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(hook.created_at).toMatch(WIRE_TIME)
    expect(hook.events.map((e: { name: string }) => e.name)).toEqual(["deal-created", "contact-note-deleted"])
    for (const e of hook.events) {
      expect(Object.keys(e)).toEqual(["id", "name", "webhook_id", "created_at", "updated_at"])
      expect(e.webhook_id).toBe(hook.id)
      expect(Number.isInteger(e.id)).toBe(true)
    }
    // The secret is stored sealed, never in clear.
    const rows = await server.query("SELECT secret_sealed FROM webhooks WHERE id = $1", [hook.id])
    expect(rows[0].secret_sealed).not.toContain(hook.secret)
    expect(rows[0].secret_sealed).toMatch(/^v1\./)
    // Secrets differ between webhooks; list and read return it too.
    const second = await create({ URL: URL_B, events: ["ticket-updated"] })
    expect(second.body.data.secret).not.toBe(hook.secret)
    const list = await server.request("GET", "/api/account/webhooks", { token: owner.token })
    expect(list.status).toBe(200)
    expect(list.body.data.map((w: { id: number }) => w.id)).toEqual([hook.id, second.body.data.id])
    expect(list.body.data[0].secret).toBe(hook.secret)
    const read = await server.request("GET", `/api/account/webhooks/${hook.id}`, { token: owner.token })
    expect(read.status).toBe(200)
    expect(read.body.data).toEqual(hook)
    await removeAll()
  })

  it("rejects account_id, is_validated, is_active and secret on create (422), storing nothing", async () => {
    const reply = await create({
      URL: URL_A, events: ["deal-created"], account_id: other.account_id, is_validated: true, is_active: true,
      secret: "x".repeat(32)
    })
    expect(reply.status).toBe(422)
    expect(reply.body.errors).toEqual({
      account_id: ["The account id field is prohibited."],
      is_validated: ["The is validated field is prohibited."],
      is_active: ["The is active field is prohibited."],
      secret: ["The secret field is prohibited."]
    })
    expect(reply.body.message).toBe("The account id field is prohibited.")
    expect(await count(owner.account_id)).toBe(0)
  })

  it.each([
    [{ events: ["deal-created"] }, "URL", "The URL field is required."],
    [{ URL: 42, events: ["deal-created"] }, "URL", "The URL field must be a string."],
    [{ URL: "not a url", events: ["deal-created"] }, "URL", "The URL field must be a valid URL."],
    [{ URL: "http://localhost/hook", events: ["deal-created"] }, "URL", "The URL field must start with one of the following: https://."],
    [{ URL: `https://localhost/${"a".repeat(2048)}`, events: ["deal-created"] }, "URL", "The URL field must not be greater than 2048 characters."],
    [{ URL: "https://127.0.0.1/hook", events: ["deal-created"] }, "URL", "The URL host must be a domain name, not an IP address."],
    [{ URL: "https://[::1]/hook", events: ["deal-created"] }, "URL", "The URL host must be a domain name, not an IP address."],
    [{ URL: "https://nonexistent.invalid/hook", events: ["deal-created"] }, "URL", "The URL host could not be resolved."],
    [{ URL: URL_A }, "events", "The events field is required."],
    [{ URL: URL_A, events: [] }, "events", "The events field is required."],
    [{ URL: URL_A, events: "deal-created" }, "events", "The events field must be an array."],
    [{ URL: URL_A, events: ["deal-created", "deal-exploded"] }, "events.1", "The selected events.1 is invalid."],
    [{ URL: URL_A, events: [7] }, "events.0", "The selected events.0 is invalid."]
  ])("422 on create and update for %j", async (body, key, message) => {
    const reply = await create(body)
    expect(reply.status).toBe(422)
    expect(reply.body.errors[key]).toEqual([message])
    expect(await count(owner.account_id)).toBe(0)
    const hook = (await create({ URL: URL_A, events: ["deal-created"] })).body.data
    const updated = await server.request("PUT", `/api/account/webhooks/${hook.id}`, { token: owner.token, body })
    expect(updated.status).toBe(422)
    expect(updated.body.errors[key]).toEqual([message])
    const after = await server.request("GET", `/api/account/webhooks/${hook.id}`, { token: owner.token })
    expect(after.body.data).toEqual(hook)
    await removeAll()
  })

  it("accepts every one of the 72 event names", async () => {
    const { EVENT_NAMES } = await import("@wasl/core/Records")
    const reply = await create({ URL: URL_A, events: EVENT_NAMES })
    expect(reply.status).toBe(201)
    expect(reply.body.data.events).toHaveLength(72)
    await removeAll()
  })

  it("accepts the message events when named, beside the record events", async () => {
    const reply = await create({ URL: URL_A, events: ["contact-created", "message-received", "message-status-updated"] })
    expect(reply.status).toBe(201)
    expect(reply.body.data.events.map((e: { name: string }) => e.name)).toEqual([
      "contact-created",
      "message-received",
      "message-status-updated"
    ])
    const refused = await create({ URL: URL_B, events: ["message-deleted"] })
    expect(refused.status).toBe(422)
    expect(Object.keys(refused.body.errors)).toEqual(["events.0"])
    await removeAll()
  })

  it("needs the webhook-* permission of each endpoint (403) and answers 401 without credentials", async () => {
    const hook = (await create({ URL: URL_A, events: ["deal-created"] })).body.data
    const base = `/api/account/webhooks/${hook.id}`
    const cases: ReadonlyArray<readonly [string, string, string, unknown]> = [
      ["GET", "/api/account/webhooks", "webhook-index", undefined],
      ["GET", base, "webhook-index", undefined],
      ["POST", "/api/account/webhooks", "webhook-create", { URL: URL_B, events: ["deal-created"] }],
      ["PUT", base, "webhook-update", { URL: URL_A, events: ["deal-updated"] }],
      ["POST", `${base}/validate`, "webhook-update", undefined],
      ["PUT", `${base}/activate`, "webhook-update", { is_active: false }],
      ["DELETE", base, "webhook-delete", undefined]
    ]
    const wrong = await tokenWith(["deal-index", "token-manage"])
    // The endpoint answers correctly, so an allowed validate (and then activate) succeeds.
    server.webhookTransport.respond = answering(hook.secret)
    for (const [method, path, permission, body] of cases) {
      const denied = await server.request(method, path, { token: wrong, body })
      expect(denied.status, `${method} ${path}`).toBe(403)
      expect(denied.body).toEqual({ message: "This action is unauthorized." })
      const unauthenticated = await server.request(method, path, { body })
      expect(unauthenticated.status).toBe(401)
      const allowed = await server.request(method, path, { token: await tokenWith([permission]), body })
      expect(allowed.status, `${method} ${path} with ${permission}`).toBe(method === "POST" && permission === "webhook-create" ? 201 : 200)
    }
    await removeAll()
  })

  it("answers 404 for another account's webhook and for ids that are not positive integers", async () => {
    const theirs = (await create({ URL: URL_A, events: ["deal-created"] }, other.token)).body.data
    for (const path of [`/api/account/webhooks/${theirs.id}`, "/api/account/webhooks/abc", "/api/account/webhooks/0"]) {
      for (const [method, body] of [["GET", undefined], ["PUT", { URL: URL_B, events: ["deal-created"] }], ["DELETE", undefined]] as const) {
        const reply = await server.request(method, path, { token: owner.token, body })
        expect(reply.status, `${method} ${path}`).toBe(404)
        expect(reply.body).toEqual({ message: "Not found." })
      }
      expect((await server.request("POST", `${path}/validate`, { token: owner.token })).status).toBe(404)
      expect((await server.request("PUT", `${path}/activate`, { token: owner.token, body: { is_active: true } })).status).toBe(404)
    }
    const list = await server.request("GET", "/api/account/webhooks", { token: owner.token })
    expect(list.body.data).toEqual([])
    const still = await server.request("GET", `/api/account/webhooks/${theirs.id}`, { token: other.token })
    expect(still.body.data).toEqual(theirs)
  })

  it("402 when the plan has no webhooks or the limit is reached (business 5, custom its own)", async () => {
    const free = await server.bootstrap({ email: "hooks-free@example.test", password: "pw", plan: "free" })
    const starter = await server.bootstrap({ email: "hooks-starter@example.test", password: "pw", plan: "starter" })
    for (const account of [free, starter]) {
      const reply = await create({ URL: URL_A, events: ["deal-created"] }, account.token)
      expect(reply.status).toBe(402)
      expect(reply.body).toEqual({ message: "Your plan does not include webhooks." })
      expect(await count(account.account_id)).toBe(0)
    }
    for (let i = 0; i < 5; i++) expect((await create({ URL: `${URL_A}/${i}`, events: ["deal-created"] })).status).toBe(201)
    const sixth = await create({ URL: URL_B, events: ["deal-created"] })
    expect(sixth.status).toBe(402)
    expect(sixth.body).toEqual({ message: "The maximum number of webhooks for your plan has been reached." })
    expect(await count(owner.account_id)).toBe(5)
    // Concurrent creates cannot overshoot the limit.
    await server.query("UPDATE accounts SET plan = 'custom', webhook_limit = 7 WHERE id = $1", [owner.account_id])
    const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => create({ URL: `${URL_B}/${i}`, events: ["deal-created"] })))
    expect(burst.filter((r) => r.status === 201)).toHaveLength(2)
    expect(burst.filter((r) => r.status === 402)).toHaveLength(4)
    expect(await count(owner.account_id)).toBe(7)
    await server.query("UPDATE accounts SET plan = 'custom', webhook_limit = 0 WHERE id = $1", [owner.account_id])
    await removeAll()
    expect((await create({ URL: URL_A, events: ["deal-created"] })).status).toBe(402)
    await server.query("UPDATE accounts SET plan = 'business', webhook_limit = NULL WHERE id = $1", [owner.account_id])
  })

  it("validates through the signed challenge and refuses wrong answers with 403", async () => {
    const hook = (await create({ URL: URL_A, events: ["deal-created"] })).body.data
    const transport = server.webhookTransport
    const path = `/api/account/webhooks/${hook.id}/validate`
    const failures: ReadonlyArray<(r: WebhookRequest) => Promise<any>> = [
      async () => ({ _tag: "Failed", error: "connect ECONNREFUSED", durationMillis: 1 }),
      async (r) => ({ ...(await answering(hook.secret)(r)), status: 500 }),
      async (r) => ({ ...(await answering(hook.secret)(r)), status: 301 }),
      async () => ({ _tag: "Answered", status: 200, body: "not json", durationMillis: 1 }),
      async () => ({ _tag: "Answered", status: 200, body: JSON.stringify({ signature: "sha256=" + "0".repeat(64) }), durationMillis: 1 }),
      async (r) => {
        const { challenge } = JSON.parse(r.body)
        const wrongKey = await Effect.runPromise(challengeAnswer("another-secret-another-secret-xx", challenge))
        return { _tag: "Answered", status: 200, body: JSON.stringify({ signature: wrongKey }), durationMillis: 1 }
      },
      async (r) => {
        const { challenge } = JSON.parse(r.body)
        const upper = (await Effect.runPromise(challengeAnswer(hook.secret, challenge))).toUpperCase()
        return { _tag: "Answered", status: 200, body: JSON.stringify({ signature: upper }), durationMillis: 1 }
      }
    ]
    for (const respond of failures) {
      transport.respond = respond
      const reply = await server.request("POST", path, { token: owner.token })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual({
        message: "Webhook validation was unsuccessful. Please check the webhook secret and the endpoint configuration."
      })
      const read = await server.request("GET", `/api/account/webhooks/${hook.id}`, { token: owner.token })
      expect(read.body.data.is_validated).toBe(false)
    }
    // The request: POST to the URL with the four X-Wasl headers, a signed body, 10 s.
    transport.requests.length = 0
    transport.respond = answering(hook.secret)
    const reply = await server.request("POST", path, { token: owner.token })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({ id: hook.id, is_validated: true, is_active: false, secret: hook.secret })
    const sent = transport.requests[0]!
    expect(sent.url).toBe(URL_A)
    expect(sent.timeout).toEqual(expect.objectContaining({}))
    const body = JSON.parse(sent.body)
    expect(Object.keys(body)).toEqual(["time", "event", "challenge"])
    expect(body.event).toBe("webhook-validation")
    expect(body.challenge).toMatch(/^[0-9a-f]{64}$/)
    expect(typeof body.time).toBe("number")
    expect(sent.headers["X-Wasl-Event"]).toBe("webhook-validation")
    expect(sent.headers["X-Wasl-Delivery"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(sent.headers["X-Wasl-Timestamp"]).toMatch(/^\d{10}$/)
    const { signDelivery } = await import("@wasl/core/Webhooks")
    expect(sent.headers["X-Wasl-Signature"]).toBe(
      await Effect.runPromise(signDelivery(hook.secret, sent.headers["X-Wasl-Timestamp"]!, sent.body))
    )
    // The Standard Webhooks headers too: the official verifier, given base64 of the secret's
    // UTF-8 bytes (what the README tells a receiver), accepts the challenge and refuses it altered.
    expect(sent.headers["webhook-id"]).toBe(sent.headers["X-Wasl-Delivery"])
    expect(sent.headers["webhook-timestamp"]).toBe(sent.headers["X-Wasl-Timestamp"])
    expect(sent.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
    const standard = new Webhook(Buffer.from(hook.secret, "utf8").toString("base64"))
    expect(standard.verify(sent.body, sent.headers)).toEqual(body)
    expect(() => standard.verify(sent.body.replace(body.challenge, "0".repeat(64)), sent.headers))
      .toThrow(WebhookVerificationError)
    const { Duration } = await import("effect")
    expect(Duration.toMillis(sent.timeout)).toBe(10_000)
    // Each challenge is fresh.
    await server.request("POST", path, { token: owner.token })
    expect(JSON.parse(transport.requests[1]!.body).challenge).not.toBe(body.challenge)
    await removeAll()
  })

  it("activates only validated webhooks; true clears failures; URL change unvalidates and clears failures", async () => {
    const hook = (await create({ URL: URL_A, events: ["deal-created", "deal-updated"] })).body.data
    const base = `/api/account/webhooks/${hook.id}`
    const notYet = await server.request("PUT", `${base}/activate`, { token: owner.token, body: { is_active: true } })
    expect(notYet.status).toBe(403)
    expect(notYet.body).toEqual({ message: "The webhook must be validated before it can be activated." })
    for (const [body, message] of [
      [{}, "The is active field is required."],
      [{ is_active: "yes" }, "The is active field must be true or false."]
    ] as const) {
      const reply = await server.request("PUT", `${base}/activate`, { token: owner.token, body })
      expect(reply.status).toBe(422)
      expect(reply.body.errors).toEqual({ is_active: [message] })
    }
    server.webhookTransport.respond = answering(hook.secret)
    expect((await server.request("POST", `${base}/validate`, { token: owner.token })).status).toBe(200)
    const on = await server.request("PUT", `${base}/activate`, { token: owner.token, body: { is_active: true } })
    expect(on.status).toBe(200)
    expect(on.body.message).toBe("Entity was modified successfully")
    expect(on.body.data).toMatchObject({ is_validated: true, is_active: true })
    // Failures recorded by the worker are cleared by re-activation.
    await server.query("UPDATE webhooks SET consecutive_failures = 2, last_failure_at = now() WHERE id = $1", [hook.id])
    const off = await server.request("PUT", `${base}/activate`, { token: owner.token, body: { is_active: false } })
    expect(off.body.data).toMatchObject({ is_validated: true, is_active: false, consecutive_failures: 2 })
    const again = await server.request("PUT", `${base}/activate`, { token: owner.token, body: { is_active: 1 } })
    expect(again.body.data).toMatchObject({ is_active: true, consecutive_failures: 0 })
    expect(again.body.data.last_failure_at).toMatch(WIRE_TIME)
    // Same URL, new events: state kept, subscription list replaced (kept names keep their entry).
    const dealUpdated = again.body.data.events.find((e: { name: string }) => e.name === "deal-updated")
    await server.query("UPDATE webhooks SET consecutive_failures = 1 WHERE id = $1", [hook.id])
    const same = await server.request("PUT", base, { token: owner.token, body: { URL: URL_A, events: ["deal-updated", "ticket-created"] } })
    expect(same.status).toBe(200)
    expect(same.body.message).toBe("Entity was modified successfully")
    expect(same.body.data).toMatchObject({ is_validated: true, is_active: true, consecutive_failures: 1, secret: hook.secret })
    expect(same.body.data.events.map((e: { name: string }) => e.name)).toEqual(["deal-updated", "ticket-created"])
    expect(same.body.data.events[0]).toEqual(dealUpdated)
    // A changed URL: unvalidated (active flag unchanged), failures cleared, secret unchanged.
    const moved = await server.request("PUT", base, { token: owner.token, body: { URL: URL_B, events: ["deal-updated"] } })
    expect(moved.body.data).toMatchObject({
      URL: URL_B, is_validated: false, is_active: true, consecutive_failures: 0, secret: hook.secret
    })
    const blocked = await server.request("PUT", `${base}/activate`, { token: owner.token, body: { is_active: true } })
    expect(blocked.status).toBe(403)
    await removeAll()
  })

  it("deletes a webhook with its subscriptions (200, data [])", async () => {
    const hook = (await create({ URL: URL_A, events: ["deal-created", "deal-updated"] })).body.data
    const reply = await server.request("DELETE", `/api/account/webhooks/${hook.id}`, { token: owner.token })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ message: "Entity was deleted successfully.", data: [] })
    expect(await server.query("SELECT * FROM webhook_events WHERE webhook_id = $1", [hook.id])).toEqual([])
    expect((await server.request("GET", `/api/account/webhooks/${hook.id}`, { token: owner.token })).status).toBe(404)
    expect((await server.request("DELETE", `/api/account/webhooks/${hook.id}`, { token: owner.token })).status).toBe(404)
  })

  it("answers malformed JSON with 400 and never leaks the secret into logs", async () => {
    const reply = await server.request("POST", "/api/account/webhooks", { token: owner.token, raw: "{" })
    expect(reply.status).toBe(400)
    const hook = (await create({ URL: URL_A, events: ["deal-created"] })).body.data
    server.webhookTransport.respond = answering(hook.secret)
    await server.request("POST", `/api/account/webhooks/${hook.id}/validate`, { token: owner.token })
    expect(server.logs.join("\n")).not.toContain(hook.secret)
    await removeAll()
  })
})

describe.each(DATABASES)("webhook URL address rule on %s", (database) => {
  let server: TestServer
  let owner: { token: string }
  beforeAll(async () => {
    server = await startTestServer(database, { allowPrivate: false })
    owner = await server.bootstrap({ email: "ssrf@example.test", password: "pw" })
  })
  afterAll(async () => {
    await server?.close()
  })

  it("refuses hosts resolving to loopback with 422 on create and update", async () => {
    const reply = await server.request("POST", "/api/account/webhooks", {
      token: owner.token,
      body: { URL: "https://localhost/hook", events: ["deal-created"] }
    })
    expect(reply.status).toBe(422)
    expect(reply.body.errors).toEqual({
      URL: ["The URL host resolves to an address that is not allowed (private, loopback or reserved)."]
    })
    expect(await server.query("SELECT * FROM webhooks")).toEqual([])
  })
})
