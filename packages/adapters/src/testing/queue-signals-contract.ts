/** The contract suite of `QueueSignals` (documented on `queueSignalsContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { DeliveryRepository, type NewDelivery } from "@wasl/core/Deliveries"
import { Transactor } from "@wasl/core/Deployment"
import { Outbox, QueueSignals, type WorkQueue } from "@wasl/core/Events"
import { type WebhookRepository } from "@wasl/core/Webhooks"
import { DateTime, Duration, Effect, Exit, Latch, type Layer, Scope } from "effect"
import { newWebhook } from "./delivery-repository-contract.ts"
import { contactCreated, newAccount } from "./outbox-contract.ts"

/** What the layer under `queueSignalsContract` provides. */
export type QueueSignalsContractServices =
  | QueueSignals
  | Outbox
  | DeliveryRepository
  | AccountRepository
  | Transactor
  | WebhookRepository

/** Lets every fiber that is ready run (an in-process signal reaches its subscriber meanwhile). */
const settle = Effect.forEach(Array.from({ length: 50 }), () => Effect.yieldNow, { discard: true })

/** A subscription of `queue` in the current scope that counts its runs; waits until it listens. */
const listen = (queue: WorkQueue) =>
  Effect.gen(function*() {
    const signals = yield* QueueSignals
    let count = 0
    const arrived = yield* Latch.make(false)
    yield* signals.subscribe(queue, Effect.sync(() => {
      count++
      Latch.openUnsafe(arrived)
    }))
    /** Waits until the subscription has run `n` times in all. */
    const reach = (n: number): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (count >= n) return Effect.void
        Latch.closeUnsafe(arrived)
        return Effect.andThen(arrived.await, reach(n))
      })
    // The first run: it listens.
    yield* reach(1)
    return { count: () => count, reach }
  })

const newDelivery = (accountId: number, webhookId: number): Effect.Effect<NewDelivery> =>
  Effect.map(DateTime.now, (now) => ({
    accountId,
    id: globalThis.crypto.randomUUID(),
    webhookId,
    event: "deal-created",
    body: "{}",
    eventId: globalThis.crypto.randomUUID(),
    state: { status: "pending", attempts: 0, nextAttemptAt: now },
    createdAt: now
  }))

/**
 * The contract of `QueueSignals` with the queues that send them (memory, PGlite, PostgreSQL, or
 * yours): a subscription runs its effect once as soon as it listens, then
 *
 * - `outbox`: when an append commits — not before, and never for a rolled-back transaction (nor
 *   a failed nested one); at once for an append outside a transaction; when events are released;
 * - `deliveries`: when an insert of deliveries commits — not before, never after a rollback;
 *
 * and nothing once its scope has closed.
 *
 * Every check waits for signals rather than for time: a signal that should not come is shown
 * absent by the exact count once a later one has arrived (PostgreSQL delivers notifications in
 * commit order), and by the count after the scheduler has run every fiber that was ready (which is
 * all an in-process implementation needs).
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation` and run without
 * Effect's test services (each test that needs a `TestClock` provides its own).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `QueueSignals` (under test) and, over the same store, `Outbox`
 *   and `DeliveryRepository` (whose writes send the signals), `AccountRepository`,
 *   `WebhookRepository` and `Transactor`.
 */
export const queueSignalsContract = <E>(name: string, implementation: Layer.Layer<QueueSignalsContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("outbox: a signal when an append commits, not before, not after a rollback; a release wakes", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const signals = yield* listen("outbox")

        yield* transactor.transaction(Effect.andThen(outbox.append([contactCreated(accountId, 1)]), Effect.fail("no")))
          .pipe(Effect.ignore)
        yield* settle
        assert.strictEqual(signals.count(), 1, "no signal for a rolled-back append")

        yield* transactor.transaction(Effect.gen(function*() {
          yield* outbox.append([contactCreated(accountId, 2)])
          yield* settle
          assert.strictEqual(signals.count(), 1, "no signal before the commit")
        }))
        yield* signals.reach(2)

        // Outside a transaction: at once.
        yield* outbox.append([contactCreated(accountId, 3)])
        yield* signals.reach(3)

        const claimed = yield* outbox.claim(100, Duration.hours(1))
        assert.isAtLeast(claimed.length, 2)
        yield* outbox.release(claimed.slice(0, 1))
        yield* signals.reach(4)
        yield* outbox.complete(claimed)
        // Exactly one signal each: the rolled-back append's never came, not even late.
        yield* settle
        assert.strictEqual(signals.count(), 4)
      }).pipe(Effect.scoped))

    it.effect("outbox: a transaction of several appends signals after its commit", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const signals = yield* listen("outbox")
        yield* transactor.transaction(Effect.gen(function*() {
          yield* outbox.append([contactCreated(accountId, 1)])
          yield* outbox.append([contactCreated(accountId, 2), contactCreated(accountId, 3)])
          yield* settle
          assert.strictEqual(signals.count(), 1, "no signal before the commit")
        }))
        yield* signals.reach(2)
        yield* outbox.complete(yield* outbox.claim(100, Duration.hours(1)))
      }).pipe(Effect.scoped))

    it.effect("outbox: the append of a nested transaction that failed does not signal when the outer one commits", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const signals = yield* listen("outbox")
        yield* transactor.transaction(
          transactor.transaction(Effect.andThen(outbox.append([contactCreated(accountId, 1)]), Effect.fail("no"))).pipe(
            Effect.ignore
          )
        )
        yield* settle
        assert.strictEqual(signals.count(), 1)
        // The next signal is the only one.
        yield* outbox.append([contactCreated(accountId, 2)])
        yield* signals.reach(2)
        yield* settle
        assert.strictEqual(signals.count(), 2)
        yield* outbox.complete(yield* outbox.claim(100, Duration.hours(1)))
      }).pipe(Effect.scoped))

    it.effect("deliveries: a signal when an insert commits, not before, not after a rollback", () =>
      Effect.gen(function*() {
        const repo = yield* DeliveryRepository
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const hook = yield* newWebhook(accountId, "https://signals.example/hook", ["deal-created"])
        const signals = yield* listen("deliveries")

        yield* transactor.transaction(Effect.andThen(Effect.flatMap(newDelivery(accountId, hook), (d) => repo.insert([d])), Effect.fail("no")))
          .pipe(Effect.ignore)
        yield* settle
        assert.strictEqual(signals.count(), 1, "no signal for a rolled-back insert")

        yield* transactor.transaction(Effect.gen(function*() {
          yield* repo.insert([yield* newDelivery(accountId, hook)])
          yield* settle
          assert.strictEqual(signals.count(), 1, "no signal before the commit")
        }))
        yield* signals.reach(2)

        yield* repo.insert([yield* newDelivery(accountId, hook)])
        yield* signals.reach(3)
        yield* settle
        assert.strictEqual(signals.count(), 3)
      }).pipe(Effect.scoped))

    it.effect("a subscription ends with its scope; another one still hears", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const accountId = yield* newAccount
        const scope = yield* Scope.make()
        const closed = yield* Scope.provide(listen("outbox"), scope)
        yield* Scope.close(scope, Exit.void)
        const open = yield* listen("outbox")
        yield* outbox.append([contactCreated(accountId, 1)])
        yield* open.reach(2)
        yield* settle
        assert.strictEqual(closed.count(), 1)
        yield* outbox.complete(yield* outbox.claim(100, Duration.hours(1)))
      }).pipe(Effect.scoped))
  })
