/**
 * PasswordHasher over Node's scrypt (a memory-hard hash).
 *
 * Encoded form: `scrypt$N$r$p$saltB64$hashB64` (standard base64), so the
 * parameters travel with each hash and can be raised later without breaking
 * stored passwords: `verify` reads them from the hash, not from the layer.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { PasswordHasher } from "@wasl/core/Auth"
import { Effect, Layer } from "effect"

/** The parameters of a scrypt hash; each hash carries its own, so they can be raised later. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  readonly N: number
  /** Block size. */
  readonly r: number
  /** Parallelisation. */
  readonly p: number
  /** Bytes of random salt per hash. */
  readonly saltBytes: number
  /** Bytes of derived key. */
  readonly keyBytes: number
}

/** Production parameters: N = 2^15, r = 8, p = 1 (≈ 32 MiB and tens of milliseconds per hash). */
export const SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1, saltBytes: 16, keyBytes: 64 }

/**
 * FOR TESTS ONLY: N = 2^4 makes a hash take microseconds and is worthless
 * against an attacker. Never wire `PasswordHasherFast` into a server or CLI.
 */
export const SCRYPT_PARAMS_FAST: ScryptParams = { N: 2 ** 4, r: 1, p: 1, saltBytes: 16, keyBytes: 64 }

/** Refuse hashes whose parameters would make `verify` a denial-of-service vector. */
const MAX_N = 2 ** 20
const MAX_R = 32
const MAX_P = 16
const MAX_KEY_BYTES = 256
/** Shorter salts or keys are not hashes we write: malformed (a key prefix would otherwise verify). */
const MIN_SALT_BYTES = 16
const MIN_KEY_BYTES = 32

/** scrypt needs 128·N·r·p bytes (plus a little); Node's default cap (32 MiB) is exactly N=2^15, r=8. */
const maxmemFor = (N: number, r: number, p: number) => 128 * N * r * p + 32 * 1024 * 1024

const derive = (password: string, salt: Uint8Array, keyBytes: number, N: number, r: number, p: number) =>
  Effect.callback<Buffer, Error>((resume) => {
    scrypt(password.normalize("NFKC"), salt, keyBytes, { N, r, p, maxmem: maxmemFor(N, r, p) }, (error, key) => {
      resume(error === null ? Effect.succeed(key) : Effect.fail(error))
    })
  })

const B64 = /^[A-Za-z0-9+/]+={0,2}$/
const INT = /^[1-9][0-9]{0,9}$/

interface ParsedHash {
  readonly N: number
  readonly r: number
  readonly p: number
  readonly salt: Buffer
  readonly key: Buffer
}

const parse = (encoded: string): ParsedHash | undefined => {
  const parts = encoded.split("$")
  if (parts.length !== 6 || parts[0] !== "scrypt") return undefined
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string]
  if (!INT.test(n) || !INT.test(r) || !INT.test(p) || !B64.test(salt) || !B64.test(key)) return undefined
  const N = Number(n)
  const R = Number(r)
  const P = Number(p)
  // N must be a power of two greater than one.
  if (N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || R > MAX_R || P > MAX_P) return undefined
  const saltBytes = Buffer.from(salt, "base64")
  const keyBytes = Buffer.from(key, "base64")
  if (saltBytes.length < MIN_SALT_BYTES || keyBytes.length < MIN_KEY_BYTES || keyBytes.length > MAX_KEY_BYTES) {
    return undefined
  }
  return { N, r: R, p: P, salt: saltBytes, key: keyBytes }
}

/**
 * A `PasswordHasher` that hashes with `params`, encoded as `scrypt$N$r$p$saltB64$hashB64`, and
 * verifies any such hash under the parameters it carries (a malformed hash, or one whose
 * parameters are out of bounds, does not match).
 */
export const makePasswordHasherScrypt = (params: ScryptParams): PasswordHasher["Service"] =>
  PasswordHasher.of({
    hash: (password) =>
      Effect.gen(function*() {
        const salt = randomBytes(params.saltBytes)
        const key = yield* derive(password, salt, params.keyBytes, params.N, params.r, params.p)
        return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64")}$${key.toString("base64")}`
      }).pipe(Effect.orDie),
    verify: (password, encoded) => {
      const parsed = parse(encoded)
      if (parsed === undefined) return Effect.succeed(false)
      return derive(password, parsed.salt, parsed.key.length, parsed.N, parsed.r, parsed.p).pipe(
        Effect.map((key) => key.length === parsed.key.length && timingSafeEqual(key, parsed.key)),
        // A hash we cannot evaluate (e.g. parameters the platform refuses) is malformed: not a match.
        Effect.orElseSucceed(() => false)
      )
    }
  })

/**
 * The production hasher: scrypt N=2^15, r=8, p=1, 16-byte salt, 64-byte key, on `node:crypto`
 * (also in Deno and Bun). Hashes are encoded `scrypt$N$r$p$saltB64$hashB64`.
 */
export const PasswordHasherScrypt: Layer.Layer<PasswordHasher> = Layer.sync(
  PasswordHasher,
  () => makePasswordHasherScrypt(SCRYPT_PARAMS)
)

/**
 * FOR TESTS ONLY: the same scrypt encoding with trivially cheap parameters so
 * suites that create many users stay fast. Hashes it writes verify under
 * `PasswordHasherScrypt` too (parameters are read from each hash).
 */
export const PasswordHasherFast: Layer.Layer<PasswordHasher> = Layer.sync(
  PasswordHasher,
  () => makePasswordHasherScrypt(SCRYPT_PARAMS_FAST)
)
