/** SHA-256 of token and session secrets, compared in constant time; Web Crypto keeps core portable. */
import { Context, Effect, Layer } from "effect"
import { Digest, Mac } from "effect/crypto"

/** What the {@link TokenHasher} port offers. */
export interface TokenHasherShape {
  /** Lowercase hex SHA-256 of the secret. */
  readonly hash: (secret: string) => Effect.Effect<string>
  /** Whether `secret` hashes to `expectedHash`, compared in constant time. */
  readonly matches: (secret: string, expectedHash: string) => Effect.Effect<boolean>
}

const TokenHasherBase: Context.ServiceClass<TokenHasher, "@wasl/core/TokenHasher", TokenHasherShape> = Context
  .Service<TokenHasher, TokenHasherShape>()("@wasl/core/TokenHasher")

/**
 * Hashes API-token and session secrets for storage and checks a secret against a stored hash. Its
 * operations: {@link TokenHasherShape}.
 */
export class TokenHasher extends TokenHasherBase {
  /** SHA-256 through Web Crypto: what every deployment uses. */
  static readonly layerWebCrypto: Layer.Layer<TokenHasher> = Layer.effect(
    TokenHasher,
    Effect.gen(function*() {
      const digest = yield* Digest.Digest
      const utf8 = new TextEncoder()
      const hash = (secret: string) => digest.digestHex(Digest.sha256, utf8.encode(secret))
      return TokenHasher.of({
        hash,
        matches: (secret, expectedHash) =>
          Effect.map(hash(secret), (actual) => Mac.timingSafeEqual(utf8.encode(actual), utf8.encode(expectedHash)))
      })
    })
  ).pipe(Layer.provide(Digest.layerWebCrypto))
}
