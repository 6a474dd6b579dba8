import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"
import { TestClock } from "effect/testing"
import { makeRecordId, newRecordId, RecordId } from "../../src/Wire.ts"
import { seededSecureRandom } from "../support/random.ts"

const ID = /^[0-9a-f]{24}$/
const MAX_SECONDS = 2 ** 32 - 1
const Seconds = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_SECONDS }))
const Byte = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))
const EightBytes = Schema.Array(Byte).check(Schema.isBetweenLength(8, 8))
const Seed = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2 ** 32 - 1 }))
/** Millisecond instants whose seconds fit the 4-byte prefix (1970 up to 2106). */
const Millis = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_SECONDS * 1000 }))
const Delay = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10 * 365 * 86_400_000 }))

describe("makeRecordId", () => {
  it.prop("gives 24 lowercase hex: 8 of seconds, then the 8 bytes", [Seconds, EightBytes], ([seconds, bytes]) => {
    const id = makeRecordId(seconds, Uint8Array.from(bytes))
    assert.match(id, ID)
    assert.strictEqual(parseInt(id.slice(0, 8), 16), seconds)
    assert.strictEqual(id.slice(8), Hex.encode(Uint8Array.from(bytes)))
    assert.isTrue(Schema.is(RecordId)(id))
  })

  it.prop("floors fractional seconds", [Millis, EightBytes], ([ms, bytes]) => {
    const id = makeRecordId(ms / 1000, Uint8Array.from(bytes))
    assert.strictEqual(parseInt(id.slice(0, 8), 16), Math.floor(ms / 1000))
  })

  it("uses only the first 8 random bytes", () => {
    const id = makeRecordId(1, Uint8Array.from({ length: 12 }, (_, i) => i))
    assert.strictEqual(id, "00000001" + "0001020304050607")
  })

  it.prop("the seconds prefix orders ids like their times", [Seconds, Seconds, EightBytes, EightBytes], ([a, b, x, y]) => {
    const ia = makeRecordId(a, Uint8Array.from(x)).slice(0, 8)
    const ib = makeRecordId(b, Uint8Array.from(y)).slice(0, 8)
    assert.strictEqual(Math.sign(ia.localeCompare(ib, "en")), Math.sign(a - b))
    assert.strictEqual(ia < ib, a < b)
  })
})

describe("newRecordId", () => {
  const generate = (seed: number) => Effect.provideService(newRecordId, SecureRandom.SecureRandom, seededSecureRandom(seed))

  it.effect.prop("is deterministic under TestClock and a seeded SecureRandom", [Millis, Seed], ([ms, seed]) =>
    Effect.gen(function*() {
      yield* TestClock.setTime(ms)
      const first = yield* generate(seed)
      const second = yield* generate(seed)
      assert.strictEqual(first, second)
      assert.match(first, ID)
      assert.strictEqual(parseInt(first.slice(0, 8), 16), Math.floor(ms / 1000))
    }))

  it.effect.prop("ids generated later sort after earlier ones by their first 8 chars", [Millis, Delay, Seed], ([ms, delay, seed]) =>
    Effect.gen(function*() {
      yield* TestClock.setTime(ms)
      const random = seededSecureRandom(seed)
      const earlier = yield* Effect.provideService(newRecordId, SecureRandom.SecureRandom, random)
      yield* TestClock.adjust(delay)
      const later = yield* Effect.provideService(newRecordId, SecureRandom.SecureRandom, random)
      if (ms + delay > MAX_SECONDS * 1000 + 999) return
      assert.isTrue(later.slice(0, 8) >= earlier.slice(0, 8), `${earlier} then ${later}`)
      if (Math.floor((ms + delay) / 1000) > Math.floor(ms / 1000)) {
        assert.isTrue(later > earlier, `${earlier} then ${later}`)
      }
      // Two draws from one source differ in their random part.
      assert.notStrictEqual(later.slice(8), earlier.slice(8))
    }))

  it.effect("different seeds give different random parts at the same instant", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 21, 17, 24, 5))
      const ids = new Set<string>()
      for (let seed = 0; seed < 50; seed++) ids.add(yield* generate(seed))
      assert.strictEqual(ids.size, 50)
      for (const id of ids) assert.strictEqual(id.slice(0, 8), (Date.UTC(2026, 10, 21, 17, 24, 5) / 1000).toString(16))
    }))
})
