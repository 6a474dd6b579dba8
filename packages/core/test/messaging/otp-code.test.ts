/**
 * Managed codes (6 digits, stored as HMAC-SHA256(server key, verification_id + code)): uniform 6-digit codes from the CSPRNG port, and the keyed hash.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { MASKED_CODE, renderBody } from "../../src/Messaging.ts"
import { generateOtpCode, OtpCodeHasher } from "../../src/Otp.ts"
import { seededSecureRandom } from "../support/random.ts"

const Seed = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2 ** 32 - 1 }))
const KEY = new Uint8Array(32).fill(9)
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
/** Codes as the API admits them (letters and digits, 1 to 15), drawn as index lists. */
const CodeIndexes = Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 61 }))).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(15)
)
const codeOf = (indexes: ReadonlyArray<number>) => indexes.map((i) => ALPHANUMERIC[i]).join("")

const withHasher = <A, E>(effect: Effect.Effect<A, E, OtpCodeHasher>, key = KEY) =>
  Effect.provide(effect, OtpCodeHasher.layerHmacSha256(key))

describe("managed OTP codes", () => {
  it.effect.prop("are 6 decimal digits, a function of the random source", [Seed], ([seed]) =>
    Effect.gen(function*() {
      const code = yield* Effect.provideService(generateOtpCode, SecureRandom.SecureRandom, seededSecureRandom(seed))
      assert.match(code, /^\d{6}$/)
      const again = yield* Effect.provideService(generateOtpCode, SecureRandom.SecureRandom, seededSecureRandom(seed))
      assert.strictEqual(code, again)
    }))

  it.effect("spread evenly over every digit position", () =>
    Effect.gen(function*() {
      const counts = Array.from({ length: 6 }, () => new Array<number>(10).fill(0))
      const random = seededSecureRandom(42)
      for (let i = 0; i < 5000; i++) {
        const code = yield* Effect.provideService(generateOtpCode, SecureRandom.SecureRandom, random)
        for (let p = 0; p < 6; p++) counts[p]![Number(code[p])]! += 1
      }
      // Expected 500 per digit and position.
      for (const position of counts) for (const n of position) assert.isTrue(n > 400 && n < 600, String(n))
    }))

  it.effect("redraws values past the largest multiple of 10^6 (no modulo bias)", () =>
    Effect.gen(function*() {
      // First draw 0xFFFFFFFF (rejected), then 0x00000007.
      const bytes = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 7]
      const random = SecureRandom.make((size) => Uint8Array.from(bytes.splice(0, size)))
      const code = yield* Effect.provideService(generateOtpCode, SecureRandom.SecureRandom, random)
      assert.strictEqual(code, "000007")
    }))

  it.effect("hashes HMAC-SHA256(key, verification_id + code) (known answer)", () =>
    withHasher(Effect.gen(function*() {
      const hasher = yield* OtpCodeHasher
      // python3 -c "import hmac,hashlib;print(hmac.new(b'\x09'*32,b'0123456789abcdef01234567'+b'123456',hashlib.sha256).hexdigest())"
      assert.strictEqual(
        yield* hasher.hash("0123456789abcdef01234567", "123456"),
        "395c4e4e10846e39694566d93b2b22c056d51178285a06d7b1af51ee4ce83abb"
      )
    })))

  it.effect.prop("matches only the same code under the same id and key", [CodeIndexes, CodeIndexes], ([ia, ib]) =>
    withHasher(Effect.gen(function*() {
      const a = codeOf(ia)
      const b = codeOf(ib)
      const hasher = yield* OtpCodeHasher
      const id = "0123456789abcdef01234567"
      const stored = yield* hasher.hash(id, a)
      assert.isTrue(yield* hasher.matches(id, a, stored))
      assert.strictEqual(yield* hasher.matches(id, b, stored), a === b)
      assert.isFalse(yield* hasher.matches("76543210fedcba9876543210", a, stored))
      const otherKey = yield* withHasher(OtpCodeHasher.use((h) => h.matches(id, a, stored)), new Uint8Array(32).fill(1))
      assert.isFalse(otherKey)
    })))

  it.effect("refuses keys shorter than 32 bytes", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(withHasher(OtpCodeHasher.use((h) => h.hash("x", "y")), new Uint8Array(16)))
      assert.isTrue(exit._tag === "Failure")
    }))

  it("masks the code in the stored body", () => {
    const template = {
      name: "t",
      category: "AUTHENTICATION" as const,
      header: null,
      body: "{{1}} is your code. Do not share {{1}}.",
      footer: null,
      buttons: null,
      code_expiration_minutes: null
    }
    assert.strictEqual(renderBody(template, MASKED_CODE), "****** is your code. Do not share ******.")
  })
})
