import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SecureRandom } from "effect/crypto"
import { pooledRandomBytes, SecureRandomPooled } from "../src/secure-random-pooled.ts"

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

describe("pooled secure randomness", () => {
  it("hands out each pooled byte once: draws across many refills never repeat", () => {
    const draw = pooledRandomBytes(64)
    const seen = new Set<string>()
    for (let i = 0; i < 5000; i++) {
      const bytes = draw(12)
      expect(bytes.length).toBe(12)
      seen.add(hex(bytes))
    }
    expect(seen.size).toBe(5000)
  })

  it("a draw is a copy, and sizes beyond the pool (and beyond getRandomValues' limit) are served", () => {
    const draw = pooledRandomBytes(64)
    const first = draw(16)
    const kept = hex(first)
    draw(16)
    expect(hex(first)).toBe(kept)
    expect(draw(100).length).toBe(100)
    const big = draw(70_000)
    expect(big.length).toBe(70_000)
    expect(big.subarray(65_536).some((b) => b !== 0)).toBe(true)
  })

  it.effect("is the SecureRandom service: ids and strings from it are distinct", () =>
    Effect.gen(function*() {
      const random = yield* SecureRandom.SecureRandom
      const ids = yield* Effect.all(Array.from({ length: 1000 }, () => random.uuidV4()))
      expect(new Set(ids).size).toBe(1000)
    }).pipe(Effect.provide(SecureRandomPooled)))
})
