/**
 * The delivery use-cases (core use-cases/deliveries.ts, delivery-log.ts) over
 * `DeliveryRepositoryPg` on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set, with a
 * scripted `WebhookTransport` so each answer is chosen by the test:
 *
 * - fan-out: one delivery per (event, subscribed webhook that is validated and active), none for
 *   the others; the body serialised once; idempotent when an event is fanned out twice;
 * - spec §3.1/§3.2 end to end through the state machines: 2xx succeeds and clears the failure
 *   count; 6 failed attempts exhaust a delivery, one delivery id throughout, counting once; 3
 *   exhausted deliveries in a row deactivate the webhook (still validated), last_failure_at set,
 *   and the Webhook Deactivated notice is stored for the account's members, once;
 * - a webhook that stopped delivering cancels its due deliveries without calling the endpoint;
 *   a deleted webhook's deliveries are gone at once and an attempt in flight records nothing;
 * - the lease fences a late result; concurrent claimers never share a delivery;
 * - the delivery log and redelivery, tenancy included.
 */
import { assert, describe, layer } from "@effect/vitest"
import {
  attemptDelivery,
  bootstrapAccount,
  DeliveryPolicy,
  DeliveryRepository,
  type EventName,
  fanOutEvents,
  listDeliveries,
  NotificationRepository,
  Outbox,
  type Principal,
  PERMISSIONS,
  redeliver,
  SecretBox,
  WebhookTransport,
  type WebhookRequest,
  type WebhookResponse,
  verifyDelivery
} from "@wasl/core"
import { Context, DateTime, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { MigrationsLive } from "../../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../../src/db/test-database.ts"

type TestDatabaseLayer = typeof TestDatabase.pglite
import { PasswordHasherScrypt } from "../../src/password-hasher-scrypt.ts"
import { ServicesPg } from "../../src/services-pg.ts"

// ---------------------------------------------------------------------------------------------
// A scripted transport
// ---------------------------------------------------------------------------------------------

interface Script {
  /** Status per URL; a URL not listed answers 200. A string is a failed request with that error. */
  readonly answers: Map<string, number | string>
  readonly requests: Array<WebhookRequest>
  /** Runs while a request is "on the wire" (to act between claim and record). */
  onSend: (request: WebhookRequest) => Effect.Effect<void>
}

class Scripted extends Context.Service<Scripted, Script>()("test/Scripted") {}

const ScriptedTransport = Layer.effectContext(Effect.sync(() => {
  const script: Script = { answers: new Map(), requests: [], onSend: () => Effect.void }
  const transport = WebhookTransport.of({
    post: (request) =>
      Effect.gen(function*() {
        script.requests.push(request)
        yield* script.onSend(request)
        const answer = script.answers.get(request.url) ?? 200
        return (typeof answer === "string"
          ? { _tag: "Failed", error: answer, durationMillis: 3 }
          : { _tag: "Answered", status: answer, body: `answer ${answer}`, durationMillis: 2 }) satisfies WebhookResponse as WebhookResponse
      })
  })
  return Context.make(Scripted, script).pipe(Context.add(WebhookTransport, transport))
}))

const KEY = new Uint8Array(32).fill(7)

const services = (database: TestDatabaseLayer) =>
  Layer.mergeAll(ScriptedTransport, SecretBox.layerAesGcm(KEY)).pipe(
    Layer.provideMerge(ServicesPg),
    Layer.provideMerge(PasswordHasherScrypt),
    Layer.provideMerge(MigrationsLive),
    Layer.provideMerge(database)
  )

/** Every attempt due at once: the schedule's delays are not what these tests are about. */
const IMMEDIATE = { schedule: Array.from({ length: 6 }, () => Duration.zero), timeout: Duration.seconds(5) }
const immediate = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, DeliveryPolicy, IMMEDIATE)

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const SECRET = "0123456789abcdefghijklmnopqrstuv"

/** Finishes whatever earlier tests left queued, so each test sees only its own work. */
const reset = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM outbox_events`
  yield* sql`UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, claimed_until = NULL WHERE status = 'pending'`
  const script = yield* Scripted
  script.answers.clear()
  script.requests.length = 0
  script.onSend = () => Effect.void
})

let accounts = 0
/** An account with its owner (holding webhook-update) and a principal for it. */
const newAccount = Effect.gen(function*() {
  accounts++
  const made = yield* bootstrapAccount({
    account: `Deliveries ${accounts}`,
    email: `owner${accounts}-${Date.now()}@example.com`,
    password: "a password of some length",
    plan: "business",
    otpCredits: 0
  })
  const principal: Principal = {
    kind: "token",
    accountId: made.account_id,
    userId: made.user_id,
    permissions: new Set(PERMISSIONS),
    abilities: ["*"],
    tokenId: null,
    sessionId: null
  }
  return { accountId: made.account_id, userId: made.user_id, principal }
})

const newWebhook = (accountId: number, url: string, events: ReadonlyArray<EventName>, state = { validated: true, active: true }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const sealed = yield* (yield* SecretBox).seal(SECRET)
    const [row] = yield* sql<{ id: number }>`
      INSERT INTO webhooks (account_id, url, secret_sealed, is_validated, is_active, created_at, updated_at)
      VALUES (${accountId}, ${url}, ${sealed}, ${state.validated}, ${state.active}, now(), now())
      RETURNING id
    `
    const id = Number(row!.id)
    for (const name of events) {
      yield* sql`
        INSERT INTO webhook_events (account_id, webhook_id, name, created_at, updated_at)
        VALUES (${accountId}, ${id}, ${name}, now(), now())
      `
    }
    return id
  })

const webhookRow = (id: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ is_validated: boolean; is_active: boolean; consecutive_failures: number; last_failure_at: unknown }>`
      SELECT is_validated, is_active, consecutive_failures, last_failure_at FROM webhooks WHERE id = ${id}
    `.pipe(Effect.map((rows) => ({ ...rows[0]!, consecutive_failures: Number(rows[0]!.consecutive_failures) }))))

const append = (accountId: number, name: EventName, payload: object) =>
  Outbox.use((outbox) => outbox.append([{ accountId, name, payload }]))

/** Claims every due delivery and attempts each once; returns the outcomes. */
const attemptAllDue = immediate(Effect.gen(function*() {
  const claimed = yield* DeliveryRepository.use((repo) => repo.claimDue(1000, Duration.minutes(1)))
  return yield* Effect.forEach(claimed, (delivery) => attemptDelivery(delivery))
}))

const fanOut = immediate(fanOutEvents(1000, Duration.minutes(1)))

const deliveriesOf = (accountId: number, webhookId: number) =>
  Effect.map(
    DeliveryRepository.use((repo) => repo.list(accountId, webhookId, { offset: 0, limit: 100 })),
    (page) => page.items
  )

// ---------------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------------

const suite = (name: string, database: TestDatabaseLayer) =>
  layer(services(database), { excludeTestServices: true, timeout: Duration.seconds(120) })(name, (it) => {
    it.effect("fans an event out to each subscribed, validated and active webhook of its account only", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const b = yield* newAccount
        const both = yield* newWebhook(a.accountId, "https://a.example/both", ["deal-created", "contact-created"])
        const dealOnly = yield* newWebhook(a.accountId, "https://a.example/deal", ["deal-created"])
        const contactOnly = yield* newWebhook(a.accountId, "https://a.example/contact", ["contact-created"])
        const unvalidated = yield* newWebhook(a.accountId, "https://a.example/new", ["deal-created"], { validated: false, active: false })
        const inactive = yield* newWebhook(a.accountId, "https://a.example/off", ["deal-created"], { validated: true, active: false })
        const otherAccount = yield* newWebhook(b.accountId, "https://b.example/deal", ["deal-created"])

        const payload = { properties: { deal_name: "Big", _id: "65a1b2c3d4e5f60718293a4b" }, contacts: [] }
        const [event] = yield* append(a.accountId, "deal-created", payload)
        const result = yield* fanOut
        assert.deepStrictEqual(result, { events: 1, deliveries: 2 })

        for (const id of [both, dealOnly]) {
          const [delivery] = yield* deliveriesOf(a.accountId, id)
          assert.strictEqual(delivery?.event, "deal-created")
          assert.strictEqual(delivery?.status, "pending")
        }
        for (const id of [contactOnly, unvalidated, inactive]) assert.lengthOf(yield* deliveriesOf(a.accountId, id), 0)
        assert.lengthOf(yield* deliveriesOf(b.accountId, otherAccount), 0)

        // The outbox event is gone: it was completed in the fan-out's transaction.
        assert.lengthOf(yield* Outbox.use((o) => o.claim(10, Duration.minutes(1))), 0)

        // Attempts send the stored body, signed, with the delivery's id.
        const outcomes = yield* attemptAllDue
        assert.deepStrictEqual(outcomes, ["Succeeded", "Succeeded"])
        const script = yield* Scripted
        assert.lengthOf(script.requests, 2)
        for (const request of script.requests) {
          const body = JSON.parse(request.body)
          assert.deepStrictEqual(Object.keys(body), ["time", "event", "deal"])
          assert.deepStrictEqual(body.deal, payload)
          assert.strictEqual(Math.round(body.time * 1e6), event!.occurredAtMicros)
          const ts = request.headers["X-Wasl-Timestamp"]!
          assert.isTrue(yield* verifyDelivery(SECRET, ts, request.body, request.headers["X-Wasl-Signature"]!))
        }
        assert.notStrictEqual(script.requests[0]!.headers["X-Wasl-Delivery"], script.requests[1]!.headers["X-Wasl-Delivery"])
      }))

    it.effect("fanning the same event out twice (a lease ran out) queues it once", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const hook = yield* newWebhook(a.accountId, "https://a.example/once", ["ticket-updated"])
        yield* append(a.accountId, "ticket-updated", { properties: { ticket_name: "T" } })
        // A first claimer takes the event and stalls; its lease runs out; a second one fans it out.
        const outbox = yield* Outbox
        const stale = yield* outbox.claim(10, Duration.millis(1))
        assert.lengthOf(stale, 1)
        yield* Effect.sleep(Duration.millis(5))
        assert.deepStrictEqual(yield* fanOut, { events: 1, deliveries: 1 })
        // The stale claimer now writes its deliveries for the same event: nothing new.
        const repo = yield* DeliveryRepository
        const [delivery] = yield* deliveriesOf(a.accountId, hook)
        yield* repo.insert([{
          accountId: a.accountId,
          id: "00000000-0000-4000-8000-000000000001",
          webhookId: hook,
          event: "ticket-updated",
          body: "{}",
          eventId: stale[0]!.id,
          state: { status: "pending", attempts: 0, nextAttemptAt: delivery!.nextAttemptAt },
          createdAt: delivery!.createdAt
        }])
        assert.lengthOf(yield* deliveriesOf(a.accountId, hook), 1)
      }))

    it.effect("six failed attempts: one delivery id, then exhausted, counted once; three in a row deactivate and notify once", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const url = "https://a.example/down"
        const hook = yield* newWebhook(a.accountId, url, ["contact-updated"])
        const script = yield* Scripted
        script.answers.set(url, 503)

        for (let round = 1; round <= 3; round++) {
          script.requests.length = 0
          yield* append(a.accountId, "contact-updated", { properties: { firstname: `R${round}` }, channels: [] })
          yield* fanOut
          const outcomes: Array<string> = []
          for (let attempt = 1; attempt <= 6; attempt++) outcomes.push(...(yield* attemptAllDue))
          assert.deepStrictEqual(outcomes, ["Retrying", "Retrying", "Retrying", "Retrying", "Retrying", "Exhausted"])
          // Nothing more is due for it.
          assert.deepStrictEqual(yield* attemptAllDue, [])
          assert.strictEqual(new Set(script.requests.map((r) => r.headers["X-Wasl-Delivery"])).size, 1)
          assert.lengthOf(script.requests, 6)
          const row = yield* webhookRow(hook)
          assert.strictEqual(row.consecutive_failures, round)
          assert.isNotNull(row.last_failure_at)
          assert.strictEqual(row.is_active, round < 3)
          assert.isTrue(row.is_validated)
        }
        const [latest] = yield* deliveriesOf(a.accountId, hook)
        assert.strictEqual(latest!.status, "failed")
        assert.deepStrictEqual(latest!.attempts.map((x) => x.number), [1, 2, 3, 4, 5, 6])
        assert.deepStrictEqual(latest!.attempts.map((x) => x.statusCode), [503, 503, 503, 503, 503, 503])
        assert.isNull(latest!.nextAttemptAt)

        // The owner (webhook-update) got one stored Webhook Deactivated notice naming the URL.
        const notifications = yield* NotificationRepository
        assert.strictEqual(yield* notifications.unreadCount(a.accountId, a.userId), 1)

        // Deactivated: new events are not fanned out to it any more.
        yield* append(a.accountId, "contact-updated", { properties: {}, channels: [] })
        assert.deepStrictEqual(yield* fanOut, { events: 1, deliveries: 0 })
      }))

    it.effect("a success clears the failure count; a failed connection counts as a failed attempt", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const url = "https://a.example/flaky"
        const hook = yield* newWebhook(a.accountId, url, ["deal-updated"])
        const script = yield* Scripted
        script.answers.set(url, "Connection refused by a.example.")
        yield* append(a.accountId, "deal-updated", { properties: {} })
        yield* fanOut
        for (let i = 0; i < 6; i++) yield* attemptAllDue
        assert.strictEqual((yield* webhookRow(hook)).consecutive_failures, 1)
        const [failed] = yield* deliveriesOf(a.accountId, hook)
        assert.deepStrictEqual(failed!.attempts[0]!.error, "Connection refused by a.example.")
        assert.isNull(failed!.attempts[0]!.statusCode)

        // Fails twice, then a 204 on the third attempt.
        script.answers.set(url, 500)
        yield* append(a.accountId, "deal-updated", { properties: {} })
        yield* fanOut
        assert.deepStrictEqual(yield* attemptAllDue, ["Retrying"])
        script.answers.set(url, 302)
        assert.deepStrictEqual(yield* attemptAllDue, ["Retrying"])
        script.answers.set(url, 204)
        assert.deepStrictEqual(yield* attemptAllDue, ["Succeeded"])
        assert.strictEqual((yield* webhookRow(hook)).consecutive_failures, 0)
        const [succeeded] = yield* deliveriesOf(a.accountId, hook)
        assert.strictEqual(succeeded!.status, "succeeded")
        assert.deepStrictEqual(succeeded!.attempts.map((x) => x.statusCode), [500, 302, 204])
        assert.match(succeeded!.attempts[1]!.error ?? "", /Redirects are not followed/)
      }))

    it.effect("a webhook switched off or unvalidated cancels its due deliveries without calling it", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const url = "https://a.example/paused"
        const hook = yield* newWebhook(a.accountId, url, ["product-created"])
        yield* append(a.accountId, "product-created", { properties: { name: "P" } })
        yield* fanOut
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE webhooks SET is_validated = false WHERE id = ${hook}`
        assert.deepStrictEqual(yield* attemptAllDue, ["Cancelled"])
        assert.lengthOf((yield* Scripted).requests, 0)
        const [delivery] = yield* deliveriesOf(a.accountId, hook)
        assert.strictEqual(delivery!.status, "failed")
        assert.lengthOf(delivery!.attempts, 0)
        // A cancellation is not a failure of the endpoint.
        assert.strictEqual((yield* webhookRow(hook)).consecutive_failures, 0)
      }))

    it.effect("deleting a webhook removes its deliveries at once; an attempt in flight records nothing", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const url = "https://a.example/deleted"
        const hook = yield* newWebhook(a.accountId, url, ["company-created"])
        yield* append(a.accountId, "company-created", { properties: { name: "C" } })
        yield* append(a.accountId, "company-created", { properties: { name: "D" } })
        yield* fanOut
        const sql = yield* SqlClient.SqlClient
        const script = yield* Scripted
        // The webhook is deleted while the first request is on the wire.
        script.onSend = () => Effect.orDie(Effect.asVoid(sql`DELETE FROM webhooks WHERE id = ${hook}`))
        const outcomes = yield* attemptAllDue
        assert.deepStrictEqual(outcomes, ["Dropped", "Dropped"])
        const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int4 AS n FROM deliveries WHERE webhook_id = ${hook}`
        assert.strictEqual(Number(n), 0)
        assert.deepStrictEqual(yield* attemptAllDue, [])
      }))

    it.effect("a result that comes back after the lease was lost is dropped; concurrent claimers never share a delivery", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const hook = yield* newWebhook(a.accountId, "https://a.example/lease", ["invoice-created"])
        for (let i = 0; i < 40; i++) yield* append(a.accountId, "invoice-created", { properties: { invoice_number: `${i}` } })
        yield* fanOut
        const repo = yield* DeliveryRepository
        const claims = yield* Effect.all(
          Array.from({ length: 4 }, () => repo.claimDue(15, Duration.minutes(1))),
          { concurrency: "unbounded" }
        )
        const ids = claims.flat().map((d) => d.id)
        assert.strictEqual(ids.length, 40)
        assert.strictEqual(new Set(ids).size, 40)

        // A lease that is not the current one cannot record.
        const first = claims.flat()[0]!
        const recorded = yield* repo.recordAttempts([{
          lease: { accountId: first.accountId, id: first.id, claimedUntil: DateTime.makeUnsafe("2020-01-01T00:00:00Z") },
          state: { status: "succeeded", attempts: 1, nextAttemptAt: null },
          attempt: null,
          clearsFailures: false
        }])
        assert.strictEqual(recorded.size, 0)
        // Release ends the leases: claimable again at once.
        yield* repo.release(claims.flat().map((d) => ({ accountId: d.accountId, id: d.id, claimedUntil: d.claimedUntil })))
        assert.lengthOf(yield* repo.claimDue(100, Duration.minutes(1)), 40)
        assert.lengthOf(yield* deliveriesOf(a.accountId, hook), 40)
      }))

    it.effect("the delivery log pages newest first; redelivery queues a new id with the same body; other accounts get 404", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const b = yield* newAccount
        const hook = yield* newWebhook(a.accountId, "https://a.example/log", ["contact-deleted"])
        for (let i = 0; i < 3; i++) yield* append(a.accountId, "contact-deleted", { properties: { n: i }, channels: [] })
        yield* fanOut
        yield* attemptAllDue
        const page = yield* listDeliveries(a.principal, hook, [["page", "1"], ["per_page", "2"]])
        assert.strictEqual(page.total, 3)
        assert.lengthOf(page.items, 2)
        const original = page.items[0]!
        assert.strictEqual(original.status, "succeeded")
        assert.deepStrictEqual(original.attempts.map((x) => [x.number, x.status_code, x.response]), [[1, 200, "answer 200"]])

        const again = yield* immediate(redeliver(a.principal, hook, original.id))
        assert.notStrictEqual(again.id, original.id)
        assert.strictEqual(again.status, "pending")
        const script = yield* Scripted
        script.requests.length = 0
        assert.deepStrictEqual(yield* attemptAllDue, ["Succeeded"])
        const bodyOf = (id: string) =>
          Effect.map(DeliveryRepository.use((r) => r.findBody(a.accountId, hook, id)), (o) => o._tag === "Some" ? o.value.body : "")
        assert.strictEqual(script.requests[0]!.body, yield* bodyOf(original.id))
        assert.strictEqual(script.requests[0]!.headers["X-Wasl-Delivery"], again.id)

        // Another account sees neither the webhook nor the delivery.
        const notFound = (e: Effect.Effect<unknown, unknown, any>) => Effect.map(Effect.flip(e), (err: any) => err._tag)
        assert.strictEqual(yield* notFound(listDeliveries(b.principal, hook, [])), "NotFound")
        assert.strictEqual(yield* notFound(redeliver(b.principal, hook, original.id)), "NotFound")
        assert.strictEqual(yield* notFound(redeliver(a.principal, hook, "not-a-uuid")), "NotFound")
        // Permissions: index to read, update to redeliver.
        const readOnly: Principal = { ...a.principal, permissions: new Set(["webhook-index"]) }
        assert.strictEqual(yield* notFound(redeliver(readOnly, hook, original.id)), "Forbidden")
        const none: Principal = { ...a.principal, permissions: new Set() }
        assert.strictEqual(yield* notFound(listDeliveries(none, hook, [])), "Forbidden")
      }))
  })

suite("deliveries on PGlite", TestDatabase.pglite)

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  suite("deliveries on PostgreSQL", TestDatabase.postgres)
})
