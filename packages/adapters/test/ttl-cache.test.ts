/** The cache under `RepositoryCachesPg`: expiry on the Clock, invalidation, and loads it must not keep. */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { makeTtlCache } from "../src/pg/cache/ttl-cache.ts"

/** A load that counts its runs and answers the count. */
const counter = () => {
  let runs = 0
  return { load: Effect.sync(() => ++runs), runs: () => runs }
}

const always = () => true

describe("makeTtlCache", () => {
  it.effect("keeps a value until its time is up, then loads again", () =>
    Effect.gen(function*() {
      const cache = makeTtlCache<number>({ ttlMillis: 10_000, maxEntries: 10 })
      const { load, runs } = counter()
      assert.strictEqual(yield* cache.get("k", load, always), 1)
      yield* TestClock.adjust("9999 millis")
      assert.strictEqual(yield* cache.get("k", load, always), 1)
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(yield* cache.get("k", load, always), 2)
      assert.strictEqual(runs(), 2)
    }))

  it.effect("keeps only what `keep` accepts", () =>
    Effect.gen(function*() {
      const cache = makeTtlCache<number>({ ttlMillis: 10_000, maxEntries: 10 })
      const { load, runs } = counter()
      yield* cache.get("k", load, () => false)
      yield* cache.get("k", load, () => false)
      assert.strictEqual(runs(), 2)
    }))

  it.effect("forgets a key, and the keys below it, on invalidation", () =>
    Effect.gen(function*() {
      const cache = makeTtlCache<number>({ ttlMillis: 10_000, maxEntries: 10 })
      const { load, runs } = counter()
      yield* cache.get("1:2", load, always)
      yield* cache.get("1:3", load, always)
      yield* cache.get("11:2", load, always)
      cache.invalidate("1")
      yield* cache.get("1:2", load, always)
      yield* cache.get("1:3", load, always)
      yield* cache.get("11:2", load, always)
      assert.strictEqual(runs(), 5, "1:2 and 1:3 loaded again; 11:2 kept")
    }))

  it.effect("does not keep a load an invalidation overtook (it may have read the old row)", () =>
    Effect.gen(function*() {
      const cache = makeTtlCache<number>({ ttlMillis: 10_000, maxEntries: 10 })
      const { load, runs } = counter()
      yield* cache.get("k", Effect.andThen(Effect.sync(() => cache.invalidate("other")), load), always)
      yield* cache.get("k", load, always)
      assert.strictEqual(runs(), 2)
      cache.clear()
      yield* cache.get("k", Effect.andThen(Effect.sync(() => cache.clear()), load), always)
      yield* cache.get("k", load, always)
      assert.strictEqual(runs(), 4)
    }))

  it.effect("updates a kept value in place, and drops the oldest beyond its size", () =>
    Effect.gen(function*() {
      const cache = makeTtlCache<number>({ ttlMillis: 10_000, maxEntries: 2 })
      const { load, runs } = counter()
      yield* cache.get("a", load, always)
      cache.update("a", (n) => n * 100)
      cache.update("missing", (n) => n * 100)
      assert.strictEqual(yield* cache.get("a", load, always), 100)
      yield* cache.get("b", load, always)
      yield* cache.get("c", load, always)
      assert.strictEqual(runs(), 3)
      yield* cache.get("a", load, always)
      assert.strictEqual(runs(), 4, "a was the oldest and went")
    }))
})
