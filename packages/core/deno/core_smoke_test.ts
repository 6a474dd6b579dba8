/**
 * Portability smoke test (the core is pure and portable): the core runs under Deno with
 * nothing but `effect` and its own files. Run from the repository root:
 *   npx deno test packages/core/deno/core_smoke_test.ts
 */
import { DateTime, Effect, Exit, Option, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { hotp, parseBearer, TokenHasher } from "../src/Auth.ts"
import { attemptHeaders, deliverySigner } from "../src/Deliveries.ts"
import {
  formatSqlDateTime,
  makeRecordId,
  MongoDate,
  newRecordId,
  parseDateInput,
  randomAlphanumeric,
  RecordId,
  WireTimestamp
} from "../src/Wire.ts"

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message)
}
const assertEquals = <A>(actual: A, expected: A) =>
  assert(JSON.stringify(actual) === JSON.stringify(expected), `expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)

Deno.test("WireTimestamp decodes and encodes with microseconds", () => {
  const decoded = Schema.decodeUnknownSync(WireTimestamp)("2026-11-21T17:24:05.123456Z")
  assertEquals(DateTime.toEpochMillis(decoded), Date.UTC(2026, 10, 21, 17, 24, 5, 123))
  assertEquals(Schema.encodeSync(WireTimestamp)(decoded), "2026-11-21T17:24:05.123000Z")
  assert(Exit.isFailure(Schema.decodeUnknownExit(WireTimestamp)("2026-11-21T17:24:05Z")), "rejects a malformed timestamp")
  assertEquals(formatSqlDateTime(decoded), "2026-11-21 17:24:05")
})

Deno.test("MongoDate and parseDateInput agree", () => {
  const ms = Date.UTC(2026, 0, 2, 3, 4, 5, 6)
  assertEquals(Schema.encodeSync(MongoDate)(DateTime.makeUnsafe(ms)), { $date: { $numberLong: String(ms) } })
  for (const input of [new Date(ms).toISOString(), ms, { $date: { $numberLong: String(ms) } }]) {
    assertEquals(Option.map(parseDateInput(input), DateTime.toEpochMillis).pipe(Option.getOrNull), ms)
  }
})

Deno.test("makeRecordId puts the seconds first", () => {
  const id = makeRecordId(0x6540_1234, new Uint8Array([0, 1, 2, 3, 4, 5, 6, 255]))
  assertEquals(id, "65401234000102030405" + "06ff")
  assert(Schema.is(RecordId)(id), "a RecordId")
})

Deno.test("newRecordId runs on the Web Crypto SecureRandom", () => {
  const ids = Effect.runSync(
    Effect.all([newRecordId, newRecordId]).pipe(Effect.provide(SecureRandom.layerWebCrypto))
  )
  for (const id of ids) assert(/^[0-9a-f]{24}$/.test(id), id)
  assert(ids[0] !== ids[1], "two ids differ")
  const seconds = parseInt(ids[0].slice(0, 8), 16)
  assert(Math.abs(seconds - Date.now() / 1000) < 60, "the prefix is the current time")
})

Deno.test("a token secret from randomAlphanumeric parses as a bearer", () => {
  const secret = Effect.runSync(randomAlphanumeric(40).pipe(Effect.provide(SecureRandom.layerWebCrypto)))
  assertEquals(parseBearer(`7|${secret}`), { id: 7, secret })
})

Deno.test("TokenHasher.layerWebCrypto hashes with SHA-256 and compares", async () => {
  const program = Effect.gen(function*() {
    const hasher = yield* TokenHasher
    const hash = yield* hasher.hash("abc")
    return { hash, good: yield* hasher.matches("abc", hash), bad: yield* hasher.matches("abd", hash) }
  })
  const result = await Effect.runPromise(program.pipe(Effect.provide(TokenHasher.layerWebCrypto)))
  assertEquals(result.hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  assert(result.good && !result.bad, "matches only the right secret")
})

Deno.test("webhook signatures (X-Wasl and Standard Webhooks) reproduce their known answers on effect/crypto", async () => {
  const body = "{\"time\":1732200000.123456,\"event\":\"deal-created\",\"deal\":{\"properties\":" +
    "{\"_id\":\"673f1a2b9c8d7e6f5a4b3c2d\",\"deal_name\":\"مشروع\"},\"contacts\":[]}}"
  const headers = await Effect.runPromise(Effect.flatMap(deliverySigner("0123456789abcdef0123456789abcdef"), (signer) =>
    attemptHeaders({
      event: "deal-created",
      deliveryId: "3f0c1e5e-9a57-4c1a-8d7e-2f1b9d0c4a11",
      timestampSeconds: 1732200000,
      body,
      signer
    })))
  assertEquals(headers["X-Wasl-Signature"], "sha256=94e6541e7d03136ab97f9c72be97bcdab7d1a4e39312fbd6363fa828cc9a553b")
  assertEquals(headers["webhook-signature"], "v1,a62cYKrcbf8rbR2Px305DvBTMUqFVy4xxTu0lrT33bs=")
})

Deno.test("TOTP codes match RFC 6238's SHA-1 vectors on Deno's Web Crypto", async () => {
  const seed = new TextEncoder().encode("12345678901234567890")
  // T = 59 s and 1111111109 s: steps 1 and 37037036.
  assertEquals(await Effect.runPromise(hotp(seed, 1, 8)), "94287082")
  assertEquals(await Effect.runPromise(hotp(seed, 37037036, 8)), "07081804")
})
