import { assert, describe, it } from "@effect/vitest"
import { PasswordHasher } from "@wasl/core/Auth"
import { Effect } from "effect"
import { PasswordHasherFast, PasswordHasherScrypt } from "../src/password-hasher-scrypt.ts"

const ENCODED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/

describe("PasswordHasherScrypt", () => {
  it.effect("hashes with N=2^15, r=8, p=1, a 16-byte salt and a 64-byte key, and verifies", () =>
    Effect.gen(function*() {
      const hasher = yield* PasswordHasher
      const hash = yield* hasher.hash("correct horse battery staple")
      const match = ENCODED.exec(hash)
      assert.isNotNull(match)
      const [, n, r, p, salt, key] = match!
      assert.deepStrictEqual([n, r, p], ["32768", "8", "1"])
      assert.strictEqual(Buffer.from(salt!, "base64").length, 16)
      assert.strictEqual(Buffer.from(key!, "base64").length, 64)

      assert.isTrue(yield* hasher.verify("correct horse battery staple", hash))
      assert.isFalse(yield* hasher.verify("correct horse battery stapler", hash))
      assert.isFalse(yield* hasher.verify("", hash))
      // A fresh salt each time.
      assert.notStrictEqual(yield* hasher.hash("correct horse battery staple"), hash)
    }).pipe(Effect.provide(PasswordHasherScrypt)))

  it.effect("answers false, without failing, for malformed hashes", () =>
    Effect.gen(function*() {
      const hasher = yield* PasswordHasher
      const good = yield* hasher.hash("secret")
      const [, n, r, p, salt, key] = good.split("$")
      const malformed = [
        "",
        "secret",
        "$2y$10$abcdefghijklmnopqrstuu5Sx9Zq1f7i5bq0cG9dQ1k7u8Vn2y3We",
        `argon2$${n}$${r}$${p}$${salt}$${key}`,
        `scrypt$${n}$${r}$${p}$${salt}`,
        `scrypt$${n}$${r}$${p}$${salt}$${key}$extra`,
        `scrypt$abc$${r}$${p}$${salt}$${key}`,
        `scrypt$1000$${r}$${p}$${salt}$${key}`, // N not a power of two
        `scrypt$1$${r}$${p}$${salt}$${key}`,
        `scrypt$${2 ** 30}$${r}$${p}$${salt}$${key}`, // absurd cost: refused, not computed
        `scrypt$${n}$0$${p}$${salt}$${key}`,
        `scrypt$${n}$${r}$${p}$not*base64$${key}`,
        `scrypt$${n}$${r}$${p}$${salt}$`,
        `scrypt$${n}$${r}$${p}$$${key}`
      ]
      for (const hash of malformed) {
        assert.isFalse(yield* hasher.verify("secret", hash), hash)
      }
      // A truncated key or salt is malformed (a key prefix would otherwise match).
      assert.isFalse(yield* hasher.verify("secret", `scrypt$${n}$${r}$${p}$${salt}$${key!.slice(0, 40)}`))
      assert.isFalse(yield* hasher.verify("secret", `scrypt$${n}$${r}$${p}$${salt!.slice(0, 16)}$${key}`))
      assert.isTrue(yield* hasher.verify("secret", good))
    }).pipe(Effect.provide(PasswordHasherFast)))
})

describe("PasswordHasherFast (tests only)", () => {
  it.effect("uses the same encoding with cheap parameters; its hashes verify under the production hasher", () =>
    Effect.gen(function*() {
      const fast = yield* Effect.provide(PasswordHasher, PasswordHasherFast)
      const hash = yield* fast.hash("pässwörd")
      const [, n, r, p] = ENCODED.exec(hash)!
      assert.isBelow(Number(n), 2 ** 15)
      assert.deepStrictEqual([r, p], ["1", "1"])
      assert.isTrue(yield* fast.verify("pässwörd", hash))
      assert.isFalse(yield* fast.verify("passwörd", hash))
      const production = yield* Effect.provide(PasswordHasher, PasswordHasherScrypt)
      assert.isTrue(yield* production.verify("pässwörd", hash))
    }))
})
