/** The contract suite of `DeliveryRepository` (documented on `deliveryRepositoryContract`), and its helpers. */
import { assert, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import {
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryAttempt,
  DeliveryRepository,
  type DeliveryState,
  fanOutEvents,
  type NewDelivery
} from "@wasl/core/Deliveries"
import { Transactor } from "@wasl/core/Deployment"
import { Outbox } from "@wasl/core/Events"
import { type EventName } from "@wasl/core/Records"
import { WebhookRepository, type WebhookState } from "@wasl/core/Webhooks"
import { DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import { TestClock } from "effect/testing"
import { contactCreated, drainOutbox } from "./outbox-contract.ts"
import { makeRecordingTracer } from "./recording-tracer.ts"

/** What the layer under `deliveryRepositoryContract` provides. */
export type DeliveryContractServices = DeliveryRepository | Outbox | WebhookRepository | AccountRepository | Transactor

const T0 = DateTime.makeUnsafe("2032-04-05T06:07:08.901Z")
const FAR_FUTURE = DateTime.makeUnsafe("2200-01-01T00:00:00Z")
const LEASE = Duration.seconds(40)

/** Runs `effect` on a TestClock set to `time`. */
const at = <A, E, R>(time: DateTime.Utc, effect: Effect.Effect<A, E, R>) =>
  Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(time)), effect).pipe(Effect.provide(TestClock.layer()))

const later = (seconds: number, from: DateTime.Utc = T0) => DateTime.add(from, { seconds })

const uuid = (): string => globalThis.crypto.randomUUID()

const leaseOf = (d: ClaimedDelivery) => ({ accountId: d.accountId, id: d.id, claimedUntil: d.claimedUntil })

/**
 * Ends every pending delivery (failed, no attempt): the queue is then empty for this test. It sets
 * a `TestClock` of its own far in the future, so every lease has run out.
 */
export const drainDeliveries: Effect.Effect<void, never, DeliveryRepository> = at(
  FAR_FUTURE,
  Effect.gen(function*() {
    const repo = yield* DeliveryRepository
    while (true) {
      const claimed = yield* repo.claimDue(500, Duration.millis(1))
      if (claimed.length === 0) return
      yield* repo.recordAttempts(claimed.map((d) => ({
        lease: leaseOf(d),
        state: { status: "failed", attempts: d.state.attempts, nextAttemptAt: null },
        attempt: null,
        clearsFailures: false
      })))
    }
  })
)

const newAccount = Effect.flatMap(AccountRepository, (accounts) =>
  accounts.create({ name: "Deliveries", plan: "business", webhookLimit: null, otpCredits: 0 }).pipe(
    Effect.map((account) => account.id)
  ))

/** Validated and active, no failures: a webhook that is sent to. */
export const DELIVERING_WEBHOOK: WebhookState = { isValidated: true, isActive: true, consecutiveFailures: 0, lastFailureAt: null }

/**
 * A webhook of the account, subscribed to `events`, in `state` (validated and active by default),
 * with `secretSealed` as its sealed secret (by default a text no SecretBox opens); its id.
 */
export const newWebhook = (
  accountId: number,
  url: string,
  events: ReadonlyArray<EventName>,
  state: WebhookState = DELIVERING_WEBHOOK,
  secretSealed = `sealed:${url}`
): Effect.Effect<number, never, WebhookRepository> =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookRepository
    const now = yield* DateTime.now
    const stored = yield* webhooks.insert({ accountId, url, secretSealed, events, now })
    yield* webhooks.update(accountId, stored.id, { url, state, now })
    return stored.id
  })

const pendingAt = (due: DateTime.Utc, attempts = 0): DeliveryState => ({ status: "pending", attempts, nextAttemptAt: due })

/** A delivery of `event`, due at `due`, queued at `createdAt` (default: when due). */
const delivery = (
  accountId: number,
  webhookId: number,
  options: {
    readonly due?: DateTime.Utc
    readonly createdAt?: DateTime.Utc
    readonly eventId?: string | null
    readonly event?: EventName
    readonly id?: string
  } = {}
): NewDelivery => ({
  accountId,
  id: options.id ?? uuid(),
  webhookId,
  event: options.event ?? "deal-created",
  body: `{"time":1,"event":"deal-created","deal":{"n":"${uuid()}"}}`,
  eventId: options.eventId === undefined ? uuid() : options.eventId,
  state: pendingAt(options.due ?? T0),
  createdAt: options.createdAt ?? options.due ?? T0
})

const attempt = (number: number, statusCode: number | null, when: DateTime.Utc): DeliveryAttempt => ({
  number,
  at: when,
  statusCode,
  durationMillis: 12,
  error: statusCode === null ? "Connection refused by a.example." : null,
  responseExcerpt: statusCode === null ? null : `status ${statusCode}`
})

const record = (d: ClaimedDelivery, state: DeliveryState, made: DeliveryAttempt | null, clearsFailures = false): AttemptRecord => ({
  lease: leaseOf(d),
  state,
  attempt: made,
  clearsFailures
})

const logOf = (accountId: number, webhookId: number) =>
  Effect.flatMap(DeliveryRepository, (repo) => repo.list(accountId, webhookId, { offset: 0, limit: 1000 }))

const idsOf = (items: ReadonlyArray<{ readonly id: string }>) => items.map((d) => d.id)

const failuresOf = (accountId: number, webhookId: number) =>
  Effect.map(
    Effect.flatMap(WebhookRepository, (webhooks) => webhooks.findById(accountId, webhookId)),
    (found) => Option.getOrThrow(found).state
  )

/**
 * The contract of the delivery queue (`DeliveryRepository`): the same tests over every
 * implementation (memory, PGlite, PostgreSQL, or yours). It checks, through the ports only
 * (`AccountRepository` and `WebhookRepository` make the accounts and webhooks):
 *
 * - `insert` and the delivery log: listed newest first then by id, paged, with the total; the body
 *   and event found again; at most one delivery per (account, event, webhook), a repeat skipped in
 *   the same batch or a later one (fan-out is idempotent), while redeliveries (no event) repeat;
 *   the table's constraints (an existing account and webhook, UUID ids, a consistent state)
 *   refused as defects;
 * - `subscribers`: the validated and active webhooks subscribed to each (account, event), by id;
 * - `claimDue`: due pending deliveries, earliest first, up to the limit, leased until now + lease
 *   (now from Effect's `Clock`: `TestClock` drives every lease here), with the trace parent they
 *   were queued with — at fan-out (`fanOutEvents` over the `Outbox`), the one their event was
 *   appended with; a leased delivery is
 *   invisible to other claimers until its lease runs out or is released; concurrent claimers never
 *   share one; `nextDueAt` is the earliest unleased pending delivery;
 * - `recordAttempts`: stores state and attempt and ends the lease, only for the current lease (a
 *   late result is dropped); a success clears its webhook's failure count; six failed attempts
 *   exhaust; a cancellation is recorded without an attempt and without a failure;
 * - the webhook's health (`lockWebhook`, `saveWebhookHealth`, `webhookExists`);
 * - `takeFailed`: the webhook's deliveries that ended failed in the window (both ends inclusive),
 *   earliest ended first, up to the limit, each taken once (concurrent takes share none), never
 *   another account's or webhook's; a rolled-back take leaves them to take;
 * - deleting a webhook deletes its deliveries (an attempt in flight then records nothing);
 * - tenancy: another account's keys reach nothing; a rolled-back transaction leaves nothing.
 *
 * The queue is claimed across accounts, so every test first drains it (`drainDeliveries`: claims
 * everything with the clock far in the future and records it failed): run the suite on a database
 * no other process is using. Tests of one layer run one after the other.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `DeliveryRepository` (under test), `Outbox`, `WebhookRepository`,
 *   `AccountRepository` and `Transactor`.
 */
export const deliveryRepositoryContract = <E>(name: string, implementation: Layer.Layer<DeliveryContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("insert and the log: newest first then by id, paged, with the total; the body found again", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://log.example/a", ["deal-created"])
        const other = yield* newWebhook(accountId, "https://log.example/b", ["deal-created"])
        // Two share a creation time: they are ordered by id.
        const ids = [`b${uuid().slice(1)}`, `a${uuid().slice(1)}`]
        const rows = [
          delivery(accountId, hook, { createdAt: later(1), due: later(1) }),
          delivery(accountId, hook, { createdAt: later(3), due: later(3), id: ids[0]! }),
          delivery(accountId, hook, { createdAt: later(3), due: later(3), id: ids[1]!.toUpperCase() }),
          delivery(accountId, hook, { createdAt: later(2), due: later(2), eventId: null, event: "contact-note-updated" }),
          delivery(accountId, other, { createdAt: later(9) })
        ]
        yield* repo.insert(rows)
        yield* repo.insert([])

        const log = yield* logOf(accountId, hook)
        assert.strictEqual(log.total, 4)
        // Ids come back lowercase, whatever case they were written in.
        assert.deepStrictEqual(idsOf(log.items), [ids[1]!, ids[0]!, rows[3]!.id, rows[0]!.id])
        const first = log.items[3]!
        assert.deepStrictEqual(first, {
          id: rows[0]!.id,
          event: "deal-created",
          status: "pending",
          attempts: [],
          nextAttemptAt: later(1),
          createdAt: later(1)
        })
        assert.strictEqual(log.items[2]!.event, "contact-note-updated")

        const page = yield* repo.list(accountId, hook, { offset: 1, limit: 2 })
        assert.strictEqual(page.total, 4)
        assert.deepStrictEqual(idsOf(page.items), [ids[0]!, rows[3]!.id])
        assert.deepStrictEqual(yield* repo.list(accountId, hook, { offset: 4, limit: 10 }), { items: [], total: 4 })
        assert.deepStrictEqual(idsOf((yield* logOf(accountId, other)).items), [rows[4]!.id])

        assert.deepStrictEqual(
          yield* repo.findBody(accountId, hook, rows[3]!.id),
          Option.some({ event: "contact-note-updated", body: rows[3]!.body })
        )
        assert.deepStrictEqual(
          yield* repo.findBody(accountId, hook, ids[1]!.toUpperCase()),
          Option.some({ event: "deal-created", body: rows[2]!.body })
        )
        // Another webhook's delivery, an unknown id, or not a UUID: none.
        assert.isTrue(Option.isNone(yield* repo.findBody(accountId, other, rows[0]!.id)))
        assert.isTrue(Option.isNone(yield* repo.findBody(accountId, hook, uuid())))
        assert.isTrue(Option.isNone(yield* repo.findBody(accountId, hook, "not-a-uuid")))
      }))

    it.effect("at most one delivery per (event, webhook): a repeat is skipped; redeliveries repeat freely", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://once.example/a", ["ticket-updated"])
        const second = yield* newWebhook(accountId, "https://once.example/b", ["ticket-updated"])
        const eventId = uuid()
        const original = delivery(accountId, hook, { eventId })
        // The same event to the same webhook, in the same batch and in a later one (a claimer whose
        // outbox lease ran out fanning it out again): skipped. To another webhook: its own delivery.
        yield* repo.insert([original, delivery(accountId, hook, { eventId }), delivery(accountId, second, { eventId })])
        yield* repo.insert([delivery(accountId, hook, { eventId: eventId.toUpperCase() })])
        assert.deepStrictEqual(idsOf((yield* logOf(accountId, hook)).items), [original.id])
        assert.strictEqual((yield* logOf(accountId, second)).total, 1)
        // Redeliveries carry no event: as many as asked.
        yield* repo.insert([delivery(accountId, hook, { eventId: null }), delivery(accountId, hook, { eventId: null })])
        assert.strictEqual((yield* logOf(accountId, hook)).total, 3)
      }))

    it.effect("refuses, as defects and atomically, an unknown account or webhook, a malformed id or an inconsistent state", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://bad.example/a", ["deal-created"])
        const good = delivery(accountId, hook)
        const bad: ReadonlyArray<NewDelivery> = [
          { ...delivery(accountId, hook), accountId: 987_654_321 },
          { ...delivery(accountId, hook), webhookId: 987_654_321 },
          { ...delivery(accountId, hook), id: "not-a-uuid" },
          { ...delivery(accountId, hook), eventId: "not-a-uuid" },
          { ...delivery(accountId, hook), state: { status: "pending", attempts: 0, nextAttemptAt: null } },
          { ...delivery(accountId, hook), state: { status: "failed", attempts: 1, nextAttemptAt: T0 } },
          { ...delivery(accountId, hook), state: { status: "pending", attempts: -1, nextAttemptAt: T0 } },
          // The primary key: the same id twice.
          { ...delivery(accountId, hook), id: good.id }
        ]
        yield* repo.insert([good])
        for (const row of bad) {
          const other = delivery(accountId, hook)
          const exit = yield* Effect.exit(repo.insert([other, row]))
          assert.isTrue(Exit.hasDies(exit), JSON.stringify(row))
          assert.isTrue(Option.isNone(yield* repo.findBody(accountId, hook, other.id)), "nothing of the batch is written")
        }
        assert.strictEqual((yield* logOf(accountId, hook)).total, 1)
      }))

    it.effect("subscribers: the validated and active webhooks subscribed to each (account, event), by id", () =>
      Effect.gen(function*() {
        const repo = yield* DeliveryRepository
        const a = yield* newAccount
        const b = yield* newAccount
        const both = yield* newWebhook(a, "https://subs.example/both", ["deal-created", "contact-created"])
        const deal = yield* newWebhook(a, "https://subs.example/deal", ["deal-created"])
        yield* newWebhook(a, "https://subs.example/contact", ["contact-created"])
        yield* newWebhook(a, "https://subs.example/new", ["deal-created"], { ...DELIVERING_WEBHOOK, isValidated: false, isActive: false })
        yield* newWebhook(a, "https://subs.example/unvalidated", ["deal-created"], { ...DELIVERING_WEBHOOK, isValidated: false })
        yield* newWebhook(a, "https://subs.example/off", ["deal-created"], { ...DELIVERING_WEBHOOK, isActive: false })
        const otherAccount = yield* newWebhook(b, "https://subs.example/b", ["deal-created", "ticket-deleted"])

        assert.deepStrictEqual(yield* repo.subscribers([]), [])
        assert.deepStrictEqual(yield* repo.subscribers([{ accountId: a, event: "deal-created" }]), [
          { accountId: a, webhookId: both, event: "deal-created" },
          { accountId: a, webhookId: deal, event: "deal-created" }
        ])
        const many = yield* repo.subscribers([
          { accountId: b, event: "ticket-deleted" },
          { accountId: a, event: "deal-created" },
          { accountId: a, event: "deal-created" },
          { accountId: b, event: "invoice-created" }
        ])
        assert.deepStrictEqual(many.map((s) => [s.accountId, s.webhookId, s.event]), [
          [a, both, "deal-created"],
          [a, deal, "deal-created"],
          [b, otherAccount, "ticket-deleted"]
        ])
      }))

    it.effect("claimDue leases due pending deliveries, earliest first, until now + lease, with their webhook", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const url = "https://claim.example/a"
        const hook = yield* newWebhook(accountId, url, ["deal-created"])
        const rows = [3, 1, 2, 10].map((s) => delivery(accountId, hook, { due: later(s) }))
        yield* repo.insert(rows)

        yield* at(
          later(5),
          Effect.gen(function*() {
            assert.deepStrictEqual(yield* repo.claimDue(0, LEASE), [])
            assert.deepStrictEqual(yield* repo.claimDue(-3, LEASE), [])
            const first = yield* repo.claimDue(2.9, LEASE)
            assert.deepStrictEqual(idsOf(first), [rows[1]!.id, rows[2]!.id])
            assert.deepStrictEqual(first[0], {
              accountId,
              id: rows[1]!.id,
              webhookId: hook,
              event: "deal-created",
              body: rows[1]!.body,
              state: pendingAt(later(1)),
              claimedUntil: later(45),
              webhook: { url, secretSealed: `sealed:${url}`, state: DELIVERING_WEBHOOK }
            })
            // The rest of what is due; the one due at +10 s is not yet.
            assert.deepStrictEqual(idsOf(yield* repo.claimDue(10, LEASE)), [rows[0]!.id])
            assert.deepStrictEqual(yield* repo.claimDue(10, LEASE), [])
            // The earliest unleased pending delivery, due or not.
            assert.deepStrictEqual(yield* repo.nextDueAt, Option.some(later(10)))
            yield* TestClock.adjust(Duration.seconds(5))
            assert.deepStrictEqual(idsOf(yield* repo.claimDue(10, LEASE)), [rows[3]!.id])
            // Everything leased: nothing is next until a lease runs out.
            assert.deepStrictEqual(yield* repo.nextDueAt, Option.none())
          })
        )
      }))

    it.effect("a trace parent stored with an event reaches its claimed deliveries; one inserted with a delivery too", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const hooks = [
          yield* newWebhook(accountId, "https://trace.example/a", ["contact-created"]),
          yield* newWebhook(accountId, "https://trace.example/b", ["contact-created"])
        ]
        const recording = makeRecordingTracer()

        // A use-case commits an event under an exported span; another with tracing off.
        const committing = yield* transactor.transaction(Effect.gen(function*() {
          yield* outbox.append([contactCreated(accountId, 1)])
          return yield* Effect.currentParentSpan
        })).pipe(Effect.withSpan("createRecord"), Effect.withTracer(recording.tracer), Effect.orDie)
        yield* transactor.transaction(outbox.append([contactCreated(accountId, 2)])).pipe(Effect.withSpan("createRecord"))
        const fannedOut = yield* fanOutEvents(10, Duration.seconds(30)).pipe(Effect.provide(SecureRandom.layerWebCrypto))
        assert.deepStrictEqual(fannedOut, { events: 2, deliveries: 4 })

        const traceParent = `00-${committing.traceId}-${committing.spanId}-01`
        const inserted = { ...delivery(accountId, hooks[0]!, { due: DateTime.makeUnsafe(0), eventId: null }), traceParent: traceParent.replace(/-01$/, "-00") }
        yield* repo.insert([inserted])
        const claimed = yield* repo.claimDue(10, LEASE)
        assert.strictEqual(claimed.length, 5)
        const ofContact = (n: number) => claimed.filter((d) => d.body.includes(`"contact":${n},`))
        assert.deepStrictEqual(ofContact(1).map((d) => d.webhookId).sort(), [...hooks].sort())
        assert.deepStrictEqual(ofContact(1).map((d) => d.traceParent), [traceParent, traceParent])
        assert.deepStrictEqual(ofContact(2).map((d) => "traceParent" in d), [false, false])
        assert.strictEqual(claimed.find((d) => d.id === inserted.id)?.traceParent, inserted.traceParent)
      }))

    it.effect("a lease hides a delivery until it runs out; the lease fences a late result", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://lease.example/a", ["deal-created"])
        const row = delivery(accountId, hook)
        yield* repo.insert([row])

        yield* at(
          T0,
          Effect.gen(function*() {
            const [stale] = yield* repo.claimDue(10, LEASE)
            assert.strictEqual(stale!.id, row.id)
            yield* TestClock.adjust(Duration.millis(39_999))
            assert.deepStrictEqual(yield* repo.claimDue(10, LEASE), [])
            assert.deepStrictEqual(yield* repo.nextDueAt, Option.none())
            yield* TestClock.adjust(Duration.millis(1))
            // The lease ran out: due again, and another claimer takes it.
            assert.deepStrictEqual(yield* repo.nextDueAt, Option.some(T0))
            const [fresh] = yield* repo.claimDue(10, LEASE)
            assert.strictEqual(fresh!.id, row.id)
            assert.deepStrictEqual(fresh!.claimedUntil, later(80))

            // The first claimer's late result is dropped; the holder's is recorded.
            const succeeded: DeliveryState = { status: "succeeded", attempts: 1, nextAttemptAt: null }
            const late = yield* repo.recordAttempts([record(stale!, succeeded, attempt(1, 200, T0))])
            assert.strictEqual(late.size, 0)
            assert.strictEqual((yield* logOf(accountId, hook)).items[0]!.status, "pending")
            const recorded = yield* repo.recordAttempts([record(fresh!, succeeded, attempt(1, 200, later(40)))])
            assert.deepStrictEqual([...recorded], [row.id])
            // Recording ended the lease: the same lease cannot record twice.
            assert.strictEqual((yield* repo.recordAttempts([record(fresh!, succeeded, attempt(2, 200, later(41)))])).size, 0)
            const [logged] = (yield* logOf(accountId, hook)).items
            assert.strictEqual(logged!.status, "succeeded")
            assert.deepStrictEqual(logged!.attempts.map((a) => [a.number, a.statusCode]), [[1, 200]])
            // Finished: never claimed again.
            yield* TestClock.adjust(Duration.days(30))
            assert.deepStrictEqual(yield* repo.claimDue(10, LEASE), [])
          })
        )
      }))

    it.effect("release ends the current lease at once; another lease, account or id changes nothing", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://release.example/a", ["deal-created"])
        const rows = [1, 2, 3].map((s) => delivery(accountId, hook, { due: later(s) }))
        yield* repo.insert(rows)
        yield* at(
          later(10),
          Effect.gen(function*() {
            const claimed = yield* repo.claimDue(10, LEASE)
            assert.strictEqual(claimed.length, 3)
            const [a, b] = claimed
            yield* repo.release([])
            yield* repo.release([
              { ...leaseOf(a!), claimedUntil: later(1) },
              { ...leaseOf(a!), accountId: accountId + 1_000_000 },
              { ...leaseOf(a!), id: "not-a-uuid" },
              { ...leaseOf(a!), id: uuid() }
            ])
            assert.deepStrictEqual(yield* repo.claimDue(10, LEASE), [])
            yield* repo.release([leaseOf(a!), leaseOf(b!)])
            // (A second later, so the new leases differ from the released ones.)
            yield* TestClock.adjust(Duration.seconds(1))
            const again = yield* repo.claimDue(10, LEASE)
            assert.deepStrictEqual(idsOf(again), [rows[0]!.id, rows[1]!.id])
            // A released claimer's result is dropped like any other lost lease.
            const late = yield* repo.recordAttempts([record(a!, { status: "succeeded", attempts: 1, nextAttemptAt: null }, null)])
            assert.strictEqual(late.size, 0)
          })
        )
      }))

    it.effect("six failed attempts are recorded one by one, then the delivery is exhausted; the webhook's health is stored", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://down.example/a", ["deal-created"])
        const row = delivery(accountId, hook)
        yield* repo.insert([row])
        yield* at(
          T0,
          Effect.gen(function*() {
            for (let n = 1; n <= 6; n++) {
              const [claimed] = yield* repo.claimDue(10, LEASE)
              assert.strictEqual(claimed!.state.attempts, n - 1)
              const now = yield* DateTime.now
              const state: DeliveryState = n < 6
                ? pendingAt(DateTime.add(now, { minutes: n }), n)
                : { status: "failed", attempts: 6, nextAttemptAt: null }
              const made = { ...attempt(n, n % 2 === 0 ? 503 : null, now), durationMillis: 10.6 }
              assert.strictEqual((yield* repo.recordAttempts([record(claimed!, state, made)])).size, 1)
              if (n < 6) {
                assert.deepStrictEqual(yield* repo.claimDue(10, LEASE), [], "not due before its next attempt")
                assert.deepStrictEqual(yield* repo.nextDueAt, Option.some(DateTime.add(now, { minutes: n })))
                yield* TestClock.adjust(Duration.minutes(n))
              }
            }
            assert.deepStrictEqual(yield* repo.nextDueAt, Option.none())
            yield* TestClock.adjust(Duration.days(30))
            assert.deepStrictEqual(yield* repo.claimDue(10, LEASE), [])
          })
        )
        const [exhausted] = (yield* logOf(accountId, hook)).items
        assert.strictEqual(exhausted!.status, "failed")
        assert.isNull(exhausted!.nextAttemptAt)
        assert.deepStrictEqual(exhausted!.attempts.map((a) => [a.number, a.statusCode, a.durationMillis]), [
          [1, null, 11],
          [2, 503, 11],
          [3, null, 11],
          [4, 503, 11],
          [5, null, 11],
          [6, 503, 11]
        ])
        assert.deepStrictEqual(exhausted!.attempts[0], {
          number: 1,
          at: T0,
          statusCode: null,
          durationMillis: 11,
          error: "Connection refused by a.example.",
          responseExcerpt: null
        })

        // The worker's bookkeeping of the exhaustion: lock, then store the health.
        const transactor = yield* Transactor
        const lastFailureAt = later(60)
        yield* transactor.transaction(Effect.gen(function*() {
          const target = Option.getOrThrow(yield* repo.lockWebhook(accountId, hook))
          assert.deepStrictEqual(target.state, DELIVERING_WEBHOOK)
          // `isValidated` is not the worker's: it stays as it is.
          yield* repo.saveWebhookHealth(accountId, hook, {
            isValidated: false,
            isActive: false,
            consecutiveFailures: 3,
            lastFailureAt
          })
        }))
        assert.deepStrictEqual(yield* failuresOf(accountId, hook), {
          isValidated: true,
          isActive: false,
          consecutiveFailures: 3,
          lastFailureAt
        })
        assert.isTrue(yield* repo.webhookExists(accountId, hook))
      }))

    it.effect("a success clears its webhook's failure count; a cancellation records no attempt and no failure", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const failing: WebhookState = { ...DELIVERING_WEBHOOK, consecutiveFailures: 2, lastFailureAt: T0 }
        const hook = yield* newWebhook(accountId, "https://flaky.example/a", ["deal-created"], failing)
        const paused = yield* newWebhook(accountId, "https://flaky.example/b", ["deal-created"], failing)
        const rows = [delivery(accountId, hook, { due: later(1) }), delivery(accountId, paused, { due: later(2) })]
        yield* repo.insert(rows)
        yield* at(
          later(5),
          Effect.gen(function*() {
            const [ok, cancelled] = yield* repo.claimDue(10, LEASE)
            // The answer's excerpt keeps any text (a NUL is stored as U+FFFD, as PostgreSQL must).
            const made = { ...attempt(1, 204, later(5)), responseExcerpt: "ok\u0000" }
            const recorded = yield* repo.recordAttempts([
              record(ok!, { status: "succeeded", attempts: 1, nextAttemptAt: null }, made, true),
              record(cancelled!, { status: "failed", attempts: 0, nextAttemptAt: null }, null)
            ])
            assert.deepStrictEqual(new Set(recorded), new Set([rows[0]!.id, rows[1]!.id]))
          })
        )
        const [succeeded] = (yield* logOf(accountId, hook)).items
        assert.strictEqual(succeeded!.status, "succeeded")
        assert.strictEqual(succeeded!.attempts[0]!.responseExcerpt, "ok\uFFFD")
        assert.deepStrictEqual(yield* failuresOf(accountId, hook), { ...failing, consecutiveFailures: 0 })

        const [cancelledRow] = (yield* logOf(accountId, paused)).items
        assert.strictEqual(cancelledRow!.status, "failed")
        assert.deepStrictEqual(cancelledRow!.attempts, [])
        assert.deepStrictEqual(yield* failuresOf(accountId, paused), failing)
      }))

    it.effect("deleting a webhook deletes its deliveries; an attempt in flight then records nothing", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const webhooks = yield* WebhookRepository
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://gone.example/a", ["deal-created"])
        const kept = yield* newWebhook(accountId, "https://gone.example/b", ["deal-created"])
        const rows = [delivery(accountId, hook, { due: later(1) }), delivery(accountId, hook, { due: later(2) })]
        const other = delivery(accountId, kept, { due: later(3) })
        yield* repo.insert([...rows, other])
        yield* at(
          later(5),
          Effect.gen(function*() {
            const [inFlight] = yield* repo.claimDue(1, LEASE)
            assert.strictEqual(inFlight!.id, rows[0]!.id)
            assert.isTrue(yield* webhooks.delete(accountId, hook))
            const recorded = yield* repo.recordAttempts([
              record(inFlight!, { status: "succeeded", attempts: 1, nextAttemptAt: null }, attempt(1, 200, later(5)), true)
            ])
            assert.strictEqual(recorded.size, 0)
            assert.deepStrictEqual(idsOf(yield* repo.claimDue(10, LEASE)), [other.id])
          })
        )
        assert.deepStrictEqual(yield* logOf(accountId, hook), { items: [], total: 0 })
        assert.isTrue(Option.isNone(yield* repo.findBody(accountId, hook, rows[1]!.id)))
        assert.isFalse(yield* repo.webhookExists(accountId, hook))
        assert.isTrue(Option.isNone(yield* repo.lockWebhook(accountId, hook)))
        assert.strictEqual((yield* logOf(accountId, kept)).total, 1)
      }))

    it.effect("tenancy: another account's keys reach no delivery and no webhook", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const intruder = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://tenant.example/a", ["deal-created"])
        const row = delivery(accountId, hook)
        yield* repo.insert([row])

        assert.deepStrictEqual(yield* logOf(intruder, hook), { items: [], total: 0 })
        assert.isTrue(Option.isNone(yield* repo.findBody(intruder, hook, row.id)))
        assert.isFalse(yield* repo.webhookExists(intruder, hook))
        assert.isTrue(Option.isNone(yield* repo.lockWebhook(intruder, hook)))
        yield* repo.saveWebhookHealth(intruder, hook, { ...DELIVERING_WEBHOOK, isActive: false, consecutiveFailures: 9 })
        assert.deepStrictEqual(yield* failuresOf(accountId, hook), DELIVERING_WEBHOOK)

        yield* at(
          T0,
          Effect.gen(function*() {
            const [claimed] = yield* repo.claimDue(10, LEASE)
            const foreign = { ...claimed!, accountId: intruder }
            const done: DeliveryState = { status: "succeeded", attempts: 1, nextAttemptAt: null }
            assert.strictEqual((yield* repo.recordAttempts([record(foreign, done, null)])).size, 0)
            yield* repo.release([leaseOf(foreign)])
            assert.deepStrictEqual(yield* repo.claimDue(10, LEASE), [], "still leased")
            assert.strictEqual((yield* repo.recordAttempts([record(claimed!, done, null)])).size, 1)
          })
        )
      }))

    it.effect("a transaction that fails leaves no delivery, no attempt and no health change", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://rollback.example/a", ["deal-created"])
        const kept = delivery(accountId, hook, { due: later(1) })
        yield* repo.insert([kept])
        yield* at(
          later(5),
          Effect.gen(function*() {
            const error = yield* Effect.flip(transactor.transaction(Effect.gen(function*() {
              yield* repo.insert([delivery(accountId, hook, { due: later(2) })])
              const [claimed] = yield* repo.claimDue(10, LEASE)
              yield* repo.recordAttempts([record(claimed!, { status: "succeeded", attempts: 1, nextAttemptAt: null }, attempt(1, 200, later(5)))])
              yield* repo.saveWebhookHealth(accountId, hook, { ...DELIVERING_WEBHOOK, isActive: false, consecutiveFailures: 3 })
              return yield* Effect.fail("rolled back" as const)
            })))
            assert.strictEqual(error, "rolled back")
            const log = yield* logOf(accountId, hook)
            assert.deepStrictEqual(idsOf(log.items), [kept.id])
            assert.strictEqual(log.items[0]!.status, "pending")
            assert.deepStrictEqual(log.items[0]!.attempts, [])
            assert.deepStrictEqual(yield* failuresOf(accountId, hook), DELIVERING_WEBHOOK)
            // Not leased either: the claim was rolled back with the rest.
            assert.deepStrictEqual(idsOf(yield* repo.claimDue(10, LEASE)), [kept.id])
          })
        )
      }))

    it.effect("takeFailed: the window's failed deliveries not taken before, earliest ended first, up to the limit, once each", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const intruder = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://recover.example/a", ["deal-created"])
        const sibling = yield* newWebhook(accountId, "https://recover.example/b", ["deal-created"])
        const foreign = yield* newWebhook(intruder, "https://recover.example/c", ["deal-created"])
        // Queues a delivery and ends it at `second` (its `updated_at`), failed or succeeded.
        const ended = (accountId: number, webhookId: number, second: number, status: "failed" | "succeeded") =>
          Effect.gen(function*() {
            const row = delivery(accountId, webhookId, { due: later(second) })
            yield* repo.insert([row])
            yield* at(
              later(second),
              Effect.gen(function*() {
                const claimed = yield* repo.claimDue(10, LEASE)
                assert.deepStrictEqual(idsOf(claimed), [row.id])
                yield* repo.recordAttempts([record(claimed[0]!, { status, attempts: 6, nextAttemptAt: null }, attempt(6, 500, later(second)))])
              })
            )
            return row
          })
        const before = yield* ended(accountId, hook, 10, "failed")
        const first = yield* ended(accountId, hook, 20, "failed")
        yield* ended(accountId, hook, 30, "succeeded")
        const second = yield* ended(accountId, hook, 40, "failed")
        const last = yield* ended(accountId, hook, 50, "failed")
        const after = yield* ended(accountId, hook, 60, "failed")
        yield* ended(accountId, sibling, 45, "failed")
        yield* ended(intruder, foreign, 45, "failed")
        yield* repo.insert([delivery(accountId, hook, { due: later(55) })])
        const window = { accountId, webhookId: hook, since: later(20), until: later(50) }
        const take = (w: typeof window, limit: number) => at(later(100), repo.takeFailed({ ...w, limit }))
        const taken = (rows: ReadonlyArray<{ readonly id: string; readonly event: EventName; readonly body: string }>) =>
          rows.map((r) => ({ id: r.id, event: r.event, body: r.body }))

        // Another account's key reaches nothing; a rolled-back take leaves every delivery to take.
        assert.deepStrictEqual(yield* take({ ...window, accountId: intruder }, 10), [])
        assert.deepStrictEqual(yield* take({ ...window, webhookId: foreign }, 10), [])
        const rolledBack = yield* Effect.flip(transactor.transaction(Effect.andThen(take(window, 10), Effect.fail("no" as const))))
        assert.strictEqual(rolledBack, "no")

        // Both ends inclusive, the earliest ended first, up to the limit; neither succeeded nor pending.
        assert.deepStrictEqual(yield* take(window, 2), taken([first, second]))
        assert.deepStrictEqual(yield* take(window, 10), taken([last]))
        assert.deepStrictEqual(yield* take(window, 10), [], "each is taken once")
        assert.deepStrictEqual(yield* take({ ...window, since: T0, until: later(100) }, 0), [])
        assert.deepStrictEqual(yield* take({ ...window, since: T0, until: later(100) }, 10), taken([before, after]))
        // The other webhook's failed delivery is still there for its own recovery.
        assert.strictEqual((yield* take({ ...window, webhookId: sibling }, 10)).length, 1)
      }))

    it.effect("takeFailed: concurrent takes in their own transactions share no delivery", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://recover-race.example/a", ["deal-created"])
        const rows = Array.from({ length: 30 }, () => delivery(accountId, hook, { due: later(1) }))
        yield* repo.insert(rows)
        yield* at(
          later(1),
          Effect.gen(function*() {
            const claimed = yield* repo.claimDue(100, LEASE)
            yield* repo.recordAttempts(claimed.map((d) => record(d, { status: "failed", attempts: 6, nextAttemptAt: null }, null)))
          })
        )
        const take = at(
          later(100),
          transactor.transaction(repo.takeFailed({ accountId, webhookId: hook, since: T0, until: later(100), limit: 12 }))
        )
        const results = yield* Effect.all([take, take, take, take], { concurrency: "unbounded" })
        const all = results.flatMap(idsOf)
        assert.strictEqual(all.length, 30)
        assert.deepStrictEqual(new Set(all), new Set(idsOf(rows)))
      }))

    it.effect("concurrent claimers never share a delivery: 60 deliveries, 4 claim loops, each claimed once", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://race.example/a", ["deal-created"])
        const rows = Array.from({ length: 60 }, (_, i) => delivery(accountId, hook, { due: later(i) }))
        yield* repo.insert(rows)
        yield* at(
          later(100),
          Effect.gen(function*() {
            const loop = Effect.gen(function*() {
              const mine: Array<string> = []
              while (true) {
                const claimed = yield* repo.claimDue(7, Duration.minutes(5))
                if (claimed.length === 0) return mine
                mine.push(...idsOf(claimed))
                // Record some and leave the rest leased, so claims race with records.
                yield* repo.recordAttempts(
                  claimed.filter((_, i) => i % 2 === 0).map((d) =>
                    record(d, { status: "succeeded", attempts: 1, nextAttemptAt: null }, attempt(1, 200, later(100)))
                  )
                )
              }
            })
            const results = yield* Effect.all([loop, loop, loop, loop], { concurrency: "unbounded" })
            const all = results.flat()
            assert.strictEqual(all.length, 60)
            assert.deepStrictEqual(new Set(all), new Set(idsOf(rows)))
            // Each loop claimed in due order.
            const position = new Map(rows.map((d, i) => [d.id, i]))
            for (const mine of results) {
              const positions = mine.map((id) => position.get(id)!)
              assert.deepStrictEqual(positions, [...positions].sort((x, y) => x - y))
            }
          })
        )
      }))
  })
