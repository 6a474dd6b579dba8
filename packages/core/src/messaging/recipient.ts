/**
 * Who a message goes to: a contact of the account and the messaging number to reach it by.
 *
 * - By `contact_id`: the account's contact, reached at its whatsapp_number, else its phone.
 * - By `to` (a send to a number, or a message received from one): the account's oldest contact
 *   whose whatsapp_number or phone is that number (with or without the `+`), else a new contact
 *   with that whatsapp_number, original_source `whatsapp` and original_source_drill_down_1 `api`
 *   (a send) or `incoming` (a received message, with the sender's profile name as firstname),
 *   stored with its `contact-created` event in the caller's transaction.
 */
import { Effect, Option, Schema } from "effect"
import type { SecureRandom } from "effect/crypto"
import { invalid, type ValidationFailed } from "../errors.ts"
import { Outbox } from "../events/outbox.ts"
import type { ComplexFilters, Condition } from "../records/complex-filter.ts"
import { lockMatches } from "../records/match-lock.ts"
import type { PropertyHistoryRepository } from "../records/property-history-repository.ts"
import { recordHistory } from "../records/property-history.ts"
import { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository, type RecordWithDerived } from "../records/record-repository.ts"
import { recordJson } from "../records/record-shape.ts"
import { validateRecordCreate } from "../records/value-validation.ts"
import { withCreator } from "../records/created-by.ts"
import { newRecordId, RecordId } from "../wire/record-id.ts"

/** Who a message goes to. */
export interface Recipient {
  /** The contact's record id. */
  readonly contactId: string
  /** The number as the contact holds it (or as given in `to`), e.g. `+966500000001`. */
  readonly number: string
  /** Digits only: what the channel is addressed with and the cooldown is keyed on. */
  readonly digits: string
}

/** `to` of send-otp: 6 to 20 digits with an optional leading `+`. */
export const RECIPIENT_NUMBER: RegExp = /^\+?[0-9]{6,20}$/

/** The 422 message on `contact_id` when the contact has neither a whatsapp_number nor a phone. */
export const CONTACT_HAS_NO_NUMBER = "The selected contact has no whatsapp_number or phone."

/** The digits of a number: what the channel is addressed with and the cooldown is keyed on. */
export const digitsOf = (number: string): string => number.replace(/[^0-9]/g, "")

const isRecordId = Schema.is(RecordId)

/** The number a contact is reached at: its whatsapp_number, else its phone; undefined when it has neither. */
export const contactNumberOf = (found: RecordWithDerived): string | undefined => {
  for (const key of ["whatsapp_number", "phone"] as const) {
    const value = found.record.values[key]
    if (typeof value === "string" && digitsOf(value).length > 0) return value
  }
  return undefined
}

/** The account's contact `contactId` and its number; 422 on `contact_id` when there is none. */
export const recipientOfContact = (
  accountId: number,
  contactId: string
): Effect.Effect<Recipient, ValidationFailed, RecordRepository | PropertyRepository> =>
  Effect.gen(function*() {
    if (!isRecordId(contactId)) return yield* invalid("contact_id", "The selected contact_id is invalid.")
    const custom = yield* PropertyRepository.use((repo) => repo.list(accountId, "contact"))
    const found = yield* RecordRepository.use((repo) => repo.get({ accountId, kind: "contact", id: contactId, custom }))
    if (Option.isNone(found)) return yield* invalid("contact_id", "The selected contact_id is invalid.")
    const number = contactNumberOf(found.value)
    if (number === undefined) return yield* invalid("contact_id", CONTACT_HAS_NO_NUMBER)
    return { contactId, number, digits: digitsOf(number) }
  })

const eq = (property: string, value: string): Condition => ({
  _tag: "Condition",
  property,
  type: "phone",
  operator: "eq",
  value
})

/**
 * How a contact made for a number comes to be: a send to it by the user `userId` (its
 * `created_by`), or a message received from it (made by no user).
 */
export type NewContactOrigin =
  | { readonly _tag: "Send"; readonly userId: number }
  | { readonly _tag: "Received"; readonly profileName: string | undefined }

/** The longest firstname taken from a WhatsApp profile name. */
const PROFILE_NAME_MAX = 255

/**
 * The account's contact reached at `to`, created (with its event) when there is none. Run it in a
 * transaction. Only the making of a contact takes the account's contact match lock, held until the
 * transaction ends: a contact upsert or an import matching on the number then never creates what
 * this just did, nor this what they did (it looks again once it holds the lock). Finding one takes
 * no lock, so messages of known contacts never wait for each other's transactions.
 */
export const recipientOfNumber = (
  accountId: number,
  to: string,
  origin: NewContactOrigin
): Effect.Effect<
  Recipient,
  never,
  RecordRepository | PropertyHistoryRepository | PropertyRepository | Outbox | SecureRandom.SecureRandom
> =>
  Effect.gen(function*() {
    const digits = digitsOf(to)
    const custom = yield* PropertyRepository.use((repo) => repo.list(accountId, "contact"))
    const records = yield* RecordRepository
    const filters: ComplexFilters = [{
      _tag: "Or",
      conditions: [eq("whatsapp_number", `+${digits}`), eq("whatsapp_number", digits), eq("phone", `+${digits}`), eq("phone", digits)]
    }]
    const find = Effect.map(
      records.list({
        accountId,
        kind: "contact",
        custom,
        filters,
        search: undefined,
        order: "created_at",
        direction: "asc",
        page: 1,
        perPage: 1
      }),
      (page) => page.rows[0]
    )
    const known = (yield* find) ?? (yield* Effect.andThen(lockMatches(accountId, "contact"), find))
    if (known !== undefined) return { contactId: known.record._id, number: contactNumberOf(known) ?? to, digits }
    const firstname = origin._tag === "Received" ? [...(origin.profileName ?? "")].slice(0, PROFILE_NAME_MAX).join("") : ""
    const values = yield* validateRecordCreate("contact", {
      whatsapp_number: to,
      original_source: "whatsapp",
      original_source_drill_down_1: origin._tag === "Send" ? "api" : "incoming",
      ...(firstname.trim() === "" ? {} : { firstname })
    }, custom).pipe(Effect.orDie) // a number RECIPIENT_NUMBER accepted and a short text: always valid
    const id = yield* newRecordId
    const createdBy = origin._tag === "Send" ? origin.userId : null
    const stored = yield* records.insert({ accountId, kind: "contact", id, custom, values: withCreator("contact", values, createdBy) })
    const json = recordJson("contact", stored.record, custom, stored.derived)
    yield* Outbox.use((outbox) => outbox.append([{ accountId, name: "contact-created", payload: json }]))
    // A send's contact is made by its sender's call, a received message's by Wasl.
    const actor = origin._tag === "Send" ? { userId: origin.userId, source: "api" as const } : { userId: null, source: "system" as const }
    yield* recordHistory({ ...actor, accountId, kind: "contact", recordId: id, before: {}, after: stored.record.values })
    return { contactId: id, number: to, digits }
  })
