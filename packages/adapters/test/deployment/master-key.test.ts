/** The master key of a deployment: the configured one, else the key file created once in the data directory. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Hex } from "effect/encoding"
import { mkdtempSync, readFileSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { masterKey } from "../../src/deployment/master-key.ts"

const scratch = () => mkdtempSync(join(tmpdir(), "wasl-keys-"))

describe("master key", () => {
  it.effect("uses the configured key when given and refuses anything but 64 hex characters", () =>
    Effect.gen(function*() {
      const key = "ab".repeat(32)
      assert.strictEqual(Hex.encode(yield* masterKey(key, scratch())), key)
      for (const bad of ["ab".repeat(31), "zz".repeat(32), ""]) {
        assert.isTrue(Exit.isFailure(yield* Effect.exit(masterKey(bad, scratch()))))
      }
    }))

  it.effect("creates a random key file once (mode 0600) and reuses it; another directory gets another key", () =>
    Effect.gen(function*() {
      const dataDir = join(scratch(), "nested")
      const first = Hex.encode(yield* masterKey(undefined, dataDir))
      assert.strictEqual(Hex.encode(yield* masterKey(undefined, dataDir)), first)
      assert.strictEqual(readFileSync(join(dataDir, "secret.key"), "utf8").trim(), first)
      assert.strictEqual(statSync(join(dataDir, "secret.key")).mode & 0o777, 0o600)
      assert.notStrictEqual(Hex.encode(yield* masterKey(undefined, scratch())), first)
    }))
})
