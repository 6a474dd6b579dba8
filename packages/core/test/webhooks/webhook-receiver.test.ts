/**
 * The receiver's side (webhook-receiver.ts): a correct signature within the time tolerance is
 * accepted, anything else is 401; the challenge is answered with the known answer of
 * signature-vectors.json.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import {
  answerWebhookRequest,
  RECEIVER_TOLERANCE_SECONDS,
  signDelivery,
  VALIDATION_EVENT,
  verifyWebhookRequest
} from "../../src/Webhooks.ts"

/** The first delivery vector and the challenge vector of signature-vectors.json. */
const DELIVERY = {
  secret: "0123456789abcdef0123456789abcdef",
  timestamp: "1732200000",
  body:
    "{\"time\":1732200000.123456,\"event\":\"deal-created\",\"deal\":{\"properties\":{\"_id\":\"673f1a2b9c8d7e6f5a4b3c2d\",\"deal_name\":\"مشروع\"},\"contacts\":[]}}",
  signature: "sha256=94e6541e7d03136ab97f9c72be97bcdab7d1a4e39312fbd6363fa828cc9a553b"
}
const CHALLENGE = {
  secret: "0123456789abcdef0123456789abcdef",
  challenge: "9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f",
  answer: "sha256=5d14dbdc5da70019c19e9b48403e01fd4c0fa2a8039107db987412bfed454041"
}

const secondsAfter = (timestamp: string, seconds: number) => DateTime.makeUnsafe((Number(timestamp) + seconds) * 1000)

const delivery = (headers: Record<string, string> = {}) => ({
  headers: {
    "X-Wasl-Event": "deal-created",
    "X-Wasl-Delivery": "5f0c6c1e-7a0b-4a55-9a53-2f3d7b1c9e01",
    "X-Wasl-Timestamp": DELIVERY.timestamp,
    "X-Wasl-Signature": DELIVERY.signature,
    ...headers
  },
  body: DELIVERY.body
})

describe("a webhook receiver", () => {
  it.effect("accepts a delivery signed with its secret, whatever the header names' case", () =>
    Effect.gen(function*() {
      const now = secondsAfter(DELIVERY.timestamp, 2)
      expect(yield* verifyWebhookRequest(DELIVERY.secret, delivery(), now)).toEqual({
        _tag: "Delivery",
        event: "deal-created",
        deliveryId: "5f0c6c1e-7a0b-4a55-9a53-2f3d7b1c9e01"
      })
      const lower = Object.fromEntries(Object.entries(delivery().headers).map(([k, v]) => [k.toLowerCase(), v]))
      expect((yield* verifyWebhookRequest(DELIVERY.secret, { headers: lower, body: DELIVERY.body }, now))._tag).toBe("Delivery")
      expect(yield* answerWebhookRequest(DELIVERY.secret, delivery(), now)).toEqual({ status: 200, body: "" })
    }))

  it.effect("answers 401 to a wrong signature, another secret, a changed body or missing headers", () =>
    Effect.gen(function*() {
      const now = secondsAfter(DELIVERY.timestamp, 0)
      const refused = [
        yield* answerWebhookRequest(DELIVERY.secret, delivery({ "X-Wasl-Signature": DELIVERY.signature.replace("9", "8") }), now),
        yield* answerWebhookRequest("another secret of thirty-two ch.", delivery(), now),
        yield* answerWebhookRequest(DELIVERY.secret, { ...delivery(), body: `${DELIVERY.body} ` }, now),
        yield* answerWebhookRequest(DELIVERY.secret, { headers: {}, body: DELIVERY.body }, now),
        yield* answerWebhookRequest(DELIVERY.secret, delivery({ "X-Wasl-Timestamp": "17322e5" }), now)
      ]
      for (const answer of refused) expect(answer.status).toBe(401)
    }))

  it.effect(`refuses a timestamp more than ${RECEIVER_TOLERANCE_SECONDS} s from its clock, either way`, () =>
    Effect.gen(function*() {
      const at = (seconds: number) =>
        Effect.map(verifyWebhookRequest(DELIVERY.secret, delivery(), secondsAfter(DELIVERY.timestamp, seconds)), (v) => v._tag)
      expect(yield* at(RECEIVER_TOLERANCE_SECONDS)).toBe("Delivery")
      expect(yield* at(-RECEIVER_TOLERANCE_SECONDS)).toBe("Delivery")
      expect(yield* at(RECEIVER_TOLERANCE_SECONDS + 1)).toBe("Rejected")
      expect(yield* at(-RECEIVER_TOLERANCE_SECONDS - 1)).toBe("Rejected")
    }))

  it.effect("answers a signed validation challenge with the known answer, and refuses an unsigned one", () =>
    Effect.gen(function*() {
      const timestamp = "1800000000"
      const body = JSON.stringify({ time: 1800000000.5, event: VALIDATION_EVENT, challenge: CHALLENGE.challenge })
      const request = {
        headers: {
          "X-Wasl-Event": VALIDATION_EVENT,
          "X-Wasl-Delivery": "0b6f2b52-2d43-4a8e-8f3c-7a1d9e6b5c40",
          "X-Wasl-Timestamp": timestamp,
          "X-Wasl-Signature": yield* signDelivery(CHALLENGE.secret, timestamp, body)
        },
        body
      }
      const now = secondsAfter(timestamp, 1)
      const answer = yield* answerWebhookRequest(CHALLENGE.secret, request, now)
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toEqual({ signature: CHALLENGE.answer })

      const unsigned = { ...request, headers: { ...request.headers, "X-Wasl-Signature": "sha256=00" } }
      expect((yield* answerWebhookRequest(CHALLENGE.secret, unsigned, now)).status).toBe(401)
      // Signed, but without a challenge to answer.
      const empty = JSON.stringify({ event: VALIDATION_EVENT })
      const noChallenge = {
        headers: { ...request.headers, "X-Wasl-Signature": yield* signDelivery(CHALLENGE.secret, timestamp, empty) },
        body: empty
      }
      expect(yield* verifyWebhookRequest(CHALLENGE.secret, noChallenge, now)).toEqual({
        _tag: "Rejected",
        reason: "The challenge is missing."
      })
    }))
})
