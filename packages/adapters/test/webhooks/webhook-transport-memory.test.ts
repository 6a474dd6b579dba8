/**
 * The outgoing webhook ports of an all-in-memory deployment:
 * - `WebhookTransportMemory` over `MemoryReceivers`: a registered receiver answers the validation
 *   challenge so that `validateWebhook` validates, and only for the right secret; it accepts a
 *   delivery signed with its secret (200) and refuses any other (401); an unregistered URL is a
 *   refused connection; a scripted answer replaces the receiver, and one that takes longer than
 *   the request's timeout fails as a timeout under `TestClock`; the answer's body is cut to 4 KiB;
 *   every exchange is logged with its time;
 * - `WebhookUrlGuardMemory`: core's syntax rule, and the hosts of its deny list refused.
 */
import { assert, describe, it } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { PERMISSIONS, type Principal, SecretBox } from "@wasl/core/Auth"
import {
  createWebhook,
  signDelivery,
  validateWebhook,
  WebhookTransport,
  WebhookUrlGuard,
  WebhookUrlMessage,
  type WebhookRequest
} from "@wasl/core/Webhooks"
import { DateTime, Duration, Effect, Fiber, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { TestClock } from "effect/testing"
import { MemoryReceivers, RepositoriesMemory, WebhookTransportMemory, WebhookUrlGuardMemory } from "../../src/memory/index.ts"

const SECRET = "abcdefghijklmnopqrstuvwxyz012345"
const URL_A = "https://receiver.example/hook"

const transport = WebhookTransportMemory.pipe(Layer.provideMerge(MemoryReceivers.layer))

const deployment = Layer.mergeAll(transport, WebhookUrlGuardMemory(), SecretBox.layerAesGcm(new Uint8Array(32).fill(3))).pipe(
  Layer.provideMerge(RepositoriesMemory),
  Layer.provideMerge(SecureRandom.layerWebCrypto)
)

/** A delivery to `url` as the worker sends it: signed with `secret` at the clock's time. */
const delivery = (url: string, secret: string) =>
  Effect.gen(function*() {
    const body = "{\"time\":1.5,\"event\":\"deal-created\",\"deal\":{}}"
    const timestamp = String(Math.floor(DateTime.toEpochMillis(yield* DateTime.now) / 1000))
    return {
      url,
      headers: {
        "X-Wasl-Event": "deal-created",
        "X-Wasl-Delivery": "6b1d0f3e-8a54-4f1a-9b3e-2c7d5e4f6a10",
        "X-Wasl-Timestamp": timestamp,
        "X-Wasl-Signature": yield* signDelivery(secret, timestamp, body)
      },
      body,
      timeout: Duration.seconds(30)
    } satisfies WebhookRequest
  })

const post = (request: WebhookRequest) => WebhookTransport.use((t) => t.post(request))

const owner = (accountId: number): Principal => ({
  kind: "token",
  accountId,
  userId: 1,
  permissions: new Set(PERMISSIONS),
  abilities: ["*"],
  tokenId: null,
  sessionId: null
})

describe("WebhookTransportMemory and MemoryReceivers", () => {
  it.effect("validateWebhook validates against a registered receiver that holds the webhook's secret", () =>
    Effect.gen(function*() {
      const account = yield* AccountRepository.use((a) =>
        a.create({ name: "Receivers", plan: "business", webhookLimit: null, otpCredits: 0 })
      )
      const principal = owner(account.id)
      const receivers = yield* MemoryReceivers
      const created = yield* createWebhook(principal, { URL: URL_A, events: ["deal-created"] })

      // Nothing listens yet; then a receiver with another secret: both 403, the webhook unchanged.
      assert.strictEqual((yield* Effect.flip(validateWebhook(principal, created.id)))._tag, "Forbidden")
      yield* receivers.register(URL_A, "another secret of 32 characters.")
      assert.strictEqual((yield* Effect.flip(validateWebhook(principal, created.id)))._tag, "Forbidden")

      yield* receivers.register(URL_A, created.secret)
      const validated = yield* validateWebhook(principal, created.id)
      assert.isTrue(validated.is_validated)
      const [refused, wrongSecret, ok] = yield* receivers.sent
      assert.deepStrictEqual(refused!.response, { _tag: "Failed", error: "Connection refused by receiver.example.", durationMillis: 0 })
      assert.deepStrictEqual(wrongSecret!.response._tag === "Answered" && wrongSecret!.response.status, 401)
      assert.deepStrictEqual(ok!.response._tag === "Answered" && ok!.response.status, 200)
    }).pipe(Effect.provide(deployment)))

  it.effect("a receiver accepts a delivery signed with its secret and answers 401 to any other", () =>
    Effect.gen(function*() {
      const receivers = yield* MemoryReceivers
      yield* receivers.register(URL_A, SECRET)
      const good = yield* post(yield* delivery(URL_A, SECRET))
      assert.deepStrictEqual(good, { _tag: "Answered", status: 200, body: "", durationMillis: 0 })
      const forged = yield* post(yield* delivery(URL_A, "not the receiver's secret, at all"))
      assert.strictEqual(forged._tag === "Answered" && forged.status, 401)
      // A request replayed ten minutes later is stale.
      const replayed = yield* delivery(URL_A, SECRET)
      yield* TestClock.adjust(Duration.minutes(10))
      const stale = yield* post(replayed)
      assert.strictEqual(stale._tag === "Answered" && stale.status, 401)
      // Unregistered: nothing listens there any more.
      yield* receivers.unregister(URL_A)
      assert.strictEqual((yield* post(yield* delivery(URL_A, SECRET)))._tag, "Failed")
    }).pipe(Effect.provide(transport)))

  it.effect("scripted answers replace the receiver; one slower than the timeout fails; the body is cut to 4 KiB", () =>
    Effect.gen(function*() {
      const receivers = yield* MemoryReceivers
      yield* receivers.register(URL_A, SECRET)
      yield* receivers.script(URL_A, { _tag: "Answered", status: 503, body: "é".repeat(3000), durationMillis: 99 })
      const request = yield* delivery(URL_A, SECRET)
      const busy = yield* post(request)
      assert.strictEqual(busy._tag === "Answered" && busy.status, 503)
      // 4096 bytes: 2048 two-byte characters.
      assert.strictEqual(busy._tag === "Answered" && busy.body, "é".repeat(2048))
      assert.strictEqual(busy.durationMillis, 0)

      yield* receivers.script(URL_A, () => Effect.as(Effect.sleep(Duration.seconds(29)), { _tag: "Answered", status: 204, body: "", durationMillis: 0 }))
      const slow = yield* Effect.forkChild(post(request))
      yield* TestClock.adjust(Duration.seconds(29))
      assert.deepStrictEqual(yield* Fiber.join(slow), { _tag: "Answered", status: 204, body: "", durationMillis: 29_000 })

      yield* receivers.script(URL_A, () => Effect.as(Effect.sleep(Duration.seconds(31)), { _tag: "Answered", status: 204, body: "", durationMillis: 0 }))
      const hung = yield* Effect.forkChild(post(request))
      yield* TestClock.adjust(Duration.seconds(30))
      assert.deepStrictEqual(yield* Fiber.join(hung), {
        _tag: "Failed",
        error: "Timed out after 30000 ms.",
        durationMillis: 30_000
      })

      // Unscripted: the receiver answers again.
      yield* receivers.unscript(URL_A)
      assert.strictEqual((yield* post(yield* delivery(URL_A, SECRET)))._tag, "Answered")
      const log = yield* receivers.sent
      assert.deepStrictEqual(log.map((s) => DateTime.toEpochMillis(s.at)), [0, 0, 29_000, 59_000])
      assert.deepStrictEqual(log.map((s) => s.request.url), [URL_A, URL_A, URL_A, URL_A])
    }).pipe(Effect.provide(transport)))

  it.effect("awaitSent waits for the n-th request", () =>
    Effect.gen(function*() {
      const receivers = yield* MemoryReceivers
      const waiting = yield* Effect.forkChild(receivers.awaitSent(2))
      const request = yield* delivery(URL_A, SECRET)
      yield* post(request)
      yield* Effect.yieldNow
      assert.isUndefined(waiting.pollUnsafe())
      yield* post(request)
      assert.lengthOf(yield* Fiber.join(waiting), 2)
    }).pipe(Effect.provide(transport)))
})

describe("WebhookUrlGuardMemory", () => {
  it.effect("allows every URL core's syntax rule allows, but for the denied hosts", () =>
    Effect.gen(function*() {
      const check = (url: string) => WebhookUrlGuard.use((guard) => guard.check(url))
      assert.deepStrictEqual(yield* check("https://hooks.example.com/path?q=1"), { _tag: "Allowed" })
      assert.deepStrictEqual(yield* check("http://hooks.example.com/"), { _tag: "Refused", message: WebhookUrlMessage.https })
      assert.deepStrictEqual(yield* check("https://10.0.0.1/"), { _tag: "Refused", message: WebhookUrlMessage.ipLiteral })
      assert.deepStrictEqual(yield* check("not a url"), { _tag: "Refused", message: WebhookUrlMessage.invalid })
      for (const url of ["https://internal.example/x", "https://INTERNAL.example./y"]) {
        assert.deepStrictEqual(yield* check(url), { _tag: "Refused", message: WebhookUrlMessage.forbidden })
      }
    }).pipe(Effect.provide(WebhookUrlGuardMemory({ deny: ["Internal.Example"] }))))
})
