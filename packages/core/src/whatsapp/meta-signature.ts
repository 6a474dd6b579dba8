/**
 * Meta's webhook signature: `X-Hub-Signature-256: sha256=<lowercase hex HMAC-SHA256>` of the raw
 * body bytes, keyed with the Meta app's secret. Checked on the bytes as received, before anything
 * reads them: a body decoded and encoded again need not be the bytes Meta signed.
 */
import { Effect } from "effect"
import { Hex } from "effect/encoding"
import { hmacSha256 } from "../auth/hmac.ts"
import { constantTimeEqual, SIGNATURE_PREFIX } from "../webhooks/signature.ts"

/** Checks a body against its `X-Hub-Signature-256` value (undefined when the header is missing). */
export type MetaSignatureCheck = (body: Uint8Array, signature: string | undefined) => Effect.Effect<boolean>

/** Signs a body as Meta does: `sha256=` and the lowercase hex HMAC. */
export type MetaSigner = (body: string | Uint8Array) => Effect.Effect<string>

/** A signer keyed once with the app secret (the key is imported once, then signs any number of bodies). */
export const metaSigner = (appSecret: string): Effect.Effect<MetaSigner> =>
  Effect.map(
    hmacSha256(new TextEncoder().encode(appSecret)),
    (hmac) => (body) => Effect.map(hmac(body), (tag) => `${SIGNATURE_PREFIX}${Hex.encode(tag)}`)
  )

/**
 * A check keyed once with the app secret: true when the header is exactly the signature of the
 * body, compared in constant time. The comparison is on the header's text: Meta writes lowercase
 * hex, and anything else (upper case, spaces, another scheme) is not its signature.
 */
export const metaSignatureCheck = (appSecret: string): Effect.Effect<MetaSignatureCheck> =>
  Effect.map(metaSigner(appSecret), (sign) => (body, signature) =>
    signature === undefined
      ? Effect.succeed(false)
      : Effect.map(sign(body), (expected) => constantTimeEqual(expected, signature)))
