/**
 * The delivery use-cases (core use-cases/deliveries.ts, delivery-log.ts) over the memory adapters,
 * over PGlite, and over PostgreSQL when TEST_DATABASE_URL is set. Requests go to
 * `WebhookTransportMemory`: a URL registered in `MemoryReceivers` answers as a correct receiver
 * (checking the signature), a scripted URL answers what the test chooses, any other refuses the
 * connection. What the queue itself guarantees (leases, fencing, idempotent inserts, concurrent
 * claimers) is the delivery repository contract's (src/testing/delivery-repository-contract.ts).
 *
 * - fan-out: one delivery per (event, subscribed webhook that is validated and active), none for
 *   the others; the body serialised once and signed so that the receiver accepts it;
 * - the webhook and delivery state machines end to end: 2xx succeeds and clears the failure
 *   count; 6 failed attempts exhaust a delivery, one delivery id throughout, counting once; 3
 *   exhausted deliveries in a row deactivate the webhook (still validated), last_failure_at set,
 *   and the Webhook Deactivated notice is stored for the account's members, once;
 * - a webhook that stopped delivering cancels its due deliveries without calling the endpoint;
 *   a deleted webhook's deliveries are gone at once and an attempt in flight records nothing;
 * - the delivery log and redelivery, tenancy and permissions included; a redelivery starts a
 *   trace of its own;
 * - recovery: at most RECOVERY_BATCH deliveries per call, the earliest ended first.
 */
import { assert, describe, layer } from "@effect/vitest"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { PERMISSIONS, type Principal, SecretBox } from "@wasl/core/Auth"
import {
  attemptDelivery,
  DeliveryPolicy,
  DeliveryRepository,
  fanOutEvents,
  listDeliveries,
  type NewDelivery,
  RECOVERY_BATCH,
  recoverDeliveries,
  redeliver
} from "@wasl/core/Deliveries"
import { Outbox } from "@wasl/core/Events"
import { NotificationRepository } from "@wasl/core/Notifications"
import { EVENT_NAMES, type EventName } from "@wasl/core/Records"
import { verifyDelivery, WebhookRepository, type WebhookResponse, type WebhookState } from "@wasl/core/Webhooks"
import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql"
import { MigrationsLive } from "../../src/db/database.ts"
import { postgresTestEnabled, TestDatabase } from "../../src/db/test-database.ts"
import { MemoryReceivers, RepositoriesMemory, WebhookTransportMemory } from "../../src/memory/index.ts"
import { PasswordHasherScrypt } from "../../src/password-hasher-scrypt.ts"
import { ServicesPg } from "../../src/services-pg.ts"
import { DELIVERING_WEBHOOK, drainDeliveries, drainOutbox, makeRecordingTracer, newWebhook } from "../../src/testing/index.ts"
import { TokenHasherNode } from "../../src/token-hasher-node.ts"

const KEY = new Uint8Array(32).fill(7)

/** The transport to the in-memory receivers, and the server key. */
const outgoing = Layer.mergeAll(WebhookTransportMemory.pipe(Layer.provideMerge(MemoryReceivers.layer)), SecretBox.layerAesGcm(KEY))

const onMemory = outgoing.pipe(
  Layer.provideMerge(Layer.mergeAll(RepositoriesMemory, TokenHasherNode, PasswordHasherScrypt)),
  Layer.provideMerge(SecureRandom.layerWebCrypto)
)

const onDatabase = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  outgoing.pipe(
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
const reset = Effect.andThen(drainOutbox, drainDeliveries)

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

/** A webhook with SECRET, and a receiver at its URL that holds the same secret. */
const receivingWebhook = (accountId: number, url: string, events: ReadonlyArray<EventName>, state = DELIVERING_WEBHOOK) =>
  Effect.gen(function*() {
    const sealed = yield* SecretBox.use((box) => box.seal(SECRET))
    yield* MemoryReceivers.use((receivers) => receivers.register(url, SECRET))
    return yield* newWebhook(accountId, url, events, state, sealed)
  })

/** A webhook with SECRET and nothing listening at its URL. */
const unreachableWebhook = (accountId: number, url: string, events: ReadonlyArray<EventName>) =>
  Effect.flatMap(SecretBox.use((box) => box.seal(SECRET)), (sealed) => newWebhook(accountId, url, events, DELIVERING_WEBHOOK, sealed))

const healthOf = (accountId: number, id: number) =>
  Effect.map(WebhookRepository.use((repo) => repo.findById(accountId, id)), (found) => Option.getOrThrow(found).state)

const setHealth = (accountId: number, id: number, state: WebhookState) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookRepository
    const current = Option.getOrThrow(yield* webhooks.findById(accountId, id))
    yield* webhooks.update(accountId, id, { url: current.url, state, now: current.updatedAt })
  })

const answered = (status: number): WebhookResponse => ({ _tag: "Answered", status, body: `answer ${status}`, durationMillis: 0 })

/** The requests sent to `url`, oldest first. */
const requestsTo = (url: string) =>
  Effect.map(MemoryReceivers.use((receivers) => receivers.sent), (sent) => sent.filter((s) => s.request.url === url))

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

const suite = <E>(name: string, services: Layer.Layer<any, E>) =>
  layer(services, { excludeTestServices: true, timeout: Duration.seconds(120) })(name, (it) => {
    it.effect("fans an event out to each subscribed, validated and active webhook of its account only", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const b = yield* newAccount
        const both = yield* receivingWebhook(a.accountId, "https://a.example/both", ["deal-created", "contact-created"])
        const dealOnly = yield* receivingWebhook(a.accountId, "https://a.example/deal", ["deal-created"])
        const contactOnly = yield* receivingWebhook(a.accountId, "https://a.example/contact", ["contact-created"])
        const unvalidated = yield* receivingWebhook(a.accountId, "https://a.example/new", ["deal-created"], {
          ...DELIVERING_WEBHOOK,
          isValidated: false,
          isActive: false
        })
        const inactive = yield* receivingWebhook(a.accountId, "https://a.example/off", ["deal-created"], {
          ...DELIVERING_WEBHOOK,
          isActive: false
        })
        const otherAccount = yield* receivingWebhook(b.accountId, "https://b.example/deal", ["deal-created"])

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

        // Attempts send the stored body, signed so that the receivers accept it, with the delivery's id.
        const outcomes = yield* attemptAllDue
        assert.deepStrictEqual(outcomes, ["Succeeded", "Succeeded"])
        const sent = [...(yield* requestsTo("https://a.example/both")), ...(yield* requestsTo("https://a.example/deal"))]
        assert.lengthOf(sent, 2)
        for (const { request, response } of sent) {
          assert.deepStrictEqual(response._tag === "Answered" ? response.status : response.error, 200)
          const body = JSON.parse(request.body)
          assert.deepStrictEqual(Object.keys(body), ["time", "event", "deal"])
          assert.deepStrictEqual(body.deal, payload)
          assert.strictEqual(Math.round(body.time * 1e6), event!.occurredAtMicros)
          const ts = request.headers["X-Wasl-Timestamp"]!
          assert.isTrue(yield* verifyDelivery(SECRET, ts, request.body, request.headers["X-Wasl-Signature"]!))
        }
        assert.notStrictEqual(sent[0]!.request.headers["X-Wasl-Delivery"], sent[1]!.request.headers["X-Wasl-Delivery"])
      }))

    it.effect("delivers a message event under `message` to the webhooks that name it only, not to those holding every record event", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const named = yield* receivingWebhook(a.accountId, "https://a.example/messages", ["message-received"])
        const everyRecordEvent = yield* receivingWebhook(a.accountId, "https://a.example/records", EVENT_NAMES)
        const statuses = yield* receivingWebhook(a.accountId, "https://a.example/statuses", ["message-status-updated"])
        const payload = { _id: "65a1b2c3d4e5f60718293a4b", id: "wamid.HBgL", is_sent_by_the_business: false }
        yield* append(a.accountId, "message-received", payload)
        assert.deepStrictEqual(yield* fanOut, { events: 1, deliveries: 1 })
        assert.lengthOf(yield* deliveriesOf(a.accountId, everyRecordEvent), 0)
        assert.lengthOf(yield* deliveriesOf(a.accountId, statuses), 0)
        assert.strictEqual((yield* deliveriesOf(a.accountId, named))[0]?.event, "message-received")
        assert.deepStrictEqual(yield* attemptAllDue, ["Succeeded"])
        const [sent] = yield* requestsTo("https://a.example/messages")
        const body = JSON.parse(sent!.request.body)
        assert.deepStrictEqual(Object.keys(body), ["time", "event", "message"])
        assert.deepStrictEqual(body.message, payload)
      }))

    it.effect("six failed attempts: one delivery id, then exhausted, counted once; three in a row deactivate and notify once", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const url = "https://a.example/down"
        const hook = yield* receivingWebhook(a.accountId, url, ["contact-updated"])
        yield* MemoryReceivers.use((receivers) => receivers.script(url, answered(503)))

        for (let round = 1; round <= 3; round++) {
          const before = (yield* requestsTo(url)).length
          yield* append(a.accountId, "contact-updated", { properties: { firstname: `R${round}` }, channels: [] })
          yield* fanOut
          const outcomes: Array<string> = []
          for (let attempt = 1; attempt <= 6; attempt++) outcomes.push(...(yield* attemptAllDue))
          assert.deepStrictEqual(outcomes, ["Retrying", "Retrying", "Retrying", "Retrying", "Retrying", "Exhausted"])
          // Nothing more is due for it.
          assert.deepStrictEqual(yield* attemptAllDue, [])
          const requests = (yield* requestsTo(url)).slice(before)
          assert.strictEqual(new Set(requests.map((r) => r.request.headers["X-Wasl-Delivery"])).size, 1)
          assert.lengthOf(requests, 6)
          const health = yield* healthOf(a.accountId, hook)
          assert.strictEqual(health.consecutiveFailures, round)
          assert.isNotNull(health.lastFailureAt)
          assert.strictEqual(health.isActive, round < 3)
          assert.isTrue(health.isValidated)
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

    it.effect("a success clears the failure count; a refused connection counts as a failed attempt", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const url = "https://flaky.a.example/hook"
        // Nothing listens at the URL yet.
        const hook = yield* unreachableWebhook(a.accountId, url, ["deal-updated"])
        yield* append(a.accountId, "deal-updated", { properties: {} })
        yield* fanOut
        for (let i = 0; i < 6; i++) yield* attemptAllDue
        assert.strictEqual((yield* healthOf(a.accountId, hook)).consecutiveFailures, 1)
        const [failed] = yield* deliveriesOf(a.accountId, hook)
        assert.deepStrictEqual(failed!.attempts[0]!.error, "Connection refused by flaky.a.example.")
        assert.isNull(failed!.attempts[0]!.statusCode)

        // Fails twice, then the receiver is up and answers.
        const receivers = yield* MemoryReceivers
        yield* receivers.script(url, answered(500))
        yield* append(a.accountId, "deal-updated", { properties: {} })
        yield* fanOut
        assert.deepStrictEqual(yield* attemptAllDue, ["Retrying"])
        yield* receivers.script(url, answered(302))
        assert.deepStrictEqual(yield* attemptAllDue, ["Retrying"])
        yield* receivers.unscript(url)
        yield* receivers.register(url, SECRET)
        assert.deepStrictEqual(yield* attemptAllDue, ["Succeeded"])
        assert.strictEqual((yield* healthOf(a.accountId, hook)).consecutiveFailures, 0)
        const [succeeded] = yield* deliveriesOf(a.accountId, hook)
        assert.strictEqual(succeeded!.status, "succeeded")
        assert.deepStrictEqual(succeeded!.attempts.map((x) => x.statusCode), [500, 302, 200])
        assert.match(succeeded!.attempts[1]!.error ?? "", /Redirects are not followed/)
      }))

    it.effect("a webhook switched off or unvalidated cancels its due deliveries without calling it", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const url = "https://a.example/paused"
        const hook = yield* receivingWebhook(a.accountId, url, ["product-created"])
        yield* append(a.accountId, "product-created", { properties: { name: "P" } })
        yield* fanOut
        yield* setHealth(a.accountId, hook, { ...DELIVERING_WEBHOOK, isValidated: false })
        assert.deepStrictEqual(yield* attemptAllDue, ["Cancelled"])
        assert.lengthOf(yield* requestsTo(url), 0)
        const [delivery] = yield* deliveriesOf(a.accountId, hook)
        assert.strictEqual(delivery!.status, "failed")
        assert.lengthOf(delivery!.attempts, 0)
        // A cancellation is not a failure of the endpoint.
        assert.strictEqual((yield* healthOf(a.accountId, hook)).consecutiveFailures, 0)
      }))

    it.effect("deleting a webhook removes its deliveries at once; an attempt in flight records nothing", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const url = "https://a.example/deleted"
        const hook = yield* receivingWebhook(a.accountId, url, ["company-created"])
        yield* append(a.accountId, "company-created", { properties: { name: "C" } })
        yield* append(a.accountId, "company-created", { properties: { name: "D" } })
        yield* fanOut
        const webhooks = yield* WebhookRepository
        // The webhook is deleted while the first request is on the wire.
        yield* MemoryReceivers.use((receivers) =>
          receivers.script(url, () => Effect.as(webhooks.delete(a.accountId, hook), answered(200)))
        )
        const outcomes = yield* attemptAllDue
        assert.deepStrictEqual(outcomes, ["Dropped", "Dropped"])
        assert.lengthOf(yield* deliveriesOf(a.accountId, hook), 0)
        assert.deepStrictEqual(yield* attemptAllDue, [])
      }))

    it.effect("the delivery log pages newest first; redelivery queues a new id with the same body; other accounts get 404", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const b = yield* newAccount
        const url = "https://a.example/log"
        const hook = yield* receivingWebhook(a.accountId, url, ["contact-deleted"])
        for (let i = 0; i < 3; i++) yield* append(a.accountId, "contact-deleted", { properties: { n: i }, channels: [] })
        yield* fanOut
        yield* attemptAllDue
        const page = yield* listDeliveries(a.principal, hook, { page: "1", per_page: "2" })
        assert.strictEqual(page.total, 3)
        assert.lengthOf(page.items, 2)
        const original = page.items[0]!
        assert.strictEqual(original.status, "succeeded")
        assert.deepStrictEqual(original.attempts.map((x) => [x.number, x.status_code, x.response]), [[1, 200, ""]])

        const again = yield* immediate(redeliver(a.principal, hook, original.id))
        assert.notStrictEqual(again.id, original.id)
        assert.strictEqual(again.status, "pending")
        const before = (yield* requestsTo(url)).length
        assert.deepStrictEqual(yield* attemptAllDue, ["Succeeded"])
        const [resent] = (yield* requestsTo(url)).slice(before)
        const bodyOf = (id: string) =>
          Effect.map(DeliveryRepository.use((r) => r.findBody(a.accountId, hook, id)), (o) => o._tag === "Some" ? o.value.body : "")
        assert.strictEqual(resent!.request.body, yield* bodyOf(original.id))
        assert.strictEqual(resent!.request.headers["X-Wasl-Delivery"], again.id)

        // Another account sees neither the webhook nor the delivery.
        const notFound = (e: Effect.Effect<unknown, unknown, any>) => Effect.map(Effect.flip(e), (err: any) => err._tag)
        assert.strictEqual(yield* notFound(listDeliveries(b.principal, hook, {})), "NotFound")
        assert.strictEqual(yield* notFound(redeliver(b.principal, hook, original.id)), "NotFound")
        assert.strictEqual(yield* notFound(redeliver(a.principal, hook, "not-a-uuid")), "NotFound")
        // Permissions: index to read, update to redeliver.
        const readOnly: Principal = { ...a.principal, permissions: new Set(["webhook-index"]) }
        assert.strictEqual(yield* notFound(redeliver(readOnly, hook, original.id)), "Forbidden")
        const none: Principal = { ...a.principal, permissions: new Set() }
        assert.strictEqual(yield* notFound(listDeliveries(none, hook, {})), "Forbidden")
      }))

    it.effect("a recovery queues at most RECOVERY_BATCH, the earliest ended first; the next call queues the rest", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const hook = yield* receivingWebhook(a.accountId, "https://a.example/recover", ["deal-created"])
        const repo = yield* DeliveryRepository
        const random = yield* SecureRandom.SecureRandom
        const now = yield* DateTime.now
        const failed: Array<NewDelivery> = []
        // Ended (`updated_at`, here their creation) one millisecond apart, the last one latest.
        for (let i = 0; i <= RECOVERY_BATCH; i++) {
          failed.push({
            accountId: a.accountId,
            id: yield* random.uuidV4(),
            webhookId: hook,
            event: "deal-created",
            body: `{"n":${i}}`,
            eventId: null,
            state: { status: "failed", attempts: 6, nextAttemptAt: null },
            createdAt: DateTime.subtract(now, { milliseconds: RECOVERY_BATCH + 1 - i })
          })
        }
        yield* repo.insert(failed)
        const since = { since: DateTime.formatIso(DateTime.subtract(now, { hours: 1 })) }
        const pendingBodies = Effect.gen(function*() {
          const { items } = yield* repo.list(a.accountId, hook, { offset: 0, limit: 3 * RECOVERY_BATCH })
          const bodies: Array<string> = []
          for (const item of items.filter((d) => d.status === "pending")) {
            bodies.push(Option.getOrThrow(yield* repo.findBody(a.accountId, hook, item.id)).body)
          }
          return bodies
        })
        assert.deepStrictEqual(yield* immediate(recoverDeliveries(a.principal, hook, since)), { queued: RECOVERY_BATCH })
        const first = yield* pendingBodies
        assert.strictEqual(first.length, RECOVERY_BATCH)
        assert.isFalse(first.includes(failed[RECOVERY_BATCH]!.body), "the latest ended is left for the next call")
        assert.deepStrictEqual(yield* immediate(recoverDeliveries(a.principal, hook, since)), { queued: 1 })
        assert.isTrue((yield* pendingBodies).includes(failed[RECOVERY_BATCH]!.body))
        assert.deepStrictEqual(yield* immediate(recoverDeliveries(a.principal, hook, since)), { queued: 0 })
        }))

    it.effect("a redelivery starts a trace of its own: the original's trace context is not copied", () =>
      Effect.gen(function*() {
        yield* reset
        const a = yield* newAccount
        const hook = yield* receivingWebhook(a.accountId, "https://a.example/traced", ["contact-created"])
        yield* append(a.accountId, "contact-created", { properties: { n: 1 }, channels: [] }).pipe(
          Effect.withSpan("createRecord"),
          Effect.withTracer(makeRecordingTracer().tracer)
        )
        yield* fanOut
        const claim = DeliveryRepository.use((repo) => repo.claimDue(1000, Duration.minutes(1)))
        const [original] = yield* claim
        assert.isDefined(original!.traceParent)

        const again = yield* immediate(redeliver(a.principal, hook, original!.id))
        const [redelivered] = yield* claim
        assert.strictEqual(redelivered!.id, again.id)
        assert.isFalse("traceParent" in redelivered!)
      }))
  })

suite("deliveries in memory", onMemory)

suite("deliveries on PGlite", onDatabase(TestDatabase.pglite))

describe.runIf(postgresTestEnabled())("on PostgreSQL", () => {
  suite("deliveries on PostgreSQL", onDatabase(TestDatabase.postgres))
})
