/**
 * Record ids: 24 lowercase hex characters, 4 bytes of Unix
 * seconds then 8 random bytes, so ids sort roughly by creation time.
 */
import { Clock, Effect, Schema } from "effect"
import { SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"

/** A record id: 24 lowercase hexadecimal characters (a branded string). */
export const RecordId: Schema.brand<Schema.String, "RecordId"> = Schema.String.check(
  Schema.isPattern(/^[0-9a-f]{24}$/)
).pipe(Schema.brand("RecordId"))
/** A record id: 24 lowercase hexadecimal characters. */
export type RecordId = typeof RecordId.Type

/** The id made of `epochSeconds` (4 bytes, big-endian) then the first 8 bytes of `random`. */
export const makeRecordId = (epochSeconds: number, random: Uint8Array): RecordId => {
  const seconds = (Math.floor(epochSeconds) >>> 0).toString(16).padStart(8, "0")
  return RecordId.make(seconds + Hex.encode(random.subarray(0, 8)))
}

/** A fresh record id: the Clock's current second then 8 random bytes. */
export const newRecordId: Effect.Effect<RecordId, never, SecureRandom.SecureRandom> = Effect.gen(function*() {
  const millis = yield* Clock.currentTimeMillis
  const random = yield* SecureRandom.SecureRandom
  return makeRecordId(millis / 1000, yield* random.randomBytes(8))
})
