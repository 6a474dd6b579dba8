/** The contract suite of `Outbox` (documented on `outboxContract`), and its helpers. */
import { assert, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { type NewOutboxEvent, Outbox, type OutboxEvent } from "@wasl/core/Events"
import { type EventName } from "@wasl/core/Records"
import { Cause, DateTime, Duration, Effect, Exit, type Layer } from "effect"
import { TestClock } from "effect/testing"
import { makeRecordingTracer } from "./recording-tracer.ts"

/** What the layer under `outboxContract` provides. */
export type OutboxContractServices = Outbox | Transactor | AccountRepository

class Boom extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
const FAR_FUTURE = DateTime.makeUnsafe("2200-01-01T00:00:00Z")

/** Runs `effect` on a TestClock set to `at`. */
const at = <A, E, R>(time: DateTime.Utc, effect: Effect.Effect<A, E, R>) =>
  Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(time)), effect).pipe(Effect.provide(TestClock.layer()))

/** Empties the outbox (a `TestClock` of its own in 2200, when every lease has run out). */
export const drainOutbox: Effect.Effect<void, never, Outbox> = Effect.gen(function*() {
  const outbox = yield* Outbox
  while (true) {
    const claimed = yield* at(FAR_FUTURE, outbox.claim(500, Duration.millis(1)))
    if (claimed.length === 0) return
    yield* outbox.complete(claimed)
  }
})

/** Everything claimable now (with a long lease), which is then left leased. */
const claimAll = Effect.flatMap(Outbox, (outbox) => outbox.claim(10_000, Duration.hours(1)))

/** A fresh account for the events of one test; its id. A helper of the outbox and signal suites. */
export const newAccount: Effect.Effect<number, never, AccountRepository> = Effect.flatMap(AccountRepository, (accounts) =>
  accounts.create({ name: "Outbox", plan: "business", webhookLimit: null, otpCredits: 0 }).pipe(
    Effect.map((account) => account.id)
  ))

/** The n-th `contact-created` event of the account. A helper of the outbox and signal suites. */
export const contactCreated = (accountId: number, n: number): NewOutboxEvent => ({
  accountId,
  name: "contact-created",
  payload: { contact: n, properties: { firstname: `Ada ${n}` }, channels: [] }
})

const ids = (events: ReadonlyArray<OutboxEvent>) => events.map((event) => event.id)

/**
 * The outbox contract: the same tests over every implementation of the `Outbox` port (memory,
 * PGlite, PostgreSQL, or yours):
 *
 * - an append commits with its transaction, leaves nothing when the transaction fails, and commits
 *   at once outside one; events read back as appended, with the Clock's microseconds, and with the
 *   `traceParent` of the span current at the append when it is exported and sampled (none else);
 * - events are claimed oldest first with a lease (from the Clock); a second claim gets other
 *   events; expired leases come back; `release` makes events claimable at once, `complete` removes
 *   them, unknown events are ignored;
 * - an unknown account, a bad event name or a payload that is not an object is refused as a
 *   defect, atomically;
 * - concurrent claimers never get the same event.
 *
 * `outboxNotifyContract` adds the NOTIFY contract of the database ones.
 *
 * The outbox is drained across accounts, so unlike the repository contract these tests cannot
 * ignore each other's rows: every test starts by draining the outbox (`drainOutbox`: claiming
 * everything with the clock far in the future, and completing it). Run the suite on a database no
 * other process is using; tests of one layer run one after the other.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `Outbox` (under test), `Transactor` and `AccountRepository`.
 */
export const outboxContract = <E>(name: string, implementation: Layer.Layer<OutboxContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("append inside a transaction that fails leaves no event", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const appended: Array<OutboxEvent> = []

        const error = yield* Effect.flip(transactor.transaction(Effect.gen(function*() {
          appended.push(...(yield* outbox.append([contactCreated(accountId, 1), contactCreated(accountId, 2)])))
          return yield* Effect.fail(new Boom("use-case failed"))
        })))
        assert.instanceOf(error, Boom)
        assert.strictEqual(appended.length, 2)
        assert.deepStrictEqual(yield* claimAll, [])

        // A defect rolls back too.
        const exit = yield* Effect.exit(transactor.transaction(
          Effect.andThen(outbox.append([contactCreated(accountId, 3)]), Effect.die(new Boom("defect")))
        ))
        assert.isTrue(Exit.isFailure(exit) && Cause.squash(exit.cause) instanceof Boom)
        assert.deepStrictEqual(yield* claimAll, [])
      }))

    it.effect("append inside a committed transaction: the event is there and claimable, as appended", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const payload = { properties: { lastname: "Lovelace", firstname: "Ada", n: 1.5, none: null }, channels: [{ type: "email" }] }

        const [appended, claimed] = yield* at(
          T0,
          Effect.gen(function*() {
            const appended = yield* transactor.transaction(
              outbox.append([{ accountId, name: "contact-note-updated", payload }])
            )
            return [appended, yield* outbox.claim(10, Duration.seconds(30))] as const
          })
        )
        assert.strictEqual(appended.length, 1)
        const event = appended[0]!
        assert.match(event.id, UUID)
        assert.strictEqual(event.accountId, accountId)
        assert.strictEqual(event.name, "contact-note-updated")
        assert.deepStrictEqual(event.payload, payload)
        assert.strictEqual(event.occurredAtMicros, DateTime.toEpochMillis(T0) * 1000)
        assert.isNull(event.claimedUntil)
        assert.strictEqual(event.attempts, 0)

        assert.strictEqual(claimed.length, 1)
        const [got] = claimed
        assert.deepStrictEqual(
          { ...got!, claimedUntil: null, attempts: 0 },
          event
        )
        // The payload comes back with its keys in the order they were written.
        assert.deepStrictEqual(Object.keys(got!.payload as object), ["properties", "channels"])
        assert.deepStrictEqual(
          Object.keys((got!.payload as { properties: object }).properties),
          ["lastname", "firstname", "n", "none"]
        )
        assert.strictEqual(DateTime.formatIso(got!.claimedUntil), "2031-02-03T04:05:36.789Z")
        assert.strictEqual(got!.attempts, 1)
      }))

    it.effect("append outside a transaction commits at once; an empty append does nothing", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const accountId = yield* newAccount
        assert.deepStrictEqual(yield* outbox.append([]), [])
        const appended = yield* outbox.append([contactCreated(accountId, 1)])
        assert.deepStrictEqual(ids(yield* claimAll), ids(appended))
      }))

    it.effect("append keeps the traceparent of the current span when it is exported and sampled; else none", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const recording = makeRecordingTracer()
        /** Appends one event in a transaction; the span current at the append, and the event as claimed. */
        const appendOne = (n: number) =>
          Effect.gen(function*() {
            const span = yield* transactor.transaction(Effect.gen(function*() {
              const span = yield* Effect.orElseSucceed(Effect.currentParentSpan, () => undefined)
              yield* outbox.append([contactCreated(accountId, n)])
              return span
            }))
            const [claimed] = yield* claimAll
            return { span, claimed: claimed! }
          })

        // Exported: the span's trace id and span id, sampled.
        const traced = yield* appendOne(1).pipe(Effect.withSpan("use case"), Effect.withTracer(recording.tracer))
        assert.isDefined(traced.span)
        assert.isTrue(recording.spans.includes(traced.span as never))
        assert.strictEqual(traced.claimed.traceParent, `00-${traced.span!.traceId}-${traced.span!.spanId}-01`)
        assert.match(traced.claimed.traceParent!, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)

        // Tracing off (Effect's native tracer: its spans are recorded nowhere), or an unsampled
        // span: nothing is kept.
        for (
          const untraced of [
            appendOne(2).pipe(Effect.withSpan("use case")),
            appendOne(3).pipe(Effect.withSpan("use case", { sampled: false }), Effect.withTracer(recording.tracer))
          ]
        ) {
          const { claimed } = yield* untraced
          assert.isFalse("traceParent" in claimed, JSON.stringify(claimed))
        }
      }))

    it.effect("occurredAtMicros keeps the clock's microseconds through the database", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const accountId = yield* newAccount
        const before = Date.now() * 1000
        const appended = yield* outbox.append([contactCreated(accountId, 1), contactCreated(accountId, 2)])
        const after = Date.now() * 1000 + 1000
        const [first, second] = appended
        assert.isTrue(Number.isSafeInteger(first!.occurredAtMicros))
        assert.isAtLeast(first!.occurredAtMicros, before - 1000)
        assert.isAtMost(first!.occurredAtMicros, after)
        assert.strictEqual(second!.occurredAtMicros, first!.occurredAtMicros)
        const claimed = yield* claimAll
        assert.deepStrictEqual(claimed.map((event) => event.occurredAtMicros), [
          first!.occurredAtMicros,
          second!.occurredAtMicros
        ])
      }))

    it.effect("claims oldest first with a lease; a second claim gets other events; expired leases come back", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const accountId = yield* newAccount
        const lease = Duration.seconds(30)

        yield* at(
          T0,
          Effect.gen(function*() {
            // Separate appends and one batch: append order is claim order.
            const appended = [
              ...(yield* outbox.append([contactCreated(accountId, 1)])),
              ...(yield* outbox.append([contactCreated(accountId, 2), contactCreated(accountId, 3)])),
              ...(yield* outbox.append([contactCreated(accountId, 4)])),
              ...(yield* outbox.append([contactCreated(accountId, 5)]))
            ]

            const first = yield* outbox.claim(2, lease)
            assert.deepStrictEqual(ids(first), ids(appended.slice(0, 2)))
            for (const event of first) {
              assert.strictEqual(DateTime.formatIso(event.claimedUntil), "2031-02-03T04:05:36.789Z")
              assert.strictEqual(event.attempts, 1)
            }

            // Ten seconds later another claimer gets the others, none of the leased ones.
            yield* TestClock.adjust(Duration.seconds(10))
            const second = yield* outbox.claim(10, lease)
            assert.deepStrictEqual(ids(second), ids(appended.slice(2)))
            assert.strictEqual(DateTime.formatIso(second[0]!.claimedUntil), "2031-02-03T04:05:46.789Z")
            assert.deepStrictEqual(yield* outbox.claim(10, lease), [])
            assert.deepStrictEqual(yield* outbox.claim(0, lease), [])

            // Just before the first lease ends nothing is claimable; at its end the first two are.
            yield* TestClock.adjust(Duration.millis(19_999))
            assert.deepStrictEqual(yield* outbox.claim(10, lease), [])
            yield* TestClock.adjust(Duration.millis(1))
            const again = yield* outbox.claim(10, lease)
            assert.deepStrictEqual(ids(again), ids(appended.slice(0, 2)))
            assert.deepStrictEqual(again.map((event) => event.attempts), [2, 2])

            // When every lease has run out, all come back, oldest first.
            yield* TestClock.adjust(Duration.minutes(1))
            const all = yield* outbox.claim(10, lease)
            assert.deepStrictEqual(ids(all), ids(appended))
            assert.deepStrictEqual(all.map((event) => event.attempts), [3, 3, 2, 2, 2])

            // Completed events are gone for good.
            yield* outbox.complete(all.slice(0, 3))
            yield* TestClock.adjust(Duration.minutes(1))
            assert.deepStrictEqual(ids(yield* outbox.claim(10, lease)), ids(appended.slice(3)))
          })
        )
      }))

    it.effect("release makes events claimable at once; complete removes; unknown events are ignored", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const accountId = yield* newAccount
        const appended = yield* outbox.append([1, 2, 3].map((n) => contactCreated(accountId, n)))

        const claimed = yield* outbox.claim(3, Duration.hours(1))
        assert.deepStrictEqual(yield* outbox.claim(3, Duration.hours(1)), [])
        yield* outbox.release([claimed[1]!])
        const released = yield* outbox.claim(3, Duration.hours(1))
        assert.deepStrictEqual(ids(released), [appended[1]!.id])
        assert.strictEqual(released[0]!.attempts, 2)

        const unknown = [
          { accountId, id: "00000000-0000-4000-8000-000000000000" },
          { accountId: accountId + 1_000_000, id: appended[0]!.id },
          { accountId, id: "not-a-uuid" }
        ]
        yield* outbox.complete(unknown)
        yield* outbox.release(unknown)
        yield* outbox.complete([])
        yield* outbox.release([])
        // The wrong account's key did not touch the event: still leased.
        assert.deepStrictEqual(yield* outbox.claim(3, Duration.hours(1)), [])

        yield* outbox.complete(claimed)
        yield* outbox.release(claimed)
        assert.deepStrictEqual(yield* at(FAR_FUTURE, outbox.claim(3, Duration.hours(1))), [])
      }))

    it.effect("refuses, as a defect and atomically, an unknown account, a bad name or a non-object payload", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const accountId = yield* newAccount
        const good = contactCreated(accountId, 1)
        const bad: ReadonlyArray<NewOutboxEvent> = [
          { ...good, accountId: 987_654_321 },
          // Names outside the 72, forced past the type to reach the adapter's own check.
          { ...good, name: "contact-exploded" as EventName },
          { ...good, name: "webhook-created" as EventName },
          { ...good, payload: [1, 2] },
          { ...good, payload: "text" },
          { ...good, payload: undefined }
        ]
        for (const event of bad) {
          const exit = yield* Effect.exit(outbox.append([good, event]))
          assert.isTrue(Exit.hasDies(exit), JSON.stringify(event))
        }
        assert.deepStrictEqual(yield* claimAll, [])

        // Every event name shape is accepted (`<kind>-<action>`, `-property-`, `-property-group-`, `-note-`).
        const names: ReadonlyArray<EventName> = ["company-created", "deal-updated", "ticket-deleted", "invoice-property-created",
          "product-property-group-deleted", "contact-note-created"]
        const appended = yield* outbox.append(names.map((name) => ({ ...good, name })))
        assert.deepStrictEqual((yield* claimAll).map((event) => event.name), names)
        assert.strictEqual(appended.length, names.length)
      }))

    it.effect("concurrent claimers never get the same event: 200 events, 4 claim loops, each claimed once", () =>
      Effect.gen(function*() {
        yield* drainOutbox
        const outbox = yield* Outbox
        const accountId = yield* newAccount
        const appended: Array<OutboxEvent> = []
        for (let batch = 0; batch < 10; batch++) {
          appended.push(
            ...(yield* outbox.append(Array.from({ length: 20 }, (_, i) => contactCreated(accountId, batch * 20 + i))))
          )
        }
        const loop = Effect.gen(function*() {
          const mine: Array<string> = []
          while (true) {
            const claimed = yield* outbox.claim(7, Duration.minutes(5))
            if (claimed.length === 0) return mine
            mine.push(...ids(claimed))
            // Leave some leased and complete the rest, so claims race with deletes.
            yield* outbox.complete(claimed.filter((_, i) => i % 3 !== 0))
          }
        })
        const results = yield* Effect.all([loop, loop, loop, loop], { concurrency: "unbounded" })
        const all = results.flat()
        assert.strictEqual(all.length, 200)
        assert.strictEqual(new Set(all).size, 200)
        assert.deepStrictEqual(new Set(all), new Set(ids(appended)))
        // Each loop claimed in order.
        const position = new Map(appended.map((event, i) => [event.id, i]))
        for (const mine of results) {
          const positions = mine.map((id) => position.get(id)!)
          assert.deepStrictEqual(positions, [...positions].sort((a, b) => a - b))
        }
      }))
  })
