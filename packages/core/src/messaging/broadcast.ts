/**
 * Broadcasts (spec §2.8, decisions §7): one template registered in the account, sent from one
 * sending number. `{id}` of `/api/broadcasts/{id}/send` and `/send-otp` is the broadcast's id. On
 * the sandbox provider a new broadcast is APPROVED at once; on whatsapp_cloud it is APPROVED too
 * (the template is assumed to exist at Meta under its name and language — Wasl does not submit
 * templates for review).
 */
import { type DateTime, Effect, Schema } from "effect"
import type { ValidationFailed } from "../errors.ts"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { type Platform, PlatformJson, platformJson } from "./platform.ts"
import { failIfAny, parseTemplate, type TemplateDefinition } from "./template.ts"

export const BROADCAST_STATUSES = ["APPROVED", "PENDING", "REJECTED"] as const
export type BroadcastStatus = typeof BROADCAST_STATUSES[number]

/** The type names of the records a broadcast points at (spec §2.8 template_type, platform_type). */
export const TEMPLATE_TYPE = "whatsapp_template"
export const PLATFORM_TYPE = "whatsapp_platform"

export interface Template extends TemplateDefinition {
  readonly id: number
  readonly external_id: string | null
  readonly created_at: DateTime.Utc
  readonly updated_at: DateTime.Utc
}

export interface Broadcast {
  readonly id: number
  readonly account_id: number
  readonly name: string
  readonly language: string
  readonly status: BroadcastStatus
  readonly reason: string | null
  readonly template: Template
  readonly platform: Platform
  readonly created_at: DateTime.Utc
  readonly updated_at: DateTime.Utc
}

export interface BroadcastInput {
  readonly name: string
  readonly language: string
  readonly platform_id: number
  readonly template: TemplateDefinition
}

const NullableString = Schema.NullOr(Schema.String)
const Part = (type: string) => Schema.Struct({ text: NullableString, type: Schema.Literal(type) })

export const TemplateJson = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  category: Schema.String,
  external_id: NullableString,
  header: Schema.NullOr(Schema.Struct({ format: Schema.String, text: NullableString, type: Schema.Literal("HEADER") })),
  body: Part("BODY"),
  footer: Schema.NullOr(Part("FOOTER")),
  buttons: Schema.NullOr(Schema.Array(Schema.Record(Schema.String, Schema.String))),
  code_expiration_minutes: Schema.NullOr(Schema.Number),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "Template" })
export type TemplateJson = typeof TemplateJson.Type

export const BroadcastJson = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  language: Schema.String,
  account_id: Schema.Number,
  template_type: Schema.String,
  template_id: Schema.Number,
  platform_type: Schema.String,
  platform_id: Schema.Number,
  status: Schema.String,
  reason: NullableString,
  provider: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String,
  template: TemplateJson,
  platform: PlatformJson
}).annotate({ identifier: "Broadcast" })
export type BroadcastJson = typeof BroadcastJson.Type

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

/** `POST /api/broadcasts` body (decisions §7): `{ name, language, platform_id, template }`. */
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
    yield* failIfAny(errors)
    return {
      name: name as string,
      language: language as string,
      platform_id: platformId as number,
      template: template!
    }
  })
