/** SHA-256 of token and session secrets, compared in constant time; Web Crypto keeps core portable. */
import { Context, Effect, Layer } from "effect"
import { Digest, Mac } from "effect/crypto"
import { utf8 } from "../wire/hex.ts"

export class TokenHasher extends Context.Service<TokenHasher, {
  /** Lowercase hex SHA-256 of the secret. */
  readonly hash: (secret: string) => Effect.Effect<string>
  /** Whether `secret` hashes to `expectedHash`, compared in constant time. */
  readonly matches: (secret: string, expectedHash: string) => Effect.Effect<boolean>
}>()("@wasl/core/TokenHasher") {
  static readonly layerWebCrypto = Layer.effect(
    TokenHasher,
    Effect.gen(function*() {
      const digest = yield* Digest.Digest
      const hash = (secret: string) => digest.digestHex(Digest.sha256, utf8(secret))
      return TokenHasher.of({
        hash,
        matches: (secret, expectedHash) =>
          Effect.map(hash(secret), (actual) => Mac.timingSafeEqual(utf8(actual), utf8(expectedHash)))
      })
    })
  ).pipe(Layer.provide(Digest.layerWebCrypto))
}
