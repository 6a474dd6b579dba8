/** The contract suite of `RateLimiter` (documented on `rateLimiterContract`). */
import { assert, layer } from "@effect/vitest"
import { RateLimiter, type RateWindow } from "@wasl/core/Auth"
import { Duration, Effect, type Layer } from "effect"

/** What the layer under `rateLimiterContract` provides. */
export type RateLimiterContractServices = RateLimiter

/** A key no other test (nor an earlier run on the same database) uses. */
const freshKey = (name: string) => `${name}:${globalThis.crypto.randomUUID()}`

const MINUTE = 60_000
/** A window of one minute, the `n`-th after a fixed instant. */
const minute = (n: number): RateWindow => {
  const start = Date.UTC(2100, 0, 1) + n * MINUTE
  return { start, end: start + MINUTE }
}

/**
 * The contract of `RateLimiter` (memory, PGlite, PostgreSQL, or yours):
 *
 * - `hit` answers the key's count in the window, this hit included: 1, 2, 3...; keys count apart;
 * - a later window starts the count over at 1; a hit dated in an earlier window than the one
 *   kept (a replica whose clock lags) counts in the kept one;
 * - concurrent hits each get a different count (none lost);
 * - `prune` forgets exactly the windows ended by the instant given and answers how many.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation`.
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `RateLimiter` (under test).
 */
export const rateLimiterContract = <E>(name: string, implementation: Layer.Layer<RateLimiterContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("counts the hits of a key in its window, each key apart", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const a = freshKey("a")
        const b = freshKey("b")
        assert.deepStrictEqual(
          [
            yield* limiter.hit(a, minute(0)),
            yield* limiter.hit(a, minute(0)),
            yield* limiter.hit(b, minute(0)),
            yield* limiter.hit(a, minute(0))
          ],
          [1, 2, 1, 3]
        )
      }))

    it.effect("a later window starts over; a hit dated in an earlier one counts in the kept window", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = freshKey("windows")
        yield* limiter.hit(key, minute(0))
        yield* limiter.hit(key, minute(0))
        assert.strictEqual(yield* limiter.hit(key, minute(1)), 1)
        assert.strictEqual(yield* limiter.hit(key, minute(0)), 2, "a lagging clock's hit joins the newer window")
        assert.strictEqual(yield* limiter.hit(key, minute(1)), 3)
        assert.strictEqual(yield* limiter.hit(key, minute(5)), 1)
      }))

    it.effect("concurrent hits get every count once", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = freshKey("concurrent")
        const counts = yield* Effect.forEach(Array.from({ length: 20 }), () => limiter.hit(key, minute(0)), {
          concurrency: "unbounded"
        })
        assert.deepStrictEqual([...counts].sort((x, y) => x - y), Array.from({ length: 20 }, (_, i) => i + 1))
      }))

    it.effect("prune forgets the windows ended by then, and only those", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        // Before every other test's windows, so pruning up to minute(-200)'s end touches only these.
        const ended = freshKey("ended")
        const live = freshKey("live")
        const old = { start: minute(-200).start, end: minute(-200).end }
        yield* limiter.hit(ended, old)
        yield* limiter.hit(ended, old)
        yield* limiter.hit(live, minute(-100))
        assert.strictEqual(yield* limiter.prune(minute(-200).end), 1)
        assert.strictEqual(yield* limiter.prune(minute(-200).end), 0, "nothing left to prune by then")
        assert.strictEqual(yield* limiter.hit(ended, old), 1, "the pruned count starts over")
        assert.strictEqual(yield* limiter.hit(live, minute(-100)), 2, "a window not yet ended is kept")
      }))
  })
