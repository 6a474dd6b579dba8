/** TOTP codes: RFC 6238's test vectors, and the `otpauth` package as the authenticator a user holds. */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import * as OTPAuth from "otpauth"
import { hotp, matchTotp, newTotpSecret, otpauthUri, totpStep } from "../../src/Auth.ts"
import { decodeBase32, encodeBase32 } from "../../src/wire/base32.ts"
import { SecureRandomSeeded } from "../support/random.ts"

// RFC 6238 Appendix B, SHA-1: the ASCII seed "12345678901234567890", 8-digit codes.
const RFC_SEED = new TextEncoder().encode("12345678901234567890")
const RFC_VECTORS: ReadonlyArray<readonly [number, string]> = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"]
]

const at = (seconds: number) => DateTime.makeUnsafe(seconds * 1000)

describe("TOTP", () => {
  it.effect("gives RFC 6238's SHA-1 test vectors", () =>
    Effect.gen(function*() {
      for (const [seconds, code] of RFC_VECTORS) {
        assert.strictEqual(yield* hotp(RFC_SEED, totpStep(at(seconds)), 8), code, `T = ${seconds}`)
        // Six digits are the last six of the eight.
        assert.strictEqual(yield* hotp(RFC_SEED, totpStep(at(seconds))), code.slice(2), `T = ${seconds}`)
      }
    }))

  it.effect("takes the codes otpauth makes for a new secret, within one step either side", () =>
    Effect.gen(function*() {
      const secret = yield* newTotpSecret
      const key = decodeBase32(secret)!
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) })
      const now = 1_800_000_015
      const step = totpStep(at(now))
      for (const offset of [-1, 0, 1]) {
        const code = totp.generate({ timestamp: (now + offset * 30) * 1000 })
        assert.deepStrictEqual(yield* matchTotp(key, code, at(now), null), Option.some(step + offset))
      }
      for (const offset of [-2, 2]) {
        const code = totp.generate({ timestamp: (now + offset * 30) * 1000 })
        assert.deepStrictEqual(yield* matchTotp(key, code, at(now), null), Option.none())
      }
    }).pipe(Effect.provide(SecureRandomSeeded(7))))

  it.effect("passes over the steps already used: a code is taken once, an older one never", () =>
    Effect.gen(function*() {
      const secret = yield* newTotpSecret
      const key = decodeBase32(secret)!
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) })
      const now = 1_800_000_015
      const step = totpStep(at(now))
      const code = totp.generate({ timestamp: now * 1000 })
      assert.deepStrictEqual(yield* matchTotp(key, code, at(now), step), Option.none())
      const earlier = totp.generate({ timestamp: (now - 30) * 1000 })
      assert.deepStrictEqual(yield* matchTotp(key, earlier, at(now), step), Option.none())
      const later = totp.generate({ timestamp: (now + 30) * 1000 })
      assert.deepStrictEqual(yield* matchTotp(key, later, at(now), step), Option.some(step + 1))
    }).pipe(Effect.provide(SecureRandomSeeded(8))))

  it.effect("refuses anything but the code: another code, a wrong length, letters", () =>
    Effect.gen(function*() {
      const key = decodeBase32(yield* newTotpSecret)!
      for (const code of ["", "12345", "1234567", "abcdef"]) {
        assert.deepStrictEqual(yield* matchTotp(key, code, at(1_800_000_000), null), Option.none(), code)
      }
    }).pipe(Effect.provide(SecureRandomSeeded(9))))

  it.effect("makes 160-bit Base32 secrets and an otpauth:// URI the authenticator reads", () =>
    Effect.gen(function*() {
      const secret = yield* newTotpSecret
      assert.match(secret, /^[A-Z2-7]{32}$/)
      assert.strictEqual(decodeBase32(secret)!.length, 20)
      const parsed = OTPAuth.URI.parse(otpauthUri(secret, "jane+crm@example.com"))
      assert.instanceOf(parsed, OTPAuth.TOTP)
      assert.strictEqual(parsed.issuer, "Wasl")
      assert.strictEqual(parsed.label, "jane+crm@example.com")
      assert.strictEqual(parsed.secret.base32, secret)
      assert.strictEqual(parsed.algorithm, "SHA1")
      assert.strictEqual(parsed.digits, 6)
      assert.strictEqual((parsed as OTPAuth.TOTP).period, 30)
    }).pipe(Effect.provide(SecureRandomSeeded(10))))

  it("reads Base32 back as it was written, without regard to case, spaces or padding", () => {
    const bytes = Uint8Array.from([0, 1, 2, 250, 251, 252, 253])
    const text = encodeBase32(bytes)
    assert.deepStrictEqual(decodeBase32(text), bytes)
    assert.deepStrictEqual(decodeBase32(`${text.toLowerCase().slice(0, 4)} ${text.slice(4)}===`), bytes)
    assert.strictEqual(encodeBase32(new TextEncoder().encode("foobar")), "MZXW6YTBOI")
    assert.strictEqual(decodeBase32("MZXW6YT1"), undefined)
  })
})
