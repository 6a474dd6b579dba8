/** WASL_SECRET_KEY and the key file; purpose keys derived apart (server-keys.ts). */
import { Effect, Exit, Option, Redacted } from "effect"
import { mkdtempSync, readFileSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { deriveKey, masterKey } from "../src/server-keys.ts"

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

describe("server keys", () => {
  it("uses WASL_SECRET_KEY when set and refuses anything but 64 hex characters", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "wasl-keys-"))
    const key = "ab".repeat(32)
    const master = await Effect.runPromise(masterKey({ secretKey: Option.some(Redacted.make(key)), dataDir }))
    expect(hex(master)).toBe(key)
    for (const bad of ["ab".repeat(31), "zz".repeat(32), ""]) {
      const exit = await Effect.runPromiseExit(masterKey({ secretKey: Option.some(Redacted.make(bad)), dataDir }))
      expect(Exit.isFailure(exit)).toBe(true)
    }
  })

  it("creates a random key file once (mode 0600) and reuses it", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "wasl-keys-")), "nested")
    const first = await Effect.runPromise(masterKey({ secretKey: Option.none(), dataDir }))
    const second = await Effect.runPromise(masterKey({ secretKey: Option.none(), dataDir }))
    expect(hex(first)).toBe(hex(second))
    expect(readFileSync(join(dataDir, "secret.key"), "utf8").trim()).toBe(hex(first))
    expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600)
    const other = await Effect.runPromise(masterKey({ secretKey: Option.none(), dataDir: mkdtempSync(join(tmpdir(), "wasl-keys-")) }))
    expect(hex(other)).not.toBe(hex(first))
  })

  it("derives a distinct, stable 32-byte key per purpose (HKDF-SHA256)", async () => {
    const master = new Uint8Array(32).fill(1)
    const box = await Effect.runPromise(deriveKey(master, "secret-box"))
    const otp = await Effect.runPromise(deriveKey(master, "otp-code"))
    expect(box).toHaveLength(32)
    expect(hex(box)).not.toBe(hex(otp))
    expect(hex(box)).not.toBe(hex(master))
    expect(hex(await Effect.runPromise(deriveKey(master, "secret-box")))).toBe(hex(box))
  })
})
