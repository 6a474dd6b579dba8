/**
 * The server key and the purpose keys derived from it. A deployment has one 32-byte master key;
 * each mechanism gets its own subkey (HKDF-SHA256, salt `wasl`, info `wasl/<purpose>`), so no two
 * mechanisms share key material: `secret-box` seals webhook secrets and sending-number access
 * tokens (AES-256-GCM), `otp-code` hashes managed OTP codes (HMAC-SHA256). Every process sharing a
 * database must use the same master key, or none can open what another sealed.
 */
import type { Cause } from "effect"
import { Context, Effect, Layer, Redacted, Result, Schema } from "effect"
import { Kdf } from "effect/crypto"
import { Hex } from "effect/encoding"

/** What a subkey is for. */
export type KeyPurpose = "secret-box" | "otp-code"

/** Every purpose, in the order the subkeys are derived. */
export const KEY_PURPOSES: ReadonlyArray<KeyPurpose> = ["secret-box", "otp-code"]

const ServerKeyErrorBase: Schema.Class<
  ServerKeyError,
  Schema.TaggedStruct<"ServerKeyError", { readonly message: Schema.String }>,
  Cause.YieldableError
> = Schema.TaggedError<ServerKeyError>()("ServerKeyError", {
  message: Schema.String
})

/** A master key that is not 32 bytes (or 64 hexadecimal characters); `message` says which. */
export class ServerKeyError extends ServerKeyErrorBase {}

/** A master key as configuration gives it: 32 bytes, or 64 hexadecimal characters (redacted or not). */
export type ServerKeyInput = Uint8Array | string | Redacted.Redacted<string>

const KEY_BYTES = 32
const HEX_KEY = /^[0-9a-fA-F]{64}$/

/** The 32 bytes of a master key, or why it is not one. */
export const parseServerKey = (input: ServerKeyInput): Result.Result<Uint8Array, ServerKeyError> => {
  if (input instanceof Uint8Array) {
    return input.length === KEY_BYTES
      ? Result.succeed(input)
      : Result.fail(new ServerKeyError({ message: `The server key must be ${KEY_BYTES} bytes, received ${input.length}` }))
  }
  const text = (Redacted.isRedacted(input) ? Redacted.value(input) : input).trim()
  const bytes = HEX_KEY.test(text) ? Hex.decode(text) : undefined
  return bytes !== undefined && Result.isSuccess(bytes)
    ? Result.succeed(bytes.success)
    : Result.fail(new ServerKeyError({ message: "The server key must be 64 hexadecimal characters" }))
}

const encoder = new TextEncoder()

/** HKDF-SHA256(master, salt `wasl`, info `wasl/<purpose>`): the purpose's 32-byte subkey. */
export const deriveKey = (master: Uint8Array, purpose: KeyPurpose): Effect.Effect<Uint8Array> =>
  Kdf.Kdf.use((kdf) =>
    kdf.derive(Kdf.hkdfSha256, master, {
      salt: encoder.encode("wasl"),
      info: encoder.encode(`wasl/${purpose}`),
      length: KEY_BYTES
    })
  ).pipe(Effect.orDie, Effect.provide(Kdf.layerWebCrypto))

/** The shape of {@link ServerKeys}. */
export interface ServerKeysShape {
  /** The subkey for one purpose. */
  readonly key: (purpose: KeyPurpose) => Uint8Array
}

const ServerKeysBase: Context.ServiceClass<ServerKeys, "@wasl/core/ServerKeys", ServerKeysShape> = Context.Service<
  ServerKeys,
  ServerKeysShape
>()("@wasl/core/ServerKeys")

/**
 * The purpose keys of this process, derived once from the master key.
 * Its operations: {@link ServerKeysShape}.
 */
export class ServerKeys extends ServerKeysBase {
  /**
   * The purpose keys of `master` (a malformed key fails the layer with {@link ServerKeyError}).
   *
   * @example
   * ```ts
   * import { Effect } from "effect"
   * import { ServerKeys } from "@wasl/core"
   *
   * const otpKey = ServerKeys.use((keys) => Effect.succeed(keys.key("otp-code"))).pipe(
   *   Effect.provide(ServerKeys.layer("00".repeat(32)))
   * )
   * ```
   */
  static readonly layer = (master: ServerKeyInput): Layer.Layer<ServerKeys, ServerKeyError> =>
    Layer.effect(
      ServerKeys,
      Effect.gen(function*() {
        const bytes = yield* Effect.fromResult(parseServerKey(master))
        const keys = new Map<KeyPurpose, Uint8Array>()
        for (const purpose of KEY_PURPOSES) keys.set(purpose, yield* deriveKey(bytes, purpose))
        return ServerKeys.of({ key: (purpose) => keys.get(purpose)! })
      })
    )
}
