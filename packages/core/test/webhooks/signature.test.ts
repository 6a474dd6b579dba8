/** Delivery signatures (`sha256=` HMAC over `<timestamp>:<body>`) and the validation challenge's answer, against signature-vectors.json. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { challengeAnswer, constantTimeEqual, newChallenge, signDelivery, verifyDelivery } from "../../src/Webhooks.ts"

/** Copied verbatim from /work/shared/spec/signature-vectors.json (core tests also run under Deno, without node:fs). */
const vectors: {
  deliveries: Array<{ secret: string; timestamp: string; body: string; signature: string }>
  challenges: Array<{ secret: string; challenge: string; answer: { signature: string } }>
} = {
  "deliveries": [
    {
      "secret": "0123456789abcdef0123456789abcdef",
      "timestamp": "1732200000",
      "body": "{\"time\":1732200000.123456,\"event\":\"deal-created\",\"deal\":{\"properties\":{\"_id\":\"673f1a2b9c8d7e6f5a4b3c2d\",\"deal_name\":\"مشروع\"},\"contacts\":[]}}",
      "signature": "sha256=94e6541e7d03136ab97f9c72be97bcdab7d1a4e39312fbd6363fa828cc9a553b"
    },
    {
      "secret": "Zx9YwVuTsRqPoNmLkJiHgFeDcBa87654",
      "timestamp": "1800000000",
      "body": "{\"time\":1800000000.000001,\"event\":\"contact-note-deleted\",\"contact_note\":{\"_id\":\"aaaaaaaaaaaaaaaaaaaaaaaa\",\"body\":\"line\\nbreak \\u00e9\"}}",
      "signature": "sha256=9fef1a941857b8ff9b700bf43a052e9a03796cf54060a1bd70960f2660f4daf0"
    }
  ],
  "challenges": [
    {
      "secret": "0123456789abcdef0123456789abcdef",
      "challenge": "9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f",
      "answer": {
        "signature": "sha256=5d14dbdc5da70019c19e9b48403e01fd4c0fa2a8039107db987412bfed454041"
      }
    }
  ]
}

describe("webhook signatures", () => {
  it.effect("reproduces every delivery vector (UTF-8 bodies, escapes kept byte-exact)", () =>
    Effect.gen(function*() {
      expect(vectors.deliveries.length).toBeGreaterThan(0)
      for (const v of vectors.deliveries) {
        expect(yield* signDelivery(v.secret, v.timestamp, v.body)).toBe(v.signature)
        expect(yield* verifyDelivery(v.secret, v.timestamp, v.body, v.signature)).toBe(true)
        // Any change of body, timestamp or secret breaks it.
        expect(yield* verifyDelivery(v.secret, v.timestamp, v.body + " ", v.signature)).toBe(false)
        expect(yield* verifyDelivery(v.secret, String(Number(v.timestamp) + 1), v.body, v.signature)).toBe(false)
        expect(yield* verifyDelivery(v.secret.slice(1) + "x", v.timestamp, v.body, v.signature)).toBe(false)
      }
    }))

  it.effect("reproduces every challenge vector", () =>
    Effect.gen(function*() {
      for (const v of vectors.challenges) {
        expect(yield* challengeAnswer(v.secret, v.challenge)).toBe(v.answer.signature)
      }
    }))

  it.effect.prop("signatures are sha256= + 64 lowercase hex", [Schema.String, Schema.String], ([secret, body]) =>
    Effect.gen(function*() {
      expect(yield* signDelivery(secret || "k", "1732200000", body)).toMatch(/^sha256=[0-9a-f]{64}$/)
    }))

  it.effect("challenges are 64 lowercase hex characters and fresh", () =>
    Effect.gen(function*() {
      const a = yield* newChallenge
      const b = yield* newChallenge
      expect(a).toMatch(/^[0-9a-f]{64}$/)
      expect(a).not.toBe(b)
    }).pipe(Effect.provide(Layer.mergeAll(SecureRandom.layerWebCrypto))))

  it("constantTimeEqual is string equality", () => {
    expect(constantTimeEqual("sha256=ab", "sha256=ab")).toBe(true)
    expect(constantTimeEqual("sha256=ab", "sha256=ac")).toBe(false)
    expect(constantTimeEqual("sha256=ab", "sha256=abc")).toBe(false)
    expect(constantTimeEqual("", "")).toBe(true)
  })
})
