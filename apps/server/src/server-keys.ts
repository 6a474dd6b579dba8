/**
 * The server's secret key (WASL_SECRET_KEY, 64 hex characters) and the purpose keys derived from
 * it. Without the variable a random key is created once in `<WASL_DATA_DIR>/secret.key` (mode
 * 0600) and reused, so `npm start` needs no configuration; losing that file makes sealed webhook
 * secrets unreadable, so it belongs in backups beside the data.
 *
 * Each use gets its own subkey (HKDF-SHA256, info `wasl/<purpose>`), so no two mechanisms ever
 * share key material: `secret-box` (AES-256-GCM of webhook secrets and access tokens) and
 * `otp-code` (HMAC of managed OTP codes).
 */
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export type KeyPurpose = "secret-box" | "otp-code"

const HEX_KEY = /^[0-9a-fA-F]{64}$/
const KEY_FILE = "secret.key"

export const SecretKeyConfig = Config.all({
  secretKey: Config.option(Config.Redacted("WASL_SECRET_KEY")),
  dataDir: Config.String("WASL_DATA_DIR").pipe(Config.withDefault("./.wasl-data"))
})
export type SecretKeyConfig = Config.Success<typeof SecretKeyConfig>

export class SecretKeyError extends Error {
  override readonly name = "SecretKeyError"
}

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)))

/** The key file's key, created (exclusively, 0600) when absent; a concurrent creator's file wins. */
const keyFromFile = (dataDir: string): Uint8Array => {
  const path = join(dataDir, KEY_FILE)
  mkdirSync(dataDir, { recursive: true })
  try {
    writeFileSync(path, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  }
  const text = readFileSync(path, "utf8").trim()
  if (!HEX_KEY.test(text)) throw new SecretKeyError(`${path} does not hold a 64-hex-character key`)
  return fromHex(text)
}

/** The 32-byte master key of the configuration. */
export const masterKey = (config: SecretKeyConfig): Effect.Effect<Uint8Array, SecretKeyError> =>
  Effect.try({
    try: () => {
      if (Option.isSome(config.secretKey)) {
        const hex = Redacted.value(config.secretKey.value).trim()
        if (!HEX_KEY.test(hex)) throw new SecretKeyError("WASL_SECRET_KEY must be 64 hexadecimal characters")
        return fromHex(hex)
      }
      return keyFromFile(config.dataDir)
    },
    catch: (error) => error instanceof SecretKeyError ? error : new SecretKeyError(String(error))
  })

/** HKDF-SHA256(master, salt "wasl", info `wasl/<purpose>`) → 32 bytes. */
export const deriveKey = (master: Uint8Array, purpose: KeyPurpose): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => {
    const subtle = globalThis.crypto.subtle
    const base = await subtle.importKey("raw", master.slice(), "HKDF", false, ["deriveBits"])
    const bits = await subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode("wasl"), info: new TextEncoder().encode(`wasl/${purpose}`) },
      base,
      256
    )
    return new Uint8Array(bits)
  })

/** The purpose keys of this process. */
export class ServerKeys extends Context.Service<ServerKeys, {
  readonly key: (purpose: KeyPurpose) => Uint8Array
}>()("@wasl/server/ServerKeys") {
  /**
   * From WASL_SECRET_KEY, else the key file under WASL_DATA_DIR. A malformed key stops the
   * process at start with its message (nothing can run without it).
   */
  static readonly layer = Layer.effect(
    ServerKeys,
    Effect.gen(function*() {
      const config = yield* SecretKeyConfig
      const master = yield* Effect.orDie(masterKey(config))
      if (Option.isNone(config.secretKey) && Option.isSome(yield* Config.option(Config.String("DATABASE_URL")))) {
        // Processes on other machines sharing this database would each make their own key file and
        // could not open each other's sealed secrets.
        yield* Effect.logWarning(
          `WASL_SECRET_KEY is not set: using the key file in ${config.dataDir}. Every process sharing ` +
            "this database must use the same key: set WASL_SECRET_KEY (64 hex characters) on each of them."
        )
      }
      const keys = {
        "secret-box": yield* deriveKey(master, "secret-box"),
        "otp-code": yield* deriveKey(master, "otp-code")
      } satisfies Record<KeyPurpose, Uint8Array>
      return ServerKeys.of({ key: (purpose) => keys[purpose] })
    })
  )
}

/** The subkey for one purpose, e.g. `SecretBox.layerAesGcm(yield* serverKey("secret-box"))`. */
export const serverKey = (purpose: KeyPurpose): Effect.Effect<Uint8Array, never, ServerKeys> =>
  ServerKeys.use((keys) => Effect.succeed(keys.key(purpose)))
