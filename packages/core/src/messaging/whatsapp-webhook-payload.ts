/**
 * The body of a WhatsApp Cloud API webhook, as Meta sends it to the app's callback URL:
 * `entry[].changes[]`, each change of `field` `messages` carrying, for one business number
 * (`value.metadata.phone_number_id`), the senders' profiles (`contacts`), the messages they sent
 * (`messages`), the statuses of the messages the number sent (`statuses`) and errors (`errors`).
 *
 * Decoding is tolerant: unknown keys are ignored everywhere, and a message or status that is not
 * of the expected shape is left out on its own (counted as ignored) without losing the rest of
 * the body. The message of each type keeps its type's object (`text`, `image`, `reaction`, ...)
 * as given, read by inbound-content.ts.
 */
import { Option, Schema } from "effect"
import { TEMPLATE_REVIEW_FIELDS } from "./template-webhook-payload.ts"

const Digits = Schema.String.check(Schema.isPattern(/^[0-9]{6,20}$/))

/** Unix seconds as Meta writes them (a string of digits). */
const UnixSeconds = Schema.String.check(Schema.isPattern(/^[0-9]{1,12}$/))

/** An error as Meta reports it in a status, a message or a change. */
export interface MetaError {
  /** Meta's error code. */
  readonly code: number
  /** Its title. */
  readonly title?: string
  /** Its message. */
  readonly message?: string
  /** Its details. */
  readonly error_data?: { readonly details?: string }
}

const MetaErrorSchema = Schema.Struct({
  code: Schema.Int,
  title: Schema.optionalKey(Schema.String),
  message: Schema.optionalKey(Schema.String),
  error_data: Schema.optionalKey(Schema.Struct({ details: Schema.optionalKey(Schema.String) }))
})
/** A sender's profile: its WhatsApp id and its name. */
const MetaContact = Schema.Struct({
  wa_id: Digits,
  profile: Schema.optionalKey(Schema.Struct({ name: Schema.optionalKey(Schema.String) }))
})

/** A message a contact sent: what every type shares; the type's own object is read as given. */
export interface MetaMessage {
  /** The sender's WhatsApp id. */
  readonly from: string
  /** The message's id (`wamid...`). */
  readonly id: string
  /** When it was sent, in Unix seconds. */
  readonly timestamp: string
  /** Its type (`text`, `image`, ...). */
  readonly type: string
  /** The message it replies to. */
  readonly context?: { readonly id?: string }
  /** Why Meta could not give its content (`unsupported`). */
  readonly errors?: ReadonlyArray<MetaError>
  /** The type's own object (`text`, `image`, `reaction`, ...), as given. */
  readonly [key: string]: unknown
}

const MetaMessageSchema = Schema.StructWithRest(
  Schema.Struct({
    from: Digits,
    id: Schema.String.check(Schema.isMinLength(1)),
    timestamp: UnixSeconds,
    type: Schema.String,
    context: Schema.optionalKey(Schema.Struct({ id: Schema.optionalKey(Schema.String) })),
    errors: Schema.optionalKey(Schema.Array(MetaErrorSchema))
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)
/** A status of a message the business number sent. */
export interface MetaStatus {
  /** The message's id (`wamid...`). */
  readonly id: string
  /** `sent`, `delivered`, `read`, `failed` (others are ignored). */
  readonly status: string
  /** When, in Unix seconds. */
  readonly timestamp: string
  /** The recipient's WhatsApp id. */
  readonly recipient_id?: string
  /** Why it failed. */
  readonly errors?: ReadonlyArray<MetaError>
  /** The tracking string the send carried (`biz_opaque_callback_data`), handed back with each status. */
  readonly biz_opaque_callback_data?: string
}

const MetaStatusSchema = Schema.Struct({
  id: Schema.String.check(Schema.isMinLength(1)),
  status: Schema.String,
  timestamp: UnixSeconds,
  recipient_id: Schema.optionalKey(Schema.String),
  errors: Schema.optionalKey(Schema.Array(MetaErrorSchema)),
  biz_opaque_callback_data: Schema.optionalKey(Schema.String)
})
const MetaValue = Schema.Struct({
  metadata: Schema.Struct({
    phone_number_id: Schema.String,
    display_phone_number: Schema.optionalKey(Schema.String)
  }),
  contacts: Schema.optionalKey(Schema.Array(Schema.Unknown)),
  messages: Schema.optionalKey(Schema.Array(Schema.Unknown)),
  statuses: Schema.optionalKey(Schema.Array(Schema.Unknown)),
  errors: Schema.optionalKey(Schema.Array(Schema.Unknown))
})

const MetaChange = Schema.Struct({ field: Schema.String, value: Schema.Unknown })

const MetaBody = Schema.Struct({
  entry: Schema.Array(Schema.Struct({ changes: Schema.Array(MetaChange) }))
})

/** One change about one business number: what it received and the statuses of what it sent. */
export interface NumberChange {
  /** The business number's id at Meta (`metadata.phone_number_id`). */
  readonly phoneNumberId: string
  /** The senders' profile names, by WhatsApp id. */
  readonly profileNames: ReadonlyMap<string, string>
  /** The messages received, in the body's order. */
  readonly messages: ReadonlyArray<MetaMessage>
  /** The statuses reported, in the body's order. */
  readonly statuses: ReadonlyArray<MetaStatus>
  /** Errors of the change itself (Meta could not deliver something to the number). */
  readonly errors: number
  /** Entries of the change that were not of Meta's shape, left out. */
  readonly malformed: number
}

/** A webhook body read: its `messages` changes, and how many other or malformed changes it had. */
export interface WebhookPayload {
  /** The `messages` changes, in the body's order. */
  readonly changes: ReadonlyArray<NumberChange>
  /** Changes of another field (but the template review fields), or not of Meta's shape. */
  readonly ignored: number
}

const decodeBody = Schema.decodeUnknownOption(Schema.fromJsonString(MetaBody))
const decodeValue = Schema.decodeUnknownOption(MetaValue)

/** The entries of `list` that decode, and how many did not. */
const decodeEach = <A>(
  list: ReadonlyArray<unknown> | undefined,
  decode: (u: unknown) => Option.Option<A>
): { readonly ok: ReadonlyArray<A>; readonly failed: number } => {
  const ok: Array<A> = []
  let failed = 0
  for (const item of list ?? []) {
    const decoded = decode(item)
    if (Option.isSome(decoded)) ok.push(decoded.value)
    else failed++
  }
  return { ok, failed }
}

const decodeContact = Schema.decodeUnknownOption(MetaContact)
const decodeMessage: (u: unknown) => Option.Option<MetaMessage> = Schema.decodeUnknownOption(MetaMessageSchema)
const decodeStatus: (u: unknown) => Option.Option<MetaStatus> = Schema.decodeUnknownOption(MetaStatusSchema)

/** Reads a webhook body (the raw text); None when it is not Meta's shape at all. */
export const parseWebhookPayload = (body: string): Option.Option<WebhookPayload> =>
  Option.map(decodeBody(body), (decoded) => {
    const changes: Array<NumberChange> = []
    let ignored = 0
    for (const entry of decoded.entry) {
      for (const change of entry.changes) {
        if (TEMPLATE_REVIEW_FIELDS.has(change.field)) continue // template-webhook-payload.ts reads them
        const value = change.field === "messages" ? decodeValue(change.value) : Option.none()
        if (Option.isNone(value)) {
          ignored++
          continue
        }
        const v = value.value
        const contacts = decodeEach(v.contacts, decodeContact)
        const messages = decodeEach(v.messages, decodeMessage)
        const statuses = decodeEach(v.statuses, decodeStatus)
        const profileNames = new Map<string, string>()
        for (const contact of contacts.ok) {
          const name = contact.profile?.name?.trim()
          if (name !== undefined && name !== "") profileNames.set(contact.wa_id, name)
        }
        changes.push({
          phoneNumberId: v.metadata.phone_number_id,
          profileNames,
          messages: messages.ok,
          statuses: statuses.ok,
          errors: v.errors?.length ?? 0,
          malformed: contacts.failed + messages.failed + statuses.failed
        })
      }
    }
    return { changes, ignored }
  })
