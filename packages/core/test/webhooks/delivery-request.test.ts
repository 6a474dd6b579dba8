/**
 * The delivery request: body keys and object keys for every one
 * of the 72 events, the body serialised once with the record's key order, `time` with exactly
 * microseconds, and per-attempt headers whose signature verifies over the exact body.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SecureRandom } from "effect/crypto"
import fc from "fast-check"
import { SecretBox } from "../../src/Auth.ts"
import {
  attemptHeaders,
  deliveryBody,
  deliveryEventTimeMillis,
  deliverySigner,
  makeSignerCache,
  formatEventTime
} from "../../src/Deliveries.ts"
import { EVENT_NAMES, type EventName } from "../../src/Records.ts"
import { signDelivery, verifyDelivery } from "../../src/Webhooks.ts"

const expectedKey = (name: string): string => {
  const [kind, ...rest] = name.split("-")
  const suffix = rest.slice(0, -1).join("-")
  return suffix === "" ? kind! : `${kind}_${suffix.replace(/-/g, "_")}`
}

describe("delivery body", () => {
  it("gives back the event's time, to the millisecond, from any body it wrote", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 4_102_444_800_000_000 }),
      fc.constantFrom(...EVENT_NAMES),
      fc.dictionary(fc.string(), fc.jsonValue()),
      (micros, name, payload) => {
        const millis = deliveryEventTimeMillis(deliveryBody({ name, occurredAtMicros: micros, payload }))
        assert.isDefined(millis)
        assert.isBelow(Math.abs(millis! - micros / 1000), 0.001)
      }
    ))
    assert.isUndefined(deliveryEventTimeMillis(`{"event":"contact-created","time":1.000000}`))
  })

  it("carries time, event and the object key of each of the 72 events, in that order", () => {
    assert.strictEqual(EVENT_NAMES.length, 72)
    for (const name of EVENT_NAMES) {
      const body = deliveryBody({ name: name as EventName, occurredAtMicros: 1_732_200_000_123_456, payload: { _id: "x" } })
      const parsed = JSON.parse(body)
      assert.deepStrictEqual(Object.keys(parsed), ["time", "event", expectedKey(name)], name)
      assert.strictEqual(parsed.event, name)
      assert.deepStrictEqual(parsed[expectedKey(name)], { _id: "x" })
    }
    const key = (name: string) => Object.keys(JSON.parse(deliveryBody({ name: name as EventName, occurredAtMicros: 0, payload: {} })))[2]
    assert.strictEqual(key("contact-created"), "contact")
    assert.strictEqual(key("deal-note-deleted"), "deal_note")
    assert.strictEqual(key("ticket-property-updated"), "ticket_property")
    assert.strictEqual(key("contact-property-group-created"), "contact_property_group")
  })

  it("writes time as seconds with exactly six decimals, no microsecond lost", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000_000 }), (micros) => {
      const text = formatEventTime(micros)
      assert.match(text, /^\d+\.\d{6}$/)
      const [s, f] = text.split(".")
      assert.strictEqual(Number(s) * 1_000_000 + Number(f), micros)
      const body = deliveryBody({ name: "deal-created", occurredAtMicros: micros, payload: {} })
      assert.isTrue(body.startsWith(`{"time":${text},`))
    }))
    assert.strictEqual(formatEventTime(1_732_200_000_000_120), "1732200000.000120")
  })

  it("keeps the record's key order and characters exactly (the body is the signed bytes)", () => {
    const payload = { properties: { z: 1, a: "ü 😀 \"q\"", m: null }, channels: [] }
    const body = deliveryBody({ name: "contact-updated", occurredAtMicros: 5, payload })
    assert.strictEqual(body, `{"time":0.000005,"event":"contact-updated","contact":${JSON.stringify(payload)}}`)
  })

  it("refuses a payload that is not a JSON object", () => {
    assert.throws(() => deliveryBody({ name: "deal-created", occurredAtMicros: 0, payload: [1] }))
    assert.throws(() => deliveryBody({ name: "deal-created", occurredAtMicros: 0, payload: undefined }))
  })
})

describe("attempt headers", () => {
  it.effect("X-Wasl-Event, X-Wasl-Delivery, X-Wasl-Timestamp and a signature that verifies over the exact body", () =>
    Effect.gen(function*() {
      const body = deliveryBody({ name: "deal-created", occurredAtMicros: 1_732_200_000_000_000, payload: { a: "é" } })
      const headers = yield* attemptHeaders({
        event: "deal-created",
        deliveryId: "3f0c1e5e-9a57-4c1a-8d7e-2f1b9d0c4a11",
        timestampSeconds: 1_732_200_007.9,
        body,
        signer: yield* deliverySigner("s".repeat(32))
      })
      assert.strictEqual(headers["X-Wasl-Event"], "deal-created")
      assert.strictEqual(headers["X-Wasl-Delivery"], "3f0c1e5e-9a57-4c1a-8d7e-2f1b9d0c4a11")
      assert.strictEqual(headers["X-Wasl-Timestamp"], "1732200007")
      assert.strictEqual(headers["Content-Type"], "application/json")
      assert.match(headers["X-Wasl-Signature"]!, /^sha256=[0-9a-f]{64}$/)
      assert.strictEqual(headers["X-Wasl-Signature"], yield* signDelivery("s".repeat(32), "1732200007", body))
      assert.isTrue(yield* verifyDelivery("s".repeat(32), "1732200007", body, headers["X-Wasl-Signature"]!))
      // One byte changed in the body, or another timestamp, and it no longer verifies.
      assert.isFalse(yield* verifyDelivery("s".repeat(32), "1732200007", body.replace("é", "e"), headers["X-Wasl-Signature"]!))
      assert.isFalse(yield* verifyDelivery("s".repeat(32), "1732200008", body, headers["X-Wasl-Signature"]!))
    }))

  it.effect("a fresh timestamp per attempt changes the signature, never the delivery id or body", () =>
    Effect.gen(function*() {
      const signer = yield* deliverySigner("k".repeat(32))
      const input = { event: "deal-created", deliveryId: "3f0c1e5e-9a57-4c1a-8d7e-2f1b9d0c4a11", body: "{}", signer }
      const first = yield* attemptHeaders({ ...input, timestampSeconds: 100 })
      const second = yield* attemptHeaders({ ...input, timestampSeconds: 400 })
      assert.strictEqual(first["X-Wasl-Delivery"], second["X-Wasl-Delivery"])
      assert.notStrictEqual(first["X-Wasl-Timestamp"], second["X-Wasl-Timestamp"])
      assert.notStrictEqual(first["X-Wasl-Signature"], second["X-Wasl-Signature"])
    }))
})

describe("delivery signer", () => {
  it.effect("agrees with signDelivery for any secret, timestamp and body", () =>
    Effect.promise(() =>
      fc.assert(fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 4_000_000_000 }).map(String),
        fc.string({ unit: "grapheme", maxLength: 200 }),
        async (secret, timestamp, body) => {
          const signer = await Effect.runPromise(deliverySigner(secret))
          const a = await Effect.runPromise(signer.sign(timestamp, body))
          const b = await Effect.runPromise(signDelivery(secret, timestamp, body))
          assert.strictEqual(a, b)
        }
      ), { numRuns: 100 })
    ))

  it.effect("the signer cache opens each sealed secret once, and remembers one that does not open", () =>
    Effect.gen(function*() {
      const box = yield* SecretBox
      const sealed = yield* box.seal("c".repeat(32))
      let opened = 0
      const counting = Layer.succeed(SecretBox, SecretBox.of({
        seal: box.seal,
        open: (text) => Effect.map(box.open(text), (o) => (opened++, o))
      }))
      const lookup = yield* Effect.provide(makeSignerCache(2), counting)
      const first = yield* lookup(sealed)
      const second = yield* lookup(sealed)
      assert.strictEqual(opened, 1)
      assert.strictEqual(Option.getOrThrow(first), Option.getOrThrow(second))
      assert.strictEqual(
        yield* Option.getOrThrow(first).sign("1", "{}"),
        yield* signDelivery("c".repeat(32), "1", "{}")
      )
      assert.isTrue(Option.isNone(yield* lookup("v1.not.sealed")))
      assert.isTrue(Option.isNone(yield* lookup("v1.not.sealed")))
      assert.strictEqual(opened, 2)
      // Capacity 2: a third secret evicts the least recently used.
      yield* lookup(yield* box.seal("d".repeat(32)))
      yield* lookup(sealed)
      assert.strictEqual(opened, 4)
    }).pipe(Effect.provide(SecretBox.layerAesGcm(new Uint8Array(32).fill(3)).pipe(Layer.provide(SecureRandom.layerWebCrypto)))))
})
