/**
 * `drainWhatsAppInbox` on the memory inbox under `TestClock`: processed bodies are deleted; a body
 * whose processing dies is retried after 5 s, 30 s, 2 min and 10 min (never earlier), and dropped
 * after its fifth attempt, with a log line; a poison body never holds up the bodies behind it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, DateTime, Duration, Effect, Logger, References } from "effect"
import { TestClock } from "effect/testing"
import { drainWhatsAppInbox, WHATSAPP_MAX_ATTEMPTS, WhatsAppInbox } from "../../src/WhatsApp.ts"
import { TestPorts } from "../support/layers.ts"

const T0 = DateTime.makeUnsafe("2034-04-04T10:00:00.000Z")
const OPTIONS = { batch: 10, concurrency: 4, lease: Duration.minutes(1) }

const body = (text: string) => JSON.stringify({ object: "whatsapp_business_account", entry: [], text })

/** Processing that dies on a body holding "poison" and records the others. */
const processing = (seen: Array<string>) => (stored: string, _receivedAt: DateTime.Utc) =>
  stored.includes("poison") ? Effect.die(new Error("cannot process")) : Effect.sync(() => void seen.push(JSON.parse(stored).text))

const remaining = Effect.flatMap(WhatsAppInbox, (inbox) =>
  Effect.map(
    Effect.provide(Effect.andThen(TestClock.setTime(DateTime.toEpochMillis(DateTime.makeUnsafe("2200-01-01T00:00:00Z"))), inbox.claim(100, Duration.millis(1))), TestClock.layer()),
    (claimed) => claimed.map((stored) => JSON.parse(stored.body).text as string)
  ))

describe("drainWhatsAppInbox", () => {
  it.effect("processes and deletes; a poison body is retried on its backoff, then dropped with a log line", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const inbox = yield* WhatsAppInbox
      const seen: Array<string> = []
      const logs: Array<string> = []
      yield* inbox.insert(body("first"), T0)
      yield* inbox.insert(body("poison"), T0)
      yield* inbox.insert(body("second"), T0)
      const drain = drainWhatsAppInbox(OPTIONS, processing(seen)).pipe(
        Effect.provide(Logger.layer([Logger.make(({ message, logLevel }) => logs.push(`${logLevel}: ${String(message)}`))])),
        Effect.provideService(References.MinimumLogLevel, "All")
      )

      const first = yield* drain
      assert.deepStrictEqual(first, { claimed: 3, processed: 2, retrying: 1, dropped: 0 })
      assert.deepStrictEqual(seen, ["first", "second"])
      yield* inbox.insert(body("third"), T0)

      // The poison waits its backoff: never claimed a moment early, while the others go on.
      const delays = [5, 30, 120, 600]
      for (const [i, seconds] of delays.entries()) {
        yield* TestClock.adjust(Duration.millis(seconds * 1000 - 1))
        const early = yield* drain
        assert.strictEqual(early.retrying, 0, `attempt ${i + 2} not before its time`)
        yield* TestClock.adjust(Duration.millis(1))
        const due = yield* drain
        const last = i === delays.length - 1
        assert.deepStrictEqual([due.retrying, due.dropped], last ? [0, 1] : [1, 0], `attempt ${i + 2}`)
      }
      assert.deepStrictEqual(seen, ["first", "second", "third"])
      assert.strictEqual(WHATSAPP_MAX_ATTEMPTS, 5)
      assert.deepStrictEqual(yield* remaining, [])
      assert.strictEqual(logs.filter((line) => line.includes("retrying")).length, 4)
      assert.strictEqual(logs.filter((line) => line.includes("dropped")).length, 1)
      assert.isTrue(logs.some((line) => line.startsWith("Error") && line.includes("dropped")))
    }).pipe(Effect.provide(TestPorts())))

  it.effect("an interrupted round leaves its bodies leased, to be claimed again when the lease runs out", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(DateTime.toEpochMillis(T0))
      const inbox = yield* WhatsAppInbox
      yield* inbox.insert(body("slow"), T0)
      const exit = yield* drainWhatsAppInbox(OPTIONS, () => Effect.interrupt).pipe(Effect.exit)
      assert.isTrue(exit._tag === "Failure" && Cause.hasInterruptsOnly(exit.cause))
      assert.deepStrictEqual(yield* inbox.claim(10, Duration.minutes(1)), [])
      yield* TestClock.adjust(Duration.minutes(1))
      const again = yield* inbox.claim(10, Duration.minutes(1))
      assert.deepStrictEqual(again.map((stored) => stored.attempts), [2])
    }).pipe(Effect.provide(TestPorts())))
})

