/** The contract suite of `WhatsAppInbox` (documented on `whatsAppInboxContract`). */
import { assert, layer } from "@effect/vitest"
import { QueueSignals } from "@wasl/core/Events"
import { WhatsAppInbox } from "@wasl/core/WhatsApp"
import { DateTime, Duration, Effect, Latch, type Layer } from "effect"
import { TestClock } from "effect/testing"

/** What the layer under `whatsAppInboxContract` provides. */
export type WhatsAppInboxContractServices = WhatsAppInbox | QueueSignals

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
const FAR_FUTURE = DateTime.makeUnsafe("2200-01-01T00:00:00Z")

/** Runs `effect` on a TestClock set to `time`. */
const at = <A, E, R>(time: DateTime.Utc, effect: Effect.Effect<A, E, R>) =>
  Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(time)), effect).pipe(Effect.provide(TestClock.layer()))

const later = (seconds: number) => DateTime.addDuration(T0, Duration.seconds(seconds))

/** Empties the inbox: claims everything with the clock far in the future, and completes it. */
export const drainWhatsAppInboxRows: Effect.Effect<void, never, WhatsAppInbox> = Effect.gen(function*() {
  const inbox = yield* WhatsAppInbox
  while (true) {
    const claimed = yield* at(FAR_FUTURE, inbox.claim(500, Duration.millis(1)))
    if (claimed.length === 0) return
    yield* inbox.complete(claimed.map((stored) => stored.id))
  }
})

const body = (n: number) => JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: String(n), changes: [] }] })

/**
 * The WhatsApp inbox contract: the same tests over every implementation (memory, PGlite,
 * PostgreSQL, or yours):
 *
 * - a body is stored exactly as given, with its time, and claimed oldest first, at most `limit`,
 *   leased until `now + lease` and counted (`attempts`); a leased body is not claimed again until
 *   its lease runs out, and then it is, its attempts counting on;
 * - `complete` deletes, `retry` makes a body claimable again from the given time (not before);
 *   unknown and malformed ids are ignored;
 * - concurrent claimers never get the same body;
 * - an insert wakes the `whatsapp` queue's subscribers (`QueueSignals`).
 *
 * The inbox is one queue for all accounts, so every test starts by draining it; run the suite on
 * a database no other process is using. Call it at the top level of a vitest test file.
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `WhatsAppInbox` (under test) and the `QueueSignals` of the same store.
 */
export const whatsAppInboxContract = <E>(name: string, implementation: Layer.Layer<WhatsAppInboxContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("a body is claimed as stored, oldest first, at most limit, leased and counted", () =>
      Effect.gen(function*() {
        yield* drainWhatsAppInboxRows
        const inbox = yield* WhatsAppInbox
        const text = `{"object":"whatsapp_business_account","entry":[{"x":"\\u0000 عربي 🙂","y":  1.50}]}`
        yield* inbox.insert(text, T0)
        yield* inbox.insert(body(2), later(1))
        yield* inbox.insert(body(3), later(2))

        const first = yield* at(later(10), inbox.claim(2, Duration.seconds(30)))
        assert.deepStrictEqual(first.map((stored) => stored.body), [text, body(2)])
        assert.isTrue(DateTime.Equivalence(first[0]!.receivedAt, T0))
        assert.isTrue(DateTime.Equivalence(first[1]!.receivedAt, later(1)))
        assert.deepStrictEqual(first.map((stored) => stored.attempts), [1, 1])
        assert.match(first[0]!.id, /^[0-9]+$/)
        assert.notStrictEqual(first[0]!.id, first[1]!.id)

        // Leased: only the third, then nothing until the lease runs out.
        const second = yield* at(later(11), inbox.claim(10, Duration.seconds(30)))
        assert.deepStrictEqual(second.map((stored) => stored.body), [body(3)])
        assert.deepStrictEqual(yield* at(later(39), inbox.claim(10, Duration.seconds(30))), [])
        const again = yield* at(later(40), inbox.claim(10, Duration.seconds(30)))
        assert.deepStrictEqual(again.map((stored) => [stored.body, stored.attempts]), [[text, 2], [body(2), 2]])
        assert.deepStrictEqual(yield* at(later(40), inbox.claim(0, Duration.seconds(30))), [])
      }))

    it.effect("complete deletes; retry makes a body claimable from its time, not before; unknown ids are ignored", () =>
      Effect.gen(function*() {
        yield* drainWhatsAppInboxRows
        const inbox = yield* WhatsAppInbox
        yield* inbox.insert(body(1), T0)
        yield* inbox.insert(body(2), T0)
        const [one, two] = yield* at(T0, inbox.claim(10, Duration.minutes(5)))
        yield* inbox.complete([one!.id, "999999999", "not-an-id", ""])
        yield* inbox.retry(two!.id, later(30))
        yield* inbox.retry("not-an-id", later(30))
        assert.deepStrictEqual(yield* at(later(29), inbox.claim(10, Duration.minutes(5))), [])
        const retried = yield* at(later(30), inbox.claim(10, Duration.minutes(5)))
        assert.deepStrictEqual(retried.map((stored) => [stored.id, stored.body, stored.attempts]), [[two!.id, body(2), 2]])
        yield* inbox.complete([two!.id])
        assert.deepStrictEqual(yield* at(FAR_FUTURE, inbox.claim(10, Duration.minutes(5))), [])
      }))

    it.effect("concurrent claimers never get the same body", () =>
      Effect.gen(function*() {
        yield* drainWhatsAppInboxRows
        const inbox = yield* WhatsAppInbox
        yield* Effect.forEach(Array.from({ length: 60 }, (_, i) => i), (i) => inbox.insert(body(i), T0), { discard: true })
        const batches = yield* Effect.all(
          Array.from({ length: 6 }, () => inbox.claim(15, Duration.minutes(5))),
          { concurrency: "unbounded" }
        )
        const ids = batches.flat().map((stored) => stored.id)
        assert.strictEqual(ids.length, 60)
        assert.strictEqual(new Set(ids).size, 60)
      }))

    it.effect("an insert wakes the subscribers of the whatsapp queue", () =>
      Effect.gen(function*() {
        yield* drainWhatsAppInboxRows
        const inbox = yield* WhatsAppInbox
        const signals = yield* QueueSignals
        const woken = yield* Latch.make(false)
        let runs = 0
        yield* signals.subscribe("whatsapp", Effect.andThen(Effect.sync(() => runs++), woken.open))
        // The first run says the subscription listens.
        yield* woken.await.pipe(Effect.timeout(Duration.seconds(5)))
        yield* woken.close
        yield* inbox.insert(body(1), T0)
        yield* woken.await.pipe(Effect.timeout(Duration.seconds(5)))
        assert.isAtLeast(runs, 2)
      }).pipe(Effect.scoped))
  })
