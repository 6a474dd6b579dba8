/**
 * The worker's loops (`runDeliveryWorker`) on the all-memory ports (`WaslMemory`: the store with
 * its QueueSignals, the transport to `MemoryReceivers`, the `MemoryMailbox`) under `TestClock`,
 * with the default retry schedule (immediately, 5 min, 30 min, 1 h, 3 h, 1 day): deterministic, and
 * no real time passes.
 *
 * - an appended event is fanned out and attempted at once, woken by the store's signals alone
 *   (every poll is a week away);
 * - failed attempts (a refused connection, a 503) are retried exactly when due, never a moment
 *   earlier, with one delivery id, and the attempt that meets a receiver holding the webhook's
 *   secret succeeds (its signature verified) and ends the delivery;
 * - three deliveries that use all six attempts switch the webhook off, and the Webhook
 *   Deactivated mail is sent through the mailer;
 * - with traces exported, every attempt of a delivery (retries too) is a child span of the span
 *   that appended its event; a delivery without trace context, or with text that is no
 *   `traceparent`, is attempted in a trace of its own.
 */
import { assert, describe, it } from "@effect/vitest"
import { AccountRepository, bootstrapAccount } from "@wasl/core/Accounts"
import { SecretBox } from "@wasl/core/Auth"
import { DeliveryRepository } from "@wasl/core/Deliveries"
import { Outbox } from "@wasl/core/Events"
import { type WebhookResponse, WebhookRepository } from "@wasl/core/Webhooks"
import { MemoryMailbox, MemoryReceivers, WaslMemory } from "@wasl/adapters/memory"
import { makeRecordingTracer } from "@wasl/adapters/testing"
import { DateTime, Duration, Effect, Exit, Option, Scope } from "effect"
import { TestClock } from "effect/testing"
import { runDeliveryWorker } from "../src/index.ts"

/** Every port in memory: the receivers, the mailbox and the store included. */
const services = WaslMemory.layer({ secretKey: new Uint8Array(32).fill(5) })

const T0 = DateTime.makeUnsafe("2033-03-03T10:00:00.000Z")
const SECRET = "memory-worker-secret-0123456789a"
const URL = "https://receiver.example/hooks"

/** Every loop is woken by signals and due times only: the polls are a week away. */
const WORKER = { pollInterval: Duration.days(7), otpSweepInterval: Duration.days(7) }

/** Waits (in fiber turns, not time) until `check` holds. */
const eventually = <R>(check: Effect.Effect<boolean, never, R>, what: string) =>
  Effect.gen(function*() {
    for (let turn = 0; turn < 10_000; turn++) {
      if (yield* check) return
      yield* Effect.yieldNow
    }
    return yield* Effect.die(new Error(`never happened: ${what}`))
  })

/** Lets every fiber that is ready run. */
const settle = Effect.forEach(Array.from({ length: 100 }), () => Effect.yieldNow, { discard: true })

/** A validated and active webhook of `accountId` at URL, holding SECRET, subscribed to deal-created. */
const deliveringWebhook = (accountId: number) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookRepository
    const secretSealed = yield* SecretBox.use((box) => box.seal(SECRET))
    const now = yield* DateTime.now
    const stored = yield* webhooks.insert({ accountId, url: URL, secretSealed, events: ["deal-created"], now })
    const state = { isValidated: true, isActive: true, consecutiveFailures: 0, lastFailureAt: null }
    yield* webhooks.update(accountId, stored.id, { url: URL, state, now })
    return stored.id
  })

const appendDeal = (accountId: number, name: string) =>
  Outbox.use((outbox) => outbox.append([{ accountId, name: "deal-created", payload: { properties: { deal_name: name } } }]))

/** Starts the worker in a scope of its own; closing the scope stops it. */
const startWorker = Effect.gen(function*() {
  const scope = yield* Scope.make()
  yield* Scope.provide(runDeliveryWorker(WORKER), scope)
  return scope
})

const sentCount = Effect.map(MemoryReceivers.use((r) => r.sent), (sent) => sent.length)

/** Moves the clock to `due`, checking that nothing more was sent a millisecond before it. */
const advanceTo = (due: DateTime.Utc, sentBefore: number) =>
  Effect.gen(function*() {
    const now = yield* DateTime.now
    yield* TestClock.adjust(Duration.millis(DateTime.toEpochMillis(due) - DateTime.toEpochMillis(now) - 1))
    yield* settle
    assert.strictEqual(yield* sentCount, sentBefore, `nothing is sent before ${DateTime.formatIso(due)}`)
    yield* TestClock.adjust(Duration.millis(1))
  })

/** A delivery queued with a trace parent that is no `traceparent`. */
const GARBLED_DELIVERY = "5d0c3cbe-94a4-4c1b-9d0c-6a0e3f3bbf41"

const status = (response: WebhookResponse) => response._tag === "Answered" ? response.status : response.error

describe("runDeliveryWorker on the memory ports", () => {
  it.effect("fans out, retries a failing endpoint exactly on the schedule, and succeeds once a receiver answers", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const receivers = yield* MemoryReceivers
      const account = yield* AccountRepository.use((a) =>
        a.create({ name: "Memory worker", plan: "business", webhookLimit: null, otpCredits: 0 })
      )
      const hook = yield* deliveringWebhook(account.id)
      const worker = yield* startWorker

      // 1. Nothing listens at the URL: attempt 1, at once, is a refused connection.
      yield* appendDeal(account.id, "first")
      const [first] = yield* receivers.awaitSent(1)
      assert.deepStrictEqual(first!.at, T0)
      assert.strictEqual(status(first!.response), "Connection refused by receiver.example.")

      // 2. Attempt 2 five minutes later: the endpoint answers 503.
      yield* receivers.script(URL, { _tag: "Answered", status: 503, body: "busy", durationMillis: 0 })
      yield* advanceTo(DateTime.add(T0, { minutes: 5 }), 1)
      const [, second] = yield* receivers.awaitSent(2)
      assert.deepStrictEqual(second!.at, DateTime.add(T0, { minutes: 5 }))
      assert.strictEqual(status(second!.response), 503)

      // 3. Attempt 3 thirty minutes after attempt 2: refused again.
      yield* receivers.unscript(URL)
      yield* advanceTo(DateTime.add(T0, { minutes: 35 }), 2)
      const [, , third] = yield* receivers.awaitSent(3)
      assert.deepStrictEqual(third!.at, DateTime.add(T0, { minutes: 35 }))

      // 4. A receiver holding the secret is up: attempt 4, an hour later, is verified and answered 200.
      yield* receivers.register(URL, SECRET)
      yield* advanceTo(DateTime.add(T0, { hours: 1, minutes: 35 }), 3)
      const sent = yield* receivers.awaitSent(4)
      assert.strictEqual(status(sent[3]!.response), 200)
      assert.deepStrictEqual(sent[3]!.at, DateTime.add(T0, { hours: 1, minutes: 35 }))
      assert.strictEqual(new Set(sent.map((s) => s.request.headers["X-Wasl-Delivery"])).size, 1)
      assert.strictEqual(new Set(sent.map((s) => s.request.body)).size, 1)

      // The log shows the four attempts at their times; the delivery is over.
      const log = DeliveryRepository.use((repo) => repo.list(account.id, hook, { offset: 0, limit: 10 }))
      yield* eventually(Effect.map(log, (page) => page.items[0]?.status === "succeeded"), "the success is recorded")
      const [delivery] = (yield* log).items
      assert.deepStrictEqual(delivery!.attempts.map((a) => [a.number, DateTime.formatIso(a.at), a.statusCode]), [
        [1, "2033-03-03T10:00:00.000Z", null],
        [2, "2033-03-03T10:05:00.000Z", 503],
        [3, "2033-03-03T10:35:00.000Z", null],
        [4, "2033-03-03T11:35:00.000Z", 200]
      ])
      assert.isNull(delivery!.nextAttemptAt)
      yield* TestClock.adjust(Duration.days(2))
      yield* settle
      assert.strictEqual(yield* sentCount, 4, "nothing more is sent")
      yield* Scope.close(worker, Exit.void)
    }).pipe(Effect.provide(services)))

  it.effect("an attempt span, retries included, is a child of the span that appended its event", () => {
    const recording = makeRecordingTracer()
    return Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const receivers = yield* MemoryReceivers
      const account = yield* AccountRepository.use((a) =>
        a.create({ name: "Traced worker", plan: "business", webhookLimit: null, otpCredits: 0 })
      )
      const hook = yield* deliveringWebhook(account.id)
      const worker = yield* startWorker

      // A request's use-case appends an event under its span; another event is appended outside
      // any span; a delivery is queued with text that is no traceparent.
      const request = yield* Effect.andThen(appendDeal(account.id, "traced"), Effect.currentSpan).pipe(
        Effect.withSpan("createRecord"),
        Effect.orDie
      )
      yield* appendDeal(account.id, "untraced")
      yield* DeliveryRepository.use((repo) =>
        repo.insert([{
          accountId: account.id,
          id: GARBLED_DELIVERY,
          webhookId: hook,
          event: "deal-created",
          body: "{}",
          eventId: null,
          state: { status: "pending", attempts: 0, nextAttemptAt: T0 },
          createdAt: T0,
          traceParent: "00-not-a-traceparent-01"
        }])
      )
      // Attempt 1 of each is refused; attempt 2, five minutes later, is answered.
      yield* receivers.awaitSent(3)
      yield* receivers.register(URL, SECRET)
      yield* advanceTo(DateTime.add(T0, { minutes: 5 }), 3)
      const sent = yield* receivers.awaitSent(6)
      yield* Scope.close(worker, Exit.void)

      const attempts = recording.spans.filter((span) => span.name === "webhook.delivery.attempt")
      assert.strictEqual(attempts.length, 6)
      const deliveryOf = (deal: string) =>
        sent.find((s) => s.request.body.includes(`"deal_name":"${deal}"`))!.request.headers["X-Wasl-Delivery"]
      const spansOf = (deliveryId: string | undefined) => attempts.filter((span) => span.attributes.get("wasl.delivery.id") === deliveryId)

      const traced = spansOf(deliveryOf("traced"))
      assert.strictEqual(traced.length, 2)
      for (const span of traced) {
        assert.strictEqual(span.traceId, request.traceId)
        assert.strictEqual(Option.getOrThrow(span.parent).spanId, request.spanId)
      }
      for (const span of [...spansOf(deliveryOf("untraced")), ...spansOf(GARBLED_DELIVERY)]) {
        assert.isTrue(Option.isNone(span.parent))
        assert.notStrictEqual(span.traceId, request.traceId)
      }
      assert.strictEqual(spansOf(GARBLED_DELIVERY).length, 2)
    }).pipe(Effect.withTracer(recording.tracer), Effect.provide(services))
  })

  it.effect("a worker started with tracing turned off (no exporter) makes no attempt span, and still delivers", () => {
    const recording = makeRecordingTracer()
    return Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const receivers = yield* MemoryReceivers
      yield* receivers.register(URL, SECRET)
      const account = yield* AccountRepository.use((a) =>
        a.create({ name: "Untraced worker", plan: "business", webhookLimit: null, otpCredits: 0 })
      )
      yield* deliveringWebhook(account.id)
      const worker = yield* Effect.withTracerEnabled(startWorker, false)
      yield* appendDeal(account.id, "untraced process")
      const [sent] = yield* receivers.awaitSent(1)
      yield* Scope.close(worker, Exit.void)
      assert.include(sent!.request.body, "untraced process")
      assert.deepStrictEqual(recording.spans.filter((span) => span.name === "webhook.delivery.attempt"), [])
    }).pipe(Effect.withTracer(recording.tracer), Effect.provide(services))
  })

  it.effect("three deliveries that use all their attempts switch the webhook off and mail its owner", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const receivers = yield* MemoryReceivers
      const owner = yield* bootstrapAccount({
        account: "Memory worker",
        email: "owner@memory-worker.example",
        password: "a password of some length",
        plan: "business",
        otpCredits: 0
      })
      const hook = yield* deliveringWebhook(owner.account_id)
      yield* receivers.script(URL, { _tag: "Answered", status: 500, body: "", durationMillis: 0 })
      const worker = yield* startWorker

      for (const name of ["a", "b", "c"]) yield* appendDeal(owner.account_id, name)
      yield* receivers.awaitSent(3)
      // The five retries of each, at 5 min, 30 min, 1 h, 3 h and 1 day after the previous one.
      let due = T0
      for (const [n, delay] of [[2, { minutes: 5 }], [3, { minutes: 30 }], [4, { hours: 1 }], [5, { hours: 3 }], [6, { days: 1 }]] as const) {
        due = DateTime.add(due, delay)
        yield* advanceTo(due, 3 * (n - 1))
        yield* receivers.awaitSent(3 * n)
      }
      const mailbox = yield* MemoryMailbox
      yield* eventually(Effect.map(mailbox.sent, (mails) => mails.length > 0), "the Webhook Deactivated mail")
      const [mail] = yield* mailbox.sent
      assert.strictEqual(mail!.to, "owner@memory-worker.example")
      assert.include(mail!.text, URL)
      const webhook = Option.getOrThrow(yield* WebhookRepository.use((w) => w.findById(owner.account_id, hook)))
      assert.deepStrictEqual(webhook.state, { isValidated: true, isActive: false, consecutiveFailures: 3, lastFailureAt: due })

      // Switched off: the next event is not delivered.
      yield* appendDeal(owner.account_id, "d")
      yield* TestClock.adjust(Duration.days(2))
      yield* settle
      assert.strictEqual((yield* receivers.sent).length, 18)
      yield* Scope.close(worker, Exit.void)
    }).pipe(Effect.provide(services)))
})
