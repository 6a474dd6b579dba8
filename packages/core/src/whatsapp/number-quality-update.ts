/**
 * Meta's `phone_number_quality_update` callback: a business number's messaging limit changed.
 * Its entry's `id` is the WhatsApp Business Account; its value names the number by its display
 * number and carries the new limit (`max_daily_conversations_per_business`, or the older
 * `current_limit`), with the `event` (`UPGRADE`, `DOWNGRADE`, `FLAGGED`, `THROUGHPUT_UPGRADE`, ...).
 */
import { Option, Schema } from "effect"

/** The field of the callback. */
export const PHONE_NUMBER_QUALITY_UPDATE = "phone_number_quality_update"

/** One number's new messaging limit, as the callback tells it. */
export interface NumberQualityUpdate {
  /** The WhatsApp Business Account the number belongs to (`entry[].id`). */
  readonly wabaId: string
  /** The number's display number, digits only. */
  readonly displayDigits: string
  /** What happened (`UPGRADE`, `DOWNGRADE`, `FLAGGED`, `UNFLAGGED`, `ONBOARDING`, `THROUGHPUT_UPGRADE`, ...). */
  readonly event: string
  /** The number's messaging limit tier now (`TIER_1K`, `TIER_UNLIMITED`, ...). */
  readonly tier: string
}

const QualityValue = Schema.Struct({
  display_phone_number: Schema.String,
  event: Schema.String,
  current_limit: Schema.optionalKey(Schema.String),
  max_daily_conversations_per_business: Schema.optionalKey(Schema.String)
})

const Body = Schema.Struct({
  entry: Schema.Array(Schema.Struct({
    id: Schema.String,
    changes: Schema.Array(Schema.Struct({ field: Schema.String, value: Schema.Unknown }))
  }))
})

const decodeBody = Schema.decodeUnknownOption(Schema.fromJsonString(Body))
const decodeValue = Schema.decodeUnknownOption(QualityValue)

/** What a body's quality callbacks say: the updates read, and those of Meta's field not of its shape. */
export interface NumberQualityUpdates {
  /** The updates, in the body's order. */
  readonly updates: ReadonlyArray<NumberQualityUpdate>
  /** `phone_number_quality_update` changes that were not of Meta's shape (or named no limit). */
  readonly malformed: number
}

/** The `phone_number_quality_update` changes of a webhook body (its raw text); none in a body of another shape. */
export const parseNumberQualityUpdates = (body: string): NumberQualityUpdates =>
  Option.match(decodeBody(body), {
    onNone: () => ({ updates: [], malformed: 0 }),
    onSome: (decoded) => {
      const updates: Array<NumberQualityUpdate> = []
      let malformed = 0
      for (const entry of decoded.entry) {
        for (const change of entry.changes) {
          if (change.field !== PHONE_NUMBER_QUALITY_UPDATE) continue
          const value = decodeValue(change.value)
          const tier = Option.flatMap(value, (v) => Option.fromNullishOr(v.max_daily_conversations_per_business ?? v.current_limit))
          const digits = Option.map(value, (v) => v.display_phone_number.replace(/[^0-9]/g, ""))
          if (Option.isNone(value) || Option.isNone(tier) || Option.getOrElse(digits, () => "") === "") {
            malformed++
            continue
          }
          updates.push({ wabaId: entry.id, displayDigits: Option.getOrThrow(digits), event: value.value.event, tier: tier.value })
        }
      }
      return { updates, malformed }
    }
  })
