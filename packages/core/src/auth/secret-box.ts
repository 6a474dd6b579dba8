/**
 * Secrets kept encrypted at rest (webhook secrets, sending-number access
 * tokens): AES-256-GCM with effect/crypto's `Aead` over Web Crypto, so core stays portable. The
 * key comes from configuration at the edge.
 */
import { Context, Effect, Layer, Option, Result } from "effect"
import { Aead, SecureRandom } from "effect/crypto"
import { Base64Url } from "effect/encoding"

const VERSION = "v1"
const NONCE_BYTES = 12

/** What the {@link SecretBox} port offers. */
export interface SecretBoxShape {
  /** `v1.<nonce b64url>.<ciphertext+tag b64url>`; a fresh nonce every time. */
  readonly seal: (plaintext: string) => Effect.Effect<string>
  /** None when the box was not sealed with this key or was altered. */
  readonly open: (sealed: string) => Effect.Effect<Option.Option<string>>
}

const SecretBoxBase: Context.ServiceClass<SecretBox, "@wasl/core/SecretBox", SecretBoxShape> = Context.Service<
  SecretBox,
  SecretBoxShape
>()("@wasl/core/SecretBox")

/**
 * Seals secrets for storage and opens them again (webhook secrets, sending-number access tokens).
 * What one key sealed, only the same key opens. Its operations: {@link SecretBoxShape}.
 */
export class SecretBox extends SecretBoxBase {
  /**
   * AES-256-GCM with `key`, which must be 32 bytes (the layer dies otherwise). Usually the
   * `secret-box` purpose key of `ServerKeys`.
   *
   * @example
   * ```ts
   * import { Effect } from "effect"
   * import { SecureRandom } from "effect/crypto"
   * import { SecretBox } from "@wasl/core"
   *
   * const key = crypto.getRandomValues(new Uint8Array(32))
   * const roundTrip = Effect.gen(function*() {
   *   const box = yield* SecretBox
   *   return yield* box.open(yield* box.seal("s3cret")) // Option.some("s3cret")
   * }).pipe(Effect.provide(SecretBox.layerAesGcm(key)), Effect.provide(SecureRandom.layerWebCrypto))
   * ```
   */
  static readonly layerAesGcm = (key: Uint8Array): Layer.Layer<SecretBox, never, SecureRandom.SecureRandom> =>
    Layer.effect(
      SecretBox,
      Effect.gen(function*() {
        if (key.length !== 32) return yield* Effect.die(new RangeError("SecretBox needs a 32-byte key"))
        const random = yield* SecureRandom.SecureRandom
        const aead = yield* Aead.Aead
        // A 32-byte key always imports: a CryptoError here is a broken runtime.
        const aesKey = yield* Effect.orDie(Aead.key(Aead.aes256Gcm, key))
        return SecretBox.of({
          seal: (plaintext) =>
            Effect.gen(function*() {
              const nonce = yield* random.randomBytes(NONCE_BYTES)
              const sealed = yield* Effect.orDie(aead.encrypt(aesKey, new TextEncoder().encode(plaintext), { nonce }))
              return `${VERSION}.${Base64Url.encode(nonce)}.${Base64Url.encode(sealed)}`
            }),
          open: (sealed) => {
            const [version, nonce, body] = sealed.split(".")
            const nonceBytes = nonce === undefined ? undefined : fromBase64Url(nonce)
            const bodyBytes = body === undefined ? undefined : fromBase64Url(body)
            if (version !== VERSION || nonceBytes?.length !== NONCE_BYTES || bodyBytes === undefined) {
              return Effect.succeedNone
            }
            return aead.decrypt(aesKey, bodyBytes, { nonce: nonceBytes }).pipe(
              Effect.map((plain) => Option.some(new TextDecoder().decode(plain))),
              Effect.orElseSucceed(() => Option.none<string>())
            )
          }
        })
      })
    ).pipe(Layer.provide(Aead.layerWebCrypto))
}

// The unpadded URL-safe form only, as seal writes it: anything else was not sealed here.
const fromBase64Url = (text: string): Uint8Array | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  const bytes = Base64Url.decode(text)
  return Result.isSuccess(bytes) ? bytes.success : undefined
}
