/**
 * The PostgreSQL deployment layer: processes sharing a database must share the server key, so a
 * layer built without one says so (and uses the key file of its data directory); a setting that
 * cannot be used fails the layer with a message naming it.
 */
import { assert, describe, it } from "@effect/vitest"
import { PublicUrl } from "@wasl/core/Deployment"
import { DEFAULT_OTP_COOLDOWN } from "@wasl/core/Messaging"
import { DEFAULT_RETENTION, RetentionPolicy } from "@wasl/core/Retention"
import { Context, Duration, Effect, Layer, Logger, Redacted } from "effect"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { TestDatabase } from "../../src/db/test-database.ts"
import { otpCooldownOf, retentionPolicyOf } from "../../src/deployment/options.ts"
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

  it.effect("a retention it cannot read fails the layer, naming the setting", () =>
    Effect.gen(function*() {
      const { exit } = yield* build({ secretKey: "ab".repeat(32), retention: { notifications: "a while" } })
      assert.strictEqual(exit._tag, "Failure")
      assert.include(String(exit), "WASL_RETENTION_NOTIFICATIONS: expected a duration")
    }), { timeout: 60_000 })

  it.effect("an SMTP URL it cannot use fails the layer, naming the setting and not quoting the URL", () =>
    Effect.gen(function*() {
      const { exit } = yield* build({ secretKey: "ab".repeat(32), mail: { smtpUrl: Redacted.make("http://wasl:hunter2@mail.example.test") } })
      assert.strictEqual(exit._tag, "Failure")
      assert.include(String(exit), "WASL_SMTP_URL: expected smtp://[user:pass@]host[:port] or smtps://")
      assert.notInclude(String(exit), "hunter2")
    }), { timeout: 60_000 })

  it.effect("an OTP cooldown it cannot read fails the layer, naming the setting", () =>
    Effect.gen(function*() {
      const { exit } = yield* build({ secretKey: "ab".repeat(32), messaging: { otpCooldown: "a minute" } })
      assert.strictEqual(exit._tag, "Failure")
      assert.include(String(exit), "WASL_OTP_COOLDOWN: expected a duration")
    }), { timeout: 60_000 })

  it.effect("a public URL it cannot use fails the layer, naming the setting and not quoting the URL", () =>
    Effect.gen(function*() {
      const { exit } = yield* build({ secretKey: "ab".repeat(32), publicUrl: "https://wasl:hunter2@crm.example.com" })
      assert.strictEqual(exit._tag, "Failure")
      assert.include(String(exit), "WASL_PUBLIC_URL: expected an absolute http(s) URL without query or fragment")
      assert.notInclude(String(exit), "hunter2")
    }), { timeout: 60_000 })

  it.effect("provides the public URL of the options, normalised; none when not given", () =>
    Effect.gen(function*() {
      const publicUrlOf = (publicUrl: string | undefined) =>
        Effect.scoped(Effect.map(
          Layer.build(WaslPostgres.layerClient({ secretKey: "ab".repeat(32), publicUrl }).pipe(Layer.provide(TestDatabase.pglite))),
          (context) => Context.get(context, PublicUrl)
        ))
      assert.strictEqual(yield* publicUrlOf("https://CRM.example.com/wasl/"), "https://crm.example.com/wasl")
      assert.isUndefined(yield* publicUrlOf(undefined))
    }), { timeout: 60_000 })

  it.effect("the retention of the options is the one the layer provides; what is not given keeps its default", () =>
    Effect.gen(function*() {
      const policy = yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(
          WaslPostgres.layerClient({ secretKey: "ab".repeat(32), retention: { deliveries: "7d", verifications: Duration.hours(12) } })
            .pipe(Layer.provide(TestDatabase.pglite))
        )
        return Context.get(context, RetentionPolicy)
      }))
      assert.deepStrictEqual(policy, {
        deliveries: Duration.days(7),
        notifications: DEFAULT_RETENTION.notifications,
        verifications: Duration.hours(12),
        idempotency: DEFAULT_RETENTION.idempotency,
        exports: DEFAULT_RETENTION.exports,
        imports: DEFAULT_RETENTION.imports,
        reservations: DEFAULT_RETENTION.reservations,
        statusHolds: DEFAULT_RETENTION.statusHolds,
        invitations: DEFAULT_RETENTION.invitations,
        trash: DEFAULT_RETENTION.trash,
        history: DEFAULT_RETENTION.history
      })
    }), { timeout: 60_000 })
})

describe("retentionPolicyOf", () => {
  it.effect("reads the duration syntax of the retry delays, and defaults to 30, 90 and 30 days, idempotency keys at expiry, export files 7 days, imports 30 days, OTP reservations 30 days, held statuses 7 days, invitations 30 days, the trash 30 days and property history a year", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* retentionPolicyOf(), DEFAULT_RETENTION)
      assert.deepStrictEqual(DEFAULT_RETENTION, {
        deliveries: Duration.days(30),
        notifications: Duration.days(90),
        verifications: Duration.days(30),
        idempotency: Duration.zero,
        exports: Duration.days(7),
        imports: Duration.days(30),
        reservations: Duration.days(30),
        statusHolds: Duration.days(7),
        invitations: Duration.days(30),
        trash: Duration.days(30),
        history: Duration.days(365)
      })
      const policy = yield* retentionPolicyOf({
        deliveries: "36h",
        notifications: "1.5d",
        verifications: "90m",
        idempotency: "0s",
        exports: "2h",
        imports: "3d",
        reservations: "12h",
        statusHolds: "1d",
        invitations: "14d",
        trash: "2d",
        history: "2d"
      })
      assert.deepStrictEqual(policy, {
        deliveries: Duration.hours(36),
        notifications: Duration.hours(36),
        verifications: Duration.minutes(90),
        idempotency: Duration.zero,
        exports: Duration.hours(2),
        imports: Duration.days(3),
        reservations: Duration.hours(12),
        statusHolds: Duration.days(1),
        invitations: Duration.days(14),
        trash: Duration.days(2),
        history: Duration.days(2)
      })
      const refused = yield* Effect.flip(retentionPolicyOf({ statusHolds: "soon" }))
      assert.include(refused.message, "WASL_RETENTION_STATUS_HOLDS")
    }))
})

describe("otpCooldownOf", () => {
  it.effect("reads either duration form (2s, 90 seconds) or a duration, and defaults to 60 seconds", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* otpCooldownOf(undefined), DEFAULT_OTP_COOLDOWN)
      assert.strictEqual(Duration.toMillis(DEFAULT_OTP_COOLDOWN), 60_000)
      assert.strictEqual(Duration.toMillis(yield* otpCooldownOf("2s")), 2000)
      assert.strictEqual(Duration.toMillis(yield* otpCooldownOf("90 seconds")), 90_000)
      assert.strictEqual(Duration.toMillis(yield* otpCooldownOf(Duration.minutes(2))), 120_000)
    }))
})
