/**
 * `WaslMemory`: every use-case runs on it with no database or network, and a port can be replaced
 * by merging a layer of one's own after it (the embedding guide's way to plug in an adapter).
 */
import { assert, describe, it } from "@effect/vitest"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { authenticateToken } from "@wasl/core/Auth"
import { createWebhook, WebhookUrlGuard } from "@wasl/core/Webhooks"
import { Effect, Layer } from "effect"
import { WaslMemory } from "../../src/memory/index.ts"
import { PasswordHasherFast } from "../../src/password-hasher-scrypt.ts"

const owner = Effect.gen(function*() {
  const { token } = yield* bootstrapAccount({ account: "Acme", email: "owner@acme.test", password: "pw", plan: "business", otpCredits: 0 })
  return yield* authenticateToken(token)
})

const body = { URL: "https://hooks.acme.test/wasl", events: ["deal-created"] }

describe("WaslMemory", () => {
  it.effect("runs the use-cases in memory", () =>
    Effect.gen(function*() {
      const webhook = yield* createWebhook(yield* owner, body)
      assert.strictEqual(webhook.URL, body.URL)
      assert.strictEqual(webhook.secret.length, 32)
    }).pipe(Effect.provide(WaslMemory.layer({ passwordHasher: PasswordHasherFast }))))

  it.effect("takes a port of one's own merged after it", () =>
    Effect.gen(function*() {
      const refused = yield* Effect.flip(createWebhook(yield* owner, body))
      assert.strictEqual(refused._tag, "ValidationFailed")
      assert.deepStrictEqual((refused as { errors?: unknown }).errors, { URL: ["Not on our list."] })
    }).pipe(Effect.provide(Layer.merge(
      WaslMemory.layer({ passwordHasher: PasswordHasherFast }),
      Layer.succeed(WebhookUrlGuard, WebhookUrlGuard.of({ check: () => Effect.succeed({ _tag: "Refused", message: "Not on our list." }) }))
    ))))
})
