/**
 * Rate limits: the fixed-window decision and `consumeRate` over the memory counter, driven by
 * TestClock and checked against a model that counts the requests of each window.
 */
import { assert, describe, it } from "@effect/vitest"
import { RateLimiterMemory } from "@wasl/adapters/memory"
import { Clock, DateTime, Duration, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import {
  consumeRate,
  decide,
  makePruneSchedule,
  parseRateRule,
  type RateLimiter,
  RATE_LIMIT_OFF,
  rateLimited,
  type RateRule,
  TOO_MANY_ATTEMPTS,
  windowAt
} from "../../src/Auth.ts"
import { withTestClock } from "../../src/testing/index.ts"

const START = DateTime.makeUnsafe("2026-11-23T12:00:00Z")

/** Runs on a fresh memory counter under TestClock (its pruning fiber runs on the TestClock too). */
const onTestClock = <A, E>(effect: Effect.Effect<A, E, RateLimiter>): Effect.Effect<A, E> =>
  withTestClock(effect.pipe(Effect.provide(RateLimiterMemory)), START)

describe("parseRateRule", () => {
  it("reads requests per duration, requests alone per minute, and 0 as off", () => {
    assert.deepStrictEqual(parseRateRule("600"), Option.some({ limit: 600, window: Duration.minutes(1) }))
    assert.deepStrictEqual(parseRateRule("10/15 minutes"), Option.some({ limit: 10, window: Duration.minutes(15) }))
    assert.deepStrictEqual(parseRateRule(" 5 / 30 seconds "), Option.some({ limit: 5, window: Duration.seconds(30) }))
    assert.deepStrictEqual(parseRateRule("0"), Option.some({ limit: 0, window: Duration.minutes(1) }))
  })

  it("reads the window in the duration syntax of every other setting (10/15m, 5/30s)", () => {
    assert.deepStrictEqual(parseRateRule("10/15m"), Option.some({ limit: 10, window: Duration.minutes(15) }))
    assert.deepStrictEqual(parseRateRule("5/30s"), Option.some({ limit: 5, window: Duration.seconds(30) }))
  })

  it("refuses what is not a count, a window under a second, or an endless one", () => {
    for (const text of ["", "many", "-1", "1.5", "10/", "10/soon", "10/500 millis", "10/500ms", "10/Infinity", "10/1 minute/2"]) {
      assert.isTrue(Option.isNone(parseRateRule(text)), text)
    }
  })
})

describe("the fixed window", () => {
  it("aligns windows on the epoch: every instant is in exactly one", () =>
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 3600 }),
      fc.integer({ min: 0, max: 4_000_000_000_000 }),
      (seconds, now) => {
        const window = windowAt({ limit: 1, window: Duration.seconds(seconds) }, now)
        assert.isTrue(window.start <= now && now < window.end)
        assert.strictEqual(window.start % (seconds * 1000), 0)
        assert.strictEqual(window.end - window.start, seconds * 1000)
      }
    )))

  it("allows the limit, refuses beyond it, and says when the count starts over", () => {
    const rule = { limit: 2, window: Duration.minutes(1) }
    const window = { start: 60_000, end: 120_000 }
    assert.deepStrictEqual(decide(rule, 2, window, 60_500), { allowed: true, limit: 2, remaining: 0, resetSeconds: 60 })
    assert.deepStrictEqual(decide(rule, 3, window, 119_999), { allowed: false, limit: 2, remaining: 0, resetSeconds: 1 })
    const refused = rateLimited(decide(rule, 3, window, 90_000))
    assert.strictEqual(refused.message, TOO_MANY_ATTEMPTS)
    assert.strictEqual(refused.retryAfter, 30)
  })
})

describe("makePruneSchedule", () => {
  it("prunes once an interval has passed since the first hit, then once per interval", () => {
    const due = makePruneSchedule()
    const at = (minutes: number) => ({ start: minutes * 60_000, end: (minutes + 1) * 60_000 })
    assert.deepStrictEqual([0, 9, 10, 10, 15, 19, 20, 45].map((m) => due(at(m))), [
      false,
      false,
      true,
      false,
      false,
      false,
      true,
      true
    ])
  })
})

describe("consumeRate", () => {
  it.effect("off: no decision and nothing counted", () =>
    onTestClock(Effect.gen(function*() {
      assert.isTrue(Option.isNone(yield* consumeRate("k", RATE_LIMIT_OFF)))
      const rule = { limit: 1, window: Duration.minutes(1) }
      assert.isTrue(Option.getOrThrow(yield* consumeRate("k", rule)).allowed, "the first counted request")
    })))

  it.effect("refuses after the limit until the window ends, then allows again", () =>
    onTestClock(Effect.gen(function*() {
      const rule = { limit: 3, window: Duration.minutes(1) }
      const decisions = yield* Effect.forEach([1, 2, 3, 4], () => consumeRate("token:1", rule))
      assert.deepStrictEqual(decisions.map((d) => Option.getOrThrow(d).allowed), [true, true, true, false])
      assert.deepStrictEqual(decisions.map((d) => Option.getOrThrow(d).remaining), [2, 1, 0, 0])
      const refused = Option.getOrThrow(decisions[3]!)
      assert.strictEqual(refused.resetSeconds, 60)
      assert.isTrue(Option.getOrThrow(yield* consumeRate("token:2", rule)).allowed, "another key counts apart")
      yield* TestClock.adjust(Duration.seconds(59))
      assert.isFalse(Option.getOrThrow(yield* consumeRate("token:1", rule)).allowed, "a second before the reset")
      yield* TestClock.adjust(Duration.seconds(1))
      const after = Option.getOrThrow(yield* consumeRate("token:1", rule))
      assert.deepStrictEqual(after, { allowed: true, limit: 3, remaining: 2, resetSeconds: 60 })
    })))

  it("matches a model that counts each window's requests, whatever the pace", () =>
    fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 120 }),
        fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 40 }),
        (limit, seconds, pauses) => {
          const rule: RateRule = { limit, window: Duration.seconds(seconds) }
          const length = seconds * 1000
          return Effect.runPromise(onTestClock(Effect.gen(function*() {
            const perWindow = new Map<number, number>()
            for (const pause of pauses) {
              yield* TestClock.adjust(Duration.millis(pause))
              const now = yield* Clock.currentTimeMillis
              const index = Math.floor(now / length)
              const count = (perWindow.get(index) ?? 0) + 1
              perWindow.set(index, count)
              const decision = Option.getOrThrow(yield* consumeRate("key", rule))
              assert.deepStrictEqual(decision, {
                allowed: count <= limit,
                limit,
                remaining: Math.max(0, limit - count),
                resetSeconds: Math.max(1, Math.ceil(((index + 1) * length - now) / 1000))
              })
            }
          })))
        }
      ),
      { numRuns: 200 }
    ))
})
