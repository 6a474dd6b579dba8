/**
 * The master key of a deployment on this machine: the configured one, else a random key created
 * once in `<dataDir>/secret.key` (mode 0600) and reused, so a first start needs no
 * configuration. Losing that file makes sealed webhook secrets unreadable: it belongs in backups
 * beside the data.
 */
import { Effect, Result } from "effect"
import { parseServerKey, ServerKeyError, type ServerKeyInput } from "@wasl/core/Auth"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** The key file's name inside the data directory. */
export const KEY_FILE = "secret.key"

/** The key file's key, created (exclusively, 0600) when absent; a concurrent creator's file wins. */
const keyFromFile = (dataDir: string): Effect.Effect<Uint8Array, ServerKeyError> =>
  Effect.try({
    try: () => {
      const path = join(dataDir, KEY_FILE)
      mkdirSync(dataDir, { recursive: true })
      try {
        writeFileSync(path, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      }
      return { path, text: readFileSync(path, "utf8") }
    },
    catch: (error) => new ServerKeyError({ message: `Cannot use the key file in ${dataDir}: ${String(error)}` })
  }).pipe(
    Effect.flatMap(({ path, text }) =>
      Result.match(parseServerKey(text), {
        onSuccess: Effect.succeed,
        onFailure: () => Effect.fail(new ServerKeyError({ message: `${path} does not hold a 64-hex-character key` }))
      })
    )
  )

/**
 * The 32-byte master key: `secretKey` when given (and well-formed), else the key file in `dataDir`
 * (created on first use). Fails with `ServerKeyError` when the key is malformed or the file cannot
 * be used. A building block of `WaslPostgres` and `WaslEmbedded`, exported for hosts that compose
 * their own layers.
 */
export const masterKey = (
  secretKey: ServerKeyInput | undefined,
  dataDir: string
): Effect.Effect<Uint8Array, ServerKeyError> =>
  secretKey === undefined ? keyFromFile(dataDir) : Effect.fromResult(parseServerKey(secretKey))
