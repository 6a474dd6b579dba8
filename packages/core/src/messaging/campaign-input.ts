/**
 * The body of `POST /api/broadcasts/{id}/campaigns`: `name`, `audience` (`{ contact_ids }` or the
 * contacts list query `{ search?, complex_filters? }` of `GET /api/contacts`), `parameters` (the
 * template's variables, as `send` takes them) and `scheduled_at?`, validated by hand so every key
 * gets Laravel's message and every failure is reported at once.
 */
import { DateTime, Effect, Option, Schema } from "effect"
import type { ValidationFailed } from "../errors.ts"
import { parseListQueryBody } from "../exports/export-request.ts"
import { findBuiltinProperty } from "../records/builtin-properties.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import { RecordId } from "../wire/record-id.ts"
import { parseDateInput } from "../wire/timestamp.ts"
import type { CampaignAudience } from "./campaign.ts"
import { parseParameters } from "./send-input.ts"
import { failIfAny, isMediaHeader, offerCodeButtonIndex, type TemplateDefinition, templateVariableCounts } from "./template.ts"
import { fillParameters, type ParameterSources } from "./template-variables.ts"

/** The most contacts an audience may name by id (a larger one is a list query). */
export const MAX_AUDIENCE_CONTACT_IDS = 10_000
/** The longest campaign name. */
const MAX_NAME = 255

/** The 422 message on `template` for a template a campaign cannot send: one a file or an offer code goes with. */
export const CAMPAIGN_TEMPLATE_UNSUPPORTED =
  "Templates with a media header or an offer code are sent one contact at a time, with send."

/** A validated campaign body. */
export interface CampaignInput {
  /** Its name. */
  readonly name: string
  /** Who it goes to. */
  readonly audience: CampaignAudience
  /** The template's variables, as given. */
  readonly parameters: ParameterSources
  /** When to start; null: at once. */
  readonly scheduledAt: DateTime.Utc | null
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const absent = (u: unknown) => u === undefined || u === null || u === ""
const isRecordId = Schema.is(RecordId)

const audienceOf = (
  raw: unknown,
  custom: ReadonlyArray<PropertyDefinition>,
  errors: Record<string, Array<string>>
): Effect.Effect<CampaignAudience> =>
  Effect.gen(function*() {
    const add = (key: string, message: string) => {
      ;(errors[key] ??= []).push(message)
    }
    if (absent(raw)) {
      add("audience", "The audience field is required.")
      return { _tag: "Contacts", contactIds: [] }
    }
    if (!isObject(raw)) {
      add("audience", "The audience field must be an object.")
      return { _tag: "Contacts", contactIds: [] }
    }
    const ids = raw["contact_ids"]
    if (ids === undefined) {
      const queryErrors: Record<string, ReadonlyArray<string>> = {}
      const query = yield* parseListQueryBody("contact", raw, custom, queryErrors)
      for (const [key, messages] of Object.entries(queryErrors)) errors[`audience.${key}`] = [...messages]
      return { _tag: "Query", query }
    }
    if (raw["search"] !== undefined || raw["complex_filters"] !== undefined) {
      add("audience.contact_ids", "The audience.contact_ids field is prohibited when search or complex_filters is present.")
    }
    if (!Array.isArray(ids) || ids.length === 0) {
      add("audience.contact_ids", "The audience.contact_ids field must be an array of at least 1 contact id.")
      return { _tag: "Contacts", contactIds: [] }
    }
    if (ids.length > MAX_AUDIENCE_CONTACT_IDS) {
      add("audience.contact_ids", `The audience.contact_ids field must not have more than ${MAX_AUDIENCE_CONTACT_IDS} items.`)
    }
    ids.forEach((id: unknown, i) => {
      if (!isRecordId(id)) add(`audience.contact_ids.${i}`, `The selected audience.contact_ids.${i} is invalid.`)
    })
    return { _tag: "Contacts", contactIds: [...new Set(ids.filter(isRecordId))] }
  })

/**
 * Validates a campaign body for `template` against the account's custom contact properties
 * (`custom`), at `now`: `name` (required, at most 255 characters), `audience` (required: a
 * non-empty `contact_ids` of record ids, at most {@link MAX_AUDIENCE_CONTACT_IDS}, or the list
 * query `search` / `complex_filters` with the list's messages under `audience.`), `parameters`
 * (one value per variable, each property one of the contact's), `scheduled_at` (a date, not in
 * the past). A template with a media header or an offer code is refused on `template`.
 */
export const validateCampaignInput = (
  template: TemplateDefinition,
  body: unknown,
  custom: ReadonlyArray<PropertyDefinition>,
  now: DateTime.Utc
): Effect.Effect<CampaignInput, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Record<string, Array<string>> = {}
    const add = (key: string, message: string) => {
      ;(errors[key] ??= []).push(message)
    }
    const input = isObject(body) ? body : {}
    if (isMediaHeader(template.header) || offerCodeButtonIndex(template) !== undefined) {
      add("template", CAMPAIGN_TEMPLATE_UNSUPPORTED)
    }
    const name = input["name"]
    if (absent(name)) add("name", "The name field is required.")
    else if (typeof name !== "string") add("name", "The name field must be a string.")
    else if ([...name].length > MAX_NAME) add("name", `The name field must not be greater than ${MAX_NAME} characters.`)
    const audience = yield* audienceOf(input["audience"], custom, errors)
    const parameters = parseParameters(errors, input["parameters"])
    // Every property named stands in for a value here: which contacts hold one is known only
    // when the audience is resolved (a contact without one is then skipped).
    const named = Object.fromEntries(
      [...parameters.body, ...parameters.header].flatMap((s) => typeof s === "string" ? [] : [[s.property, "·"]])
    )
    const known = (property: string) =>
      findBuiltinProperty("contact", property) !== undefined || custom.some((p) => p.internal_name === property)
    fillParameters(templateVariableCounts(template), parameters, named, known, errors)
    let scheduledAt: DateTime.Utc | null = null
    const rawAt = input["scheduled_at"]
    if (!absent(rawAt)) {
      const parsed = parseDateInput(rawAt)
      if (Option.isNone(parsed)) add("scheduled_at", "The scheduled_at field must be a valid date.")
      else if (DateTime.isLessThan(parsed.value, DateTime.subtract(now, { minutes: 1 }))) {
        add("scheduled_at", "The scheduled_at field must be a date after now.")
      } else scheduledAt = parsed.value
    }
    yield* failIfAny(errors)
    return { name: name as string, audience, parameters, scheduledAt }
  })
