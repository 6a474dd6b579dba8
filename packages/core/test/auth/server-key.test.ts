/** The server key: parsing, and one distinct, stable subkey per purpose (HKDF-SHA256). */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted, Result } from "effect"
import { Hex } from "effect/encoding"
import { deriveKey, parseServerKey, ServerKeys } from "../../src/Auth.ts"

const MASTER = new Uint8Array(32).fill(1)

describe("server key", () => {
  it("accepts 32 bytes or 64 hex characters (plain or redacted, surrounding blanks ignored), nothing else", () => {
    const hex = "ab".repeat(32)
    for (const input of [hex, ` ${hex}\n`, Redacted.make(hex), Hex.decode(hex).pipe(Result.getOrThrow)]) {
      assert.strictEqual(Hex.encode(Result.getOrThrow(parseServerKey(input))), hex)
    }
    for (const bad of ["ab".repeat(31), "zz".repeat(32), "", new Uint8Array(31), new Uint8Array(33)]) {
      assert.isTrue(Result.isFailure(parseServerKey(bad)))
    }
  })

  it.effect("derives the subkeys every deployment has used so far (known answers), distinct per purpose", () =>
    Effect.gen(function*() {
      // Pinned: sealed webhook secrets and stored OTP code hashes depend on these bytes.
      assert.strictEqual(
        Hex.encode(yield* deriveKey(MASTER, "secret-box")),
        "e984f068ad669222e6315fe934cdddf0f38f81bf6c1ec9beb0f2e580114dc2eb"
      )
      assert.strictEqual(
        Hex.encode(yield* deriveKey(MASTER, "otp-code")),
        "dc360eed6cef4fe406a40c4fa72ce2c43881041c32adee5b396172d7f5999deb"
      )
      const keys = yield* Effect.provide(ServerKeys, ServerKeys.layer(MASTER))
      assert.strictEqual(Hex.encode(keys.key("secret-box")), Hex.encode(yield* deriveKey(MASTER, "secret-box")))
    }))

  it.effect("a malformed master key fails the layer", () =>
    Effect.gen(function*() {
      const failure = yield* Effect.flip(Effect.provide(ServerKeys, ServerKeys.layer("not a key")))
      assert.strictEqual(failure._tag, "ServerKeyError")
    }))
})
