/**
 * The delivery log over HTTP, on PGlite and PostgreSQL: `GET
 * /api/account/webhooks/{id}/deliveries` (paginated, attempts with status code, duration, error)
 * and `POST .../deliveries/{delivery_id}/redeliver` (a new uuid, the same body); permissions
 * webhook-index / webhook-update; 404 across accounts and for ids that are not ids. Events come
 * from the records API; the worker's steps are driven with `server.run`.
 */
import { attemptDelivery, DeliveryRepository, fanOutEvents } from "@wasl/core/Deliveries"
import { challengeAnswer, type WebhookRequest } from "@wasl/core/Webhooks"
import { Duration, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const URL_A = "https://localhost/hooks/deliveries"

describe.each(DATABASES)("webhook deliveries over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let hookId: number
  let secret: string
  /** What the fake endpoint answers deliveries with. */
  let deliveryStatus = 200

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "deliveries-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "deliveries-other@example.test", password: "pw-other" })
    server.webhookTransport.respond = async (request: WebhookRequest) => {
      const body = JSON.parse(request.body)
      if (body.event === "webhook-validation") {
        const signature = await Effect.runPromise(challengeAnswer(secret, body.challenge))
        return { _tag: "Answered", status: 200, body: JSON.stringify({ signature }), durationMillis: 1 }
      }
      return { _tag: "Answered", status: deliveryStatus, body: `status ${deliveryStatus}`, durationMillis: 4 }
    }
    const created = await server.request("POST", "/api/account/webhooks", {
      token: owner.token,
      body: { URL: URL_A, events: ["deal-created"] }
    })
    expect(created.status, created.text).toBe(201)
    hookId = created.body.data.id
    secret = created.body.data.secret
    expect((await server.request("POST", `/api/account/webhooks/${hookId}/validate`, { token: owner.token })).status).toBe(200)
    const activated = await server.request("PUT", `/api/account/webhooks/${hookId}/activate`, {
      token: owner.token,
      body: { is_active: true }
    })
    expect(activated.status, activated.text).toBe(200)
  })
  afterAll(async () => {
    await server?.close()
  })

  /** The worker's two steps, once: fan the outbox out, then attempt everything due. */
  const work = () =>
    server.run(Effect.gen(function*() {
      yield* fanOutEvents(100, Duration.minutes(1))
      const due = yield* DeliveryRepository.use((repo) => repo.claimDue(100, Duration.minutes(1)))
      return yield* Effect.forEach(due, (delivery) => attemptDelivery(delivery))
    }))

  const tokenWith = async (abilities: ReadonlyArray<string>) =>
    (await server.request("POST", "/api/tokens", { token: owner.token, body: { name: abilities.join(","), abilities } }))
      .body.token as string

  it("lists deliveries newest first, paginated, with their attempts", async () => {
    for (const name of ["first", "second", "third"]) {
      const reply = await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: name } })
      expect(reply.status, reply.text).toBe(201)
    }
    deliveryStatus = 500
    expect(await work()).toEqual(["Retrying", "Retrying", "Retrying"])

    const page = await server.request("GET", `/api/account/webhooks/${hookId}/deliveries?per_page=2`, { token: owner.token })
    expect(page.status, page.text).toBe(200)
    expect(page.body.meta).toMatchObject({ current_page: 1, per_page: 2, total: 3, last_page: 2, from: 1, to: 2 })
    expect(page.body.links.next).toContain(`/api/account/webhooks/${hookId}/deliveries?per_page=2&page=2`)
    expect(page.body.data).toHaveLength(2)
    const delivery = page.body.data[0]
    expect(Object.keys(delivery)).toEqual(["id", "event", "status", "attempts", "next_attempt_at", "created_at"])
    expect(delivery.id).toMatch(UUID)
    expect(delivery).toMatchObject({ event: "deal-created", status: "pending" })
    // The second attempt is 5 minutes after the first failed (the default schedule).
    expect(delivery.next_attempt_at).toMatch(WIRE_TIME)
    const next = Date.parse(delivery.next_attempt_at) - Date.parse(delivery.attempts[0].at)
    expect(next).toBeGreaterThanOrEqual(5 * 60_000)
    expect(next).toBeLessThan(5 * 60_000 + 10_000)
    expect(delivery.attempts).toEqual([
      { number: 1, at: expect.stringMatching(WIRE_TIME), status_code: 500, duration_ms: 4, error: null, response: "status 500" }
    ])
    const second = await server.request("GET", `/api/account/webhooks/${hookId}/deliveries?page=2&per_page=2`, { token: owner.token })
    expect(second.body.data).toHaveLength(1)
    const ids = [...page.body.data, ...second.body.data].map((d: { id: string }) => d.id)
    expect(new Set(ids).size).toBe(3)
  })

  it("redelivers: a new id, the same body, sent at once", async () => {
    const list = await server.request("GET", `/api/account/webhooks/${hookId}/deliveries`, { token: owner.token })
    const original = list.body.data[2]
    const before = await server.query("SELECT body FROM deliveries WHERE id = $1", [original.id])
    server.webhookTransport.requests.length = 0
    deliveryStatus = 200
    const reply = await server.request("POST", `/api/account/webhooks/${hookId}/deliveries/${original.id}/redeliver`, {
      token: owner.token
    })
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body.message).toBe("Entity was created successfully.")
    expect(reply.body.data).toMatchObject({ event: "deal-created", status: "pending", attempts: [] })
    expect(reply.body.data.id).toMatch(UUID)
    expect(reply.body.data.id).not.toBe(original.id)

    await work()
    const sent = server.webhookTransport.requests.find((r) => r.headers["X-Wasl-Delivery"] === reply.body.data.id)
    expect(sent?.body).toBe(before[0].body)
    const after = await server.request("GET", `/api/account/webhooks/${hookId}/deliveries`, { token: owner.token })
    expect(after.body.data.find((d: { id: string }) => d.id === reply.body.data.id)).toMatchObject({ status: "succeeded" })
  })

  it("needs webhook-index to list and webhook-update to redeliver (403)", async () => {
    const [delivery] = (await server.request("GET", `/api/account/webhooks/${hookId}/deliveries`, { token: owner.token })).body.data
    const indexOnly = await tokenWith(["webhook-index"])
    expect((await server.request("GET", `/api/account/webhooks/${hookId}/deliveries`, { token: indexOnly })).status).toBe(200)
    const redeliver = await server.request("POST", `/api/account/webhooks/${hookId}/deliveries/${delivery.id}/redeliver`, {
      token: indexOnly
    })
    expect(redeliver.status).toBe(403)
    const updateOnly = await tokenWith(["webhook-update"])
    expect((await server.request("GET", `/api/account/webhooks/${hookId}/deliveries`, { token: updateOnly })).status).toBe(403)
    expect((await server.request("GET", `/api/account/webhooks/${hookId}/deliveries`)).status).toBe(401)
  })

  it("answers 404 for another account's webhook or delivery and for ids that are not ids; bad pages are 422", async () => {
    const [delivery] = (await server.request("GET", `/api/account/webhooks/${hookId}/deliveries`, { token: owner.token })).body.data
    const count = async () => Number((await server.query("SELECT count(*)::int AS n FROM deliveries"))[0].n)
    const before = await count()
    for (const path of [
      `/api/account/webhooks/${hookId}/deliveries`,
      `/api/account/webhooks/abc/deliveries`,
      `/api/account/webhooks/999999/deliveries`
    ]) {
      const reply = await server.request("GET", path, { token: path.includes(String(hookId)) ? other.token : owner.token })
      expect(reply.status, path).toBe(404)
      expect(reply.body).toEqual({ message: "Not found." })
    }
    for (const [token, path] of [
      [other.token, `/api/account/webhooks/${hookId}/deliveries/${delivery.id}/redeliver`],
      [owner.token, `/api/account/webhooks/${hookId}/deliveries/not-a-uuid/redeliver`],
      [owner.token, `/api/account/webhooks/${hookId}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`],
      [owner.token, `/api/account/webhooks/999999/deliveries/${delivery.id}/redeliver`]
    ] as const) {
      const reply = await server.request("POST", path, { token })
      expect(reply.status, path).toBe(404)
    }
    expect(await count()).toBe(before)
    const bad = await server.request("GET", `/api/account/webhooks/${hookId}/deliveries?per_page=abc`, { token: owner.token })
    expect(bad.status).toBe(422)
  })
})
