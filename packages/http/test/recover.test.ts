/**
 * Recovery of a webhook's failed deliveries over HTTP, on PGlite and PostgreSQL: `POST
 * /api/account/webhooks/{id}/recover` `{ since, until? }` queues a fresh delivery (new id, same
 * body) of each delivery that ended failed in the window, once each; 422 for a bad window or a
 * webhook that does not deliver; permission webhook-update; 404 across accounts; Idempotency-Key
 * replays. Failures are made for real: the fake endpoint answers 500 until the deliveries are
 * exhausted (on a retry schedule without delays), which also switches the webhook off.
 */
import { attemptDelivery, DeliveryPolicy, DeliveryRepository, fanOutEvents } from "@wasl/core/Deliveries"
import { challengeAnswer, type WebhookRequest } from "@wasl/core/Webhooks"
import { Duration, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const NEEDS_ACTIVE = "The webhook must be validated and active to recover its deliveries: validate and activate it first."

/** A wire timestamp `offsetMs` from now. */
const wire = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString().replace("Z", "000Z")

describe.each(DATABASES)("webhook recovery over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let hookId: number
  let secret: string
  /** What the fake endpoint answers deliveries with. */
  let deliveryStatus = 500
  let startedAt: string

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "recover-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "recover-other@example.test", password: "pw-other" })
    server.webhookTransport.respond = async (request: WebhookRequest) => {
      const body = JSON.parse(request.body)
      if (body.event === "webhook-validation") {
        const signature = await Effect.runPromise(challengeAnswer(secret, body.challenge))
        return { _tag: "Answered", status: 200, body: JSON.stringify({ signature }), durationMillis: 1 }
      }
      return { _tag: "Answered", status: deliveryStatus, body: `status ${deliveryStatus}`, durationMillis: 2 }
    }
    const created = await server.request("POST", "/api/account/webhooks", {
      token: owner.token,
      body: { URL: "https://localhost/hooks/recover", events: ["deal-created"] }
    })
    expect(created.status, created.text).toBe(201)
    hookId = created.body.data.id
    secret = created.body.data.secret
    expect((await server.request("POST", `/api/account/webhooks/${hookId}/validate`, { token: owner.token })).status).toBe(200)
    await activate()
  })
  afterAll(async () => {
    await server?.close()
  })

  const activate = async () => {
    const reply = await server.request("PUT", `/api/account/webhooks/${hookId}/activate`, { token: owner.token, body: { is_active: true } })
    expect(reply.status, reply.text).toBe(200)
  }

  /** The worker, on a schedule without delays: fans out, then attempts until nothing is due. */
  const work = () =>
    server.run(Effect.gen(function*() {
      yield* fanOutEvents(100, Duration.minutes(1))
      const results: Array<string> = []
      while (true) {
        const due = yield* DeliveryRepository.use((repo) => repo.claimDue(100, Duration.minutes(1)))
        if (due.length === 0) return results
        results.push(...yield* Effect.forEach(due, (delivery) => attemptDelivery(delivery)))
      }
    }).pipe(Effect.provideService(DeliveryPolicy, { schedule: Array(6).fill(Duration.zero), timeout: Duration.seconds(5) })))

  const recover = (body: unknown, token = owner.token, id: number | string = hookId, headers?: Record<string, string>) =>
    server.request("POST", `/api/account/webhooks/${id}/recover`, { token, body, ...(headers === undefined ? {} : { headers }) })

  const deliveries = async () =>
    (await server.request("GET", `/api/account/webhooks/${hookId}/deliveries?per_page=100`, { token: owner.token })).body.data as Array<
      { id: string; status: string }
    >

  it("refuses a webhook that does not deliver (switched off by its failures) with a 422", async () => {
    startedAt = wire(-1000)
    for (const name of ["one", "two", "three", "four"]) {
      const reply = await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: name } })
      expect(reply.status, reply.text).toBe(201)
    }
    await work()
    expect((await deliveries()).map((d) => d.status)).toEqual(["failed", "failed", "failed", "failed"])
    const hook = await server.request("GET", `/api/account/webhooks/${hookId}`, { token: owner.token })
    expect(hook.body.data.is_active).toBe(false)

    const refused = await recover({ since: startedAt })
    expect(refused.status, refused.text).toBe(422)
    expect(refused.body).toEqual({ message: NEEDS_ACTIVE, errors: { id: [NEEDS_ACTIVE] } })
  })

  it("validates the window: since required, dates, until after since, at most 30 days", async () => {
    await activate()
    const cases: ReadonlyArray<[unknown, string, string]> = [
      [{}, "since", "The since field is required."],
      [{ until: wire(0) }, "since", "The since field is required."],
      [{ since: "yesterday" }, "since", "The since field must be a valid date."],
      [{ since: startedAt, until: "2026-02-30T00:00:00.000000Z" }, "until", "The until field must be a valid date."],
      [{ since: wire(0), until: startedAt }, "until", "The until field must be a date after or equal to since."],
      [{ since: wire(-31 * 86_400_000) }, "since", "The window from since to until must not exceed 30 days."]
    ]
    for (const [body, key, message] of cases) {
      const reply = await recover(body)
      expect(reply.status, JSON.stringify(body)).toBe(422)
      expect(reply.body, JSON.stringify(body)).toEqual({ message, errors: { [key]: [message] } })
    }
    // A window before the failures queues nothing (and marks nothing).
    const before = await recover({ since: wire(-86_400_000), until: wire(-3_600_000) })
    expect(before.status, before.text).toBe(202)
    expect(before.body.data).toEqual({ queued: 0 })
    expect(await deliveries()).toHaveLength(4)
  })

  it("queues a fresh delivery of each failed one, once: a second call queues none", async () => {
    const originals = await deliveries()
    const bodies = new Map<string, string>()
    for (const row of await server.query("SELECT id::text AS id, body FROM deliveries WHERE account_id = $1", [owner.account_id])) {
      bodies.set(row.id as string, row.body as string)
    }
    deliveryStatus = 200
    server.webhookTransport.requests.length = 0

    const reply = await recover({ since: startedAt })
    expect(reply.status, reply.text).toBe(202)
    expect(reply.body).toEqual({ data: { queued: 4 }, message: "Entity was created successfully." })

    const after = await deliveries()
    expect(after).toHaveLength(8)
    const fresh = after.filter((d) => !originals.some((o) => o.id === d.id))
    expect(fresh.map((d) => d.status)).toEqual(["pending", "pending", "pending", "pending"])
    for (const d of fresh) expect(d.id).toMatch(UUID)

    await work()
    const sent = server.webhookTransport.requests.filter((r) => fresh.some((d) => d.id === r.headers["X-Wasl-Delivery"]))
    expect(sent).toHaveLength(4)
    expect(new Set(sent.map((r) => r.body))).toEqual(new Set(originals.map((o) => bodies.get(o.id))))
    expect((await deliveries()).filter((d) => d.status === "succeeded")).toHaveLength(4)

    const again = await recover({ since: startedAt, until: wire(0) })
    expect(again.status, again.text).toBe(202)
    expect(again.body.data).toEqual({ queued: 0 })
    expect(await deliveries()).toHaveLength(8)
  })

  it("replays the first answer for a repeated Idempotency-Key", async () => {
    const headers = { "Idempotency-Key": "recover-key-1" }
    const first = await recover({ since: startedAt }, owner.token, hookId, headers)
    expect(first.status, first.text).toBe(202)
    const replay = await recover({ since: startedAt }, owner.token, hookId, headers)
    expect(replay.status).toBe(202)
    expect(replay.body).toEqual(first.body)
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true")
  })

  it("needs webhook-update (403), a token (401), and the account's webhook (404)", async () => {
    const indexOnly = (await server.request("POST", "/api/tokens", {
      token: owner.token,
      body: { name: "index", abilities: ["webhook-index"] }
    })).body.token as string
    expect((await recover({ since: startedAt }, indexOnly)).status).toBe(403)
    expect((await server.request("POST", `/api/account/webhooks/${hookId}/recover`, { body: { since: startedAt } })).status).toBe(401)
    expect((await recover({ since: startedAt }, other.token)).status).toBe(404)
    expect((await recover({ since: startedAt }, owner.token, "abc")).status).toBe(404)
    expect((await recover({ since: startedAt }, owner.token, 999_999)).status).toBe(404)
  })
})
