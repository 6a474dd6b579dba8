/**
 * The Standard Webhooks headers of every attempt and challenge: known answers (the reference
 * vector of the Standard Webhooks libraries, and one with a Wasl secret computed with node:crypto
 * apart from this code), and interoperability with the official `standardwebhooks` verifier
 * built from what the README tells a receiver to pass.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { Base64 } from "effect/encoding"
import { Webhook, WebhookVerificationError } from "standardwebhooks"
import { hmacSha256 } from "../../src/Auth.ts"
import { attemptHeaders, deliveryBody, deliverySigner } from "../../src/Deliveries.ts"
import { standardSignature, standardWebhooksSecret } from "../../src/Webhooks.ts"

const utf8 = (text: string) => new TextEncoder().encode(text)

/** A Wasl secret and delivery body of signature-vectors.json. */
const SECRET = "0123456789abcdef0123456789abcdef"
const BODY =
  "{\"time\":1732200000.123456,\"event\":\"deal-created\",\"deal\":{\"properties\":{\"_id\":\"673f1a2b9c8d7e6f5a4b3c2d\",\"deal_name\":\"مشروع\"},\"contacts\":[]}}"
const DELIVERY_ID = "3f0c1e5e-9a57-4c1a-8d7e-2f1b9d0c4a11"

/** Headers of an attempt made now (the verifier refuses a timestamp more than 5 minutes off). */
const attemptNow = (secret: string, body: string) =>
  Effect.flatMap(deliverySigner(secret), (signer) =>
    attemptHeaders({ event: "deal-created", deliveryId: DELIVERY_ID, timestampSeconds: Date.now() / 1000, body, signer }))

describe("Standard Webhooks signatures", () => {
  it.effect("reproduce the Standard Webhooks reference vector (a whsec_ key, base64-decoded)", () =>
    Effect.gen(function*() {
      const key = Result.getOrThrow(Base64.decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
      assert.strictEqual(
        yield* standardSignature(yield* hmacSha256(key), "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", "{\"test\": 2432232314}"),
        "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
      )
    }))

  it.effect("are keyed with the UTF-8 bytes of the Wasl secret, over <id>.<timestamp>.<body> (known answer)", () =>
    Effect.gen(function*() {
      // createHmac("sha256", SECRET).update(`${DELIVERY_ID}.1732200000.${BODY}`).digest("base64")
      const expected = "v1,a62cYKrcbf8rbR2Px305DvBTMUqFVy4xxTu0lrT33bs="
      assert.strictEqual(yield* standardSignature(yield* hmacSha256(utf8(SECRET)), DELIVERY_ID, "1732200000", BODY), expected)
      const signer = yield* deliverySigner(SECRET)
      assert.strictEqual(yield* signer.signStandard(DELIVERY_ID, "1732200000", BODY), expected)
      const headers = yield* attemptHeaders({ event: "deal-created", deliveryId: DELIVERY_ID, timestampSeconds: 1732200000.9, body: BODY, signer })
      assert.deepInclude(headers, {
        "webhook-id": DELIVERY_ID,
        "webhook-timestamp": "1732200000",
        "webhook-signature": expected,
        // The X-Wasl headers stay as they were, the signature-vectors.json answer included.
        "X-Wasl-Delivery": DELIVERY_ID,
        "X-Wasl-Timestamp": "1732200000",
        "X-Wasl-Signature": "sha256=94e6541e7d03136ab97f9c72be97bcdab7d1a4e39312fbd6363fa828cc9a553b"
      })
    }))

  it("the secret for Standard Webhooks verifiers is whsec_ + base64 of the secret's UTF-8 bytes", () => {
    assert.strictEqual(standardWebhooksSecret(SECRET), "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
  })

  it.effect("the official verifier accepts an attempt, with the secret in each form a receiver may pass it", () =>
    Effect.gen(function*() {
      const body = deliveryBody({ name: "deal-created", occurredAtMicros: Date.now() * 1000, payload: { properties: { deal_name: "é 😀" } } })
      const headers = yield* attemptNow(SECRET, body)
      for (
        const webhook of [
          new Webhook(standardWebhooksSecret(SECRET)),
          new Webhook(Base64.encode(SECRET)),
          new Webhook(SECRET, { format: "raw" })
        ]
      ) {
        assert.deepStrictEqual(webhook.verify(body, headers), JSON.parse(body))
      }
    }))

  it.effect("the official verifier refuses a tampered body, another id, another secret or a stale attempt", () =>
    Effect.gen(function*() {
      const body = deliveryBody({ name: "deal-created", occurredAtMicros: Date.now() * 1000, payload: { properties: { amount: 100 } } })
      const headers = yield* attemptNow(SECRET, body)
      const webhook = new Webhook(standardWebhooksSecret(SECRET))
      const refused = (run: () => unknown, message: string) =>
        assert.throws(run, WebhookVerificationError, message)
      refused(() => webhook.verify(body.replace("100", "900"), headers), "No matching signature found")
      refused(() => webhook.verify(`${body} `, headers), "No matching signature found")
      refused(() => webhook.verify(body, { ...headers, "webhook-id": "another-delivery" }), "No matching signature found")
      refused(() => new Webhook(standardWebhooksSecret("another secret of thirty-two ch.")).verify(body, headers), "No matching signature found")
      const old = yield* Effect.flatMap(deliverySigner(SECRET), (signer) =>
        attemptHeaders({ event: "deal-created", deliveryId: DELIVERY_ID, timestampSeconds: Date.now() / 1000 - 600, body, signer }))
      refused(() => webhook.verify(body, old), "Message timestamp too old")
    }))
})
