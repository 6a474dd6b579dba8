/**
 * The PostgreSQL deployment layer: processes sharing a database must share the server key, so a
 * layer built without one says so (and uses the key file of its data directory); a setting that
 * cannot be used fails the layer with a message naming it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { TestDatabase } from "../../src/db/test-database.ts"
import { WaslPostgres } from "../../src/deployment/wasl-postgres.ts"

/** Builds the layer over a fresh PGlite database; answers what it logged, or how it failed. */
const build = (options: Parameters<typeof WaslPostgres.layerClient>[0]) =>
  Effect.gen(function*() {
    const logs: Array<string> = []
    const capture = Logger.layer([Logger.map(Logger.formatJson, (line) => void logs.push(line))])
    const exit = yield* Effect.exit(Effect.scoped(Layer.build(
      WaslPostgres.layerClient(options).pipe(Layer.provide(TestDatabase.pglite), Layer.provide(capture))
    )))
    return { exit, logs }
  })

describe("WaslPostgres", () => {
  it.effect("without a server key: warns that every process needs the same one, and uses the data directory's key file", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "wasl-pg-layer-"))
      const { exit, logs } = yield* build({ dataDir })
      assert.strictEqual(exit._tag, "Success")
      assert.isTrue(logs.some((line) => line.includes("Every process sharing this database must use the same key")))
      assert.isTrue(existsSync(join(dataDir, "secret.key")))
    }), { timeout: 60_000 })

  it.effect("with a server key: no warning and no key file", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "wasl-pg-layer-"))
      const { exit, logs } = yield* build({ dataDir, secretKey: "ab".repeat(32) })
      assert.strictEqual(exit._tag, "Success")
      assert.isFalse(logs.some((line) => line.includes("same key")))
      assert.isFalse(existsSync(join(dataDir, "secret.key")))
    }), { timeout: 60_000 })

  it.effect("a retry schedule it cannot read fails the layer, naming the setting", () =>
    Effect.gen(function*() {
      const { exit } = yield* build({ secretKey: "ab".repeat(32), webhooks: { retryDelays: "0s,soon" } })
      assert.strictEqual(exit._tag, "Failure")
      assert.include(String(exit), "WASL_RETRY_DELAYS: expected 6 comma-separated durations")
    }), { timeout: 60_000 })
})
