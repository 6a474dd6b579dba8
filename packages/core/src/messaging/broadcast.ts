/**
 * Broadcasts: one template registered in the account, sent from one sending number. `{id}` of
 * `/api/broadcasts/{id}/send` and `/send-otp` is the broadcast's id. On the sandbox provider a new
 * broadcast is APPROVED at once; on whatsapp_cloud its template is submitted to Meta's review and
 * the broadcast takes Meta's answer (usually PENDING, with Meta's template id as `external_id`),
 * then follows Meta's review (template-review.ts). Only an APPROVED broadcast is sent.
 */
import { type DateTime, Effect, Schema } from "effect"
import type { ValidationFailed } from "../errors.ts"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { type Platform, PlatformJson, platformJson } from "./platform.ts"
import { failIfAny, parseTemplate, type TemplateDefinition, templateVariableCounts } from "./template.ts"
import type { TemplateExamples } from "./template-variables.ts"

/**
 * The review statuses of a broadcast's template, as Meta names them: PENDING (in review),
 * APPROVED (sendable), REJECTED (with its reason), FLAGGED (low quality, at risk of being
 * disabled), PAUSED, DISABLED and PENDING_DELETION.
 */
export const BROADCAST_STATUSES = [
  "APPROVED",
  "PENDING",
  "REJECTED",
  "PAUSED",
  "DISABLED",
  "PENDING_DELETION",
  "FLAGGED"
] as const
/** A broadcast's review status (only an APPROVED broadcast is sent). */
export type BroadcastStatus = typeof BROADCAST_STATUSES[number]

/** The `template_type` of a broadcast: the kind of record its template is. */
export const TEMPLATE_TYPE = "whatsapp_template"
/** The `platform_type` of a broadcast and a message: the kind of record its platform is. */
export const PLATFORM_TYPE = "whatsapp_platform"

/** A broadcast's template as stored. */
export interface Template extends TemplateDefinition {
  /** The template's id. */
  readonly id: number
  /** Its id at the provider, when known. */
  readonly external_id: string | null
  /** When it was created. */
  readonly created_at: DateTime.Utc
  /** When it was last changed. */
  readonly updated_at: DateTime.Utc
}

/** A broadcast as stored: its template and the platform it sends from. */
export interface Broadcast {
  /** The broadcast's id (the `{id}` of its send endpoints). */
  readonly id: number
  /** The account it belongs to. */
  readonly account_id: number
  /** Its name. */
  readonly name: string
  /** The template's language code (`en`, `en_US`, `ar`, ...). */
  readonly language: string
  /** Its review status. */
  readonly status: BroadcastStatus
  /** Why it was rejected; null otherwise. */
  readonly reason: string | null
  /** The template it sends. */
  readonly template: Template
  /** The sending number. */
  readonly platform: Platform
  /** When it was created. */
  readonly created_at: DateTime.Utc
  /** When it was last changed. */
  readonly updated_at: DateTime.Utc
}

/** A validated broadcast create body. */
export interface BroadcastInput {
  /** Its name. */
  readonly name: string
  /** The template's language code. */
  readonly language: string
  /** The sending number's id (checked to be the account's by the use-case). */
  readonly platform_id: number
  /** The template. */
  readonly template: TemplateDefinition
  /** Sample values of its variables, for the review (`template.examples`, else made up), and a media header's sample. */
  readonly examples: TemplateExamples
}

/** Where a new broadcast's review stands: Meta's answer to the submission, or APPROVED on the sandbox. */
export interface BroadcastReview {
  /** Its review status. */
  readonly status: BroadcastStatus
  /** Why it was rejected; null otherwise. */
  readonly reason: string | null
  /** The template's id at the provider (Meta's); null on the sandbox. */
  readonly external_id: string | null
}

const NullableString = Schema.NullOr(Schema.String)
const Part = (type: string) => Schema.Struct({ text: NullableString, type: Schema.Literal(type) })

/** A template as the broadcast endpoints show it: body, header and footer as components. */
export const TemplateJson: Schema.Struct<{
  readonly id: Schema.Int
  readonly name: Schema.String
  readonly category: Schema.String
  readonly external_id: Schema.NullOr<Schema.String>
  readonly header: Schema.NullOr<
    Schema.Struct<{
      readonly format: Schema.String
      readonly text: Schema.NullOr<Schema.String>
      readonly type: Schema.Literal<"HEADER">
    }>
  >
  readonly body: Schema.Struct<{ readonly text: Schema.NullOr<Schema.String>; readonly type: Schema.Literal<string> }>
  readonly footer: Schema.NullOr<
    Schema.Struct<{ readonly text: Schema.NullOr<Schema.String>; readonly type: Schema.Literal<string> }>
  >
  readonly buttons: Schema.NullOr<Schema.$Array<Schema.$Record<Schema.String, Schema.String>>>
  readonly code_expiration_minutes: Schema.NullOr<Schema.Int>
  readonly created_at: Schema.String
  readonly updated_at: Schema.String
}> = Schema.Struct({
  id: Schema.Int,
  name: Schema.String,
  category: Schema.String,
  external_id: NullableString,
  header: Schema.NullOr(Schema.Struct({ format: Schema.String, text: NullableString, type: Schema.Literal("HEADER") })),
  body: Part("BODY"),
  footer: Schema.NullOr(Part("FOOTER")),
  buttons: Schema.NullOr(Schema.Array(Schema.Record(Schema.String, Schema.String))),
  code_expiration_minutes: Schema.NullOr(Schema.Int),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "Template" })
/** A template in its wire shape (see the `TemplateJson` schema). */
export type TemplateJson = typeof TemplateJson.Type

/** A broadcast as the broadcast endpoints return it, its template and platform embedded. */
export const BroadcastJson: Schema.Struct<{
  readonly id: Schema.Int
  readonly name: Schema.String
  readonly language: Schema.String
  readonly account_id: Schema.Int
  readonly template_type: Schema.String
  readonly template_id: Schema.Int
  readonly platform_type: Schema.String
  readonly platform_id: Schema.Int
  readonly status: Schema.String
  readonly reason: Schema.NullOr<Schema.String>
  /** The platform's provider. */
  readonly provider: Schema.String
  readonly created_at: Schema.String
  readonly updated_at: Schema.String
  readonly template: typeof TemplateJson
  readonly platform: typeof PlatformJson
}> = Schema.Struct({
  id: Schema.Int,
  name: Schema.String,
  language: Schema.String,
  account_id: Schema.Int,
  template_type: Schema.String,
  template_id: Schema.Int,
  platform_type: Schema.String,
  platform_id: Schema.Int,
  status: Schema.String,
  reason: NullableString,
  provider: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String,
  template: TemplateJson,
  platform: PlatformJson
}).annotate({ identifier: "Broadcast" })
/** A broadcast in its wire shape (see the `BroadcastJson` schema). */
export type BroadcastJson = typeof BroadcastJson.Type

/** The wire shape of a stored template. */
export const templateJson = (t: Template): TemplateJson => ({
  id: t.id,
  name: t.name,
  category: t.category,
  external_id: t.external_id,
  header: t.header === null ? null : { format: t.header.format, text: t.header.text, type: "HEADER" },
  body: { text: t.body, type: "BODY" },
  footer: t.footer === null ? null : { text: t.footer, type: "FOOTER" },
  buttons: t.buttons === null ? null : t.buttons.map((b) => ({ ...b })),
  code_expiration_minutes: t.code_expiration_minutes,
  created_at: formatWireTimestamp(t.created_at),
  updated_at: formatWireTimestamp(t.updated_at)
})

/** The wire shape of a stored broadcast, its template and platform embedded. */
export const broadcastJson = (b: Broadcast): BroadcastJson => ({
  id: b.id,
  name: b.name,
  language: b.language,
  account_id: b.account_id,
  template_type: TEMPLATE_TYPE,
  template_id: b.template.id,
  platform_type: PLATFORM_TYPE,
  platform_id: b.platform.id,
  status: b.status,
  reason: b.reason,
  provider: b.platform.provider,
  created_at: formatWireTimestamp(b.created_at),
  updated_at: formatWireTimestamp(b.updated_at),
  template: templateJson(b.template),
  platform: platformJson(b.platform)
})

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** BCP 47-ish template language codes as WhatsApp names them (`en`, `en_US`, `ar`, `pt_BR`). */
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/

/**
 * `template.examples` `{ body?: [...], header?: [...], header_handle? }`: one sample text per
 * variable, which Meta's review requires (a component whose samples are not given gets made-up
 * ones: `sample 1`, `sample 2`, ...), and for a media header the handle of a sample file uploaded
 * to Meta.
 */
const parseExamples = (
  errors: Record<string, Array<string>>,
  raw: unknown,
  template: TemplateDefinition
): TemplateExamples => {
  const counts = templateVariableCounts(template)
  const given = isObject(raw) ? raw : {}
  if (raw !== undefined && raw !== null && !isObject(raw)) {
    ;(errors["template.examples"] ??= []).push("The template.examples field must be an object.")
  }
  const samples = (component: "body" | "header"): Array<string> => {
    const key = `template.examples.${component}`
    const list = given[component]
    const want = counts[component]
    if (list === undefined || list === null) return Array.from({ length: want }, (_, i) => `sample ${i + 1}`)
    if (!Array.isArray(list) || list.length !== want || list.some((v) => typeof v !== "string" || v.trim() === "")) {
      ;(errors[key] ??= []).push(`The ${key} field must hold ${want} sample text${want === 1 ? "" : "s"}, one per variable.`)
      return []
    }
    return list as Array<string>
  }
  const handle = given["header_handle"]
  if (handle !== undefined && handle !== null && (typeof handle !== "string" || handle === "")) {
    ;(errors["template.examples.header_handle"] ??= []).push("The template.examples.header_handle field must be a string.")
  }
  return { body: samples("body"), header: samples("header"), headerHandle: typeof handle === "string" && handle !== "" ? handle : null }
}

/**
 * Validates a `POST /api/broadcasts` body: `{ name, language, platform_id, template }`. Fails with
 * ValidationFailed listing every failing key (`template.*` for the template's).
 */
export const validateBroadcastCreate = (body: unknown): Effect.Effect<BroadcastInput, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Record<string, Array<string>> = {}
    const add = (key: string, message: string) => {
      ;(errors[key] ??= []).push(message)
    }
    const input = isObject(body) ? body : {}
    const name = input["name"]
    if (name === undefined || name === null || name === "") add("name", "The name field is required.")
    else if (typeof name !== "string") add("name", "The name field must be a string.")
    else if (name.length > 255) add("name", "The name field must not be greater than 255 characters.")
    const language = input["language"]
    if (language === undefined || language === null || language === "") add("language", "The language field is required.")
    else if (typeof language !== "string" || !LANGUAGE.test(language)) add("language", "The language field format is invalid.")
    const platformId = input["platform_id"]
    if (platformId === undefined || platformId === null || platformId === "") add("platform_id", "The platform_id field is required.")
    else if (typeof platformId !== "number" || !Number.isSafeInteger(platformId) || platformId < 1) {
      add("platform_id", "The platform_id field must be an integer.")
    }
    const template = parseTemplate(input["template"], errors)
    const rawTemplate = isObject(input["template"]) ? input["template"] : {}
    const examples = template === null
      ? { body: [], header: [], headerHandle: null }
      : parseExamples(errors, rawTemplate["examples"], template)
    yield* failIfAny(errors)
    return {
      name: name as string,
      language: language as string,
      platform_id: platformId as number,
      template: template!,
      examples
    }
  })
