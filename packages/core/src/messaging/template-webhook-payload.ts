/**
 * The review changes of a WhatsApp Business Account callback: `entry[].changes[]` of the fields
 * `message_template_status_update` (`value.event`: APPROVED, REJECTED with its `reason`, PAUSED,
 * DISABLED, ...) and `template_category_update` (`value.new_category`), each naming the template
 * by Meta's id (`value.message_template_id`) in the WhatsApp Business Account `entry[].id`.
 *
 * Decoding is tolerant, as for the `messages` field (whatsapp-webhook-payload.ts): a change not of
 * the expected shape, or an event that does not move a broadcast (ARCHIVED, LOCKED, ...), is
 * counted as ignored without losing the rest of the body.
 */
import { Option, Schema } from "effect"
import { type ObservedReview, reasonOf, reviewStatusOf, templateCategoryOf } from "./template-review.ts"

/** The review fields of a callback; the `messages` reader leaves them to this one. */
export const TEMPLATE_REVIEW_FIELDS: ReadonlySet<string> = new Set(["message_template_status_update", "template_category_update"])

/** One review change: which template of which WhatsApp Business Account, and what Meta says of it now. */
export interface TemplateReviewChange {
  /** The WhatsApp Business Account (`entry[].id`). */
  readonly wabaId: string
  /** Meta's id of the template (`message_template_id`). */
  readonly externalId: string
  /** Its status and reason, or its category. */
  readonly observed: ObservedReview
}

/** The review changes of a body, and how many of its review changes were malformed or of an event not taken. */
export interface TemplateReviewPayload {
  /** The changes, in the body's order. */
  readonly changes: ReadonlyArray<TemplateReviewChange>
  /** Review changes left out. */
  readonly ignored: number
}

const TemplateId = Schema.Union([Schema.Int, Schema.String.check(Schema.isPattern(/^[0-9]{1,32}$/))])

const StatusValue = Schema.Struct({
  event: Schema.String,
  message_template_id: TemplateId,
  reason: Schema.optionalKey(Schema.NullOr(Schema.String)),
  rejection_info: Schema.optionalKey(Schema.Struct({ reason: Schema.optionalKey(Schema.String) })),
  other_info: Schema.optionalKey(Schema.Struct({ description: Schema.optionalKey(Schema.String) }))
})

const CategoryValue = Schema.Struct({ message_template_id: TemplateId, new_category: Schema.String })

const Body = Schema.Struct({
  entry: Schema.Array(Schema.Struct({
    id: Schema.optionalKey(Schema.String),
    changes: Schema.Array(Schema.Struct({ field: Schema.String, value: Schema.Unknown }))
  }))
})

const decodeBody = Schema.decodeUnknownOption(Schema.fromJsonString(Body))
const decodeStatus = Schema.decodeUnknownOption(StatusValue)
const decodeCategory = Schema.decodeUnknownOption(CategoryValue)

/** What one review change says, or none when it is malformed or says nothing Wasl keeps. */
const observedOf = (field: string, value: unknown): Option.Option<{ readonly externalId: string; readonly observed: ObservedReview }> => {
  if (field === "message_template_status_update") {
    return Option.flatMap(decodeStatus(value), (v) => {
      const status = reviewStatusOf(v.event)
      if (status === undefined) return Option.none()
      // Meta's detailed explanation, when it gives one, says more than its reason code.
      const reason = reasonOf(v.rejection_info?.reason) ?? reasonOf(v.reason) ?? reasonOf(v.other_info?.description)
      return Option.some({ externalId: String(v.message_template_id), observed: { status, reason } })
    })
  }
  return Option.flatMap(decodeCategory(value), (v) => {
    const category = templateCategoryOf(v.new_category)
    return category === undefined
      ? Option.none()
      : Option.some({ externalId: String(v.message_template_id), observed: { category } })
  })
}

/** Reads the review changes of a webhook body (the raw text); none when it is not Meta's shape. */
export const parseTemplateReviewPayload = (body: string): Option.Option<TemplateReviewPayload> =>
  Option.map(decodeBody(body), (decoded) => {
    const changes: Array<TemplateReviewChange> = []
    let ignored = 0
    for (const entry of decoded.entry) {
      for (const change of entry.changes) {
        if (!TEMPLATE_REVIEW_FIELDS.has(change.field)) continue
        const read = entry.id === undefined ? Option.none() : observedOf(change.field, change.value)
        if (Option.isNone(read)) ignored++
        else changes.push({ wabaId: entry.id!, ...read.value })
      }
    }
    return { changes, ignored }
  })
