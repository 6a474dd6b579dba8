/**
 * Sending numbers (spec §2.8 platform, decisions §7): a WhatsApp business number registered in the
 * account, sending through a provider. The provider's access token is write-only: it is stored
 * sealed (SecretBox) and never rendered.
 */
import { type DateTime, Effect, Schema } from "effect"
import type { ValidationFailed } from "../errors.ts"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { failIfAny } from "./template.ts"

export const PROVIDER_NAMES = ["sandbox", "whatsapp_cloud"] as const
export type ProviderName = typeof PROVIDER_NAMES[number]

export interface Platform {
  readonly id: number
  readonly account_id: number
  readonly name: string
  readonly display_phone_number: string
  readonly provider: ProviderName
  readonly phone_id: string | null
  readonly waba_id: string | null
  /** The access token sealed with SecretBox; null when none was given. */
  readonly sealed_access_token: string | null
  readonly created_at: DateTime.Utc
  readonly updated_at: DateTime.Utc
}

/** What a create stores (before the ids and times). */
export interface PlatformInput {
  readonly name: string
  readonly display_phone_number: string
  readonly provider: ProviderName
  readonly phone_id: string | null
  readonly waba_id: string | null
  readonly access_token: string | null
}

const NullableString = Schema.NullOr(Schema.String)

/** The wire shape (spec §2.8), plus `provider`; never the access token. */
export const PlatformJson = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  verified_name: NullableString,
  code_verification_status: NullableString,
  display_phone_number: Schema.String,
  quality_rating: NullableString,
  phone_id: NullableString,
  waba_id: NullableString,
  about: NullableString,
  address: NullableString,
  description: NullableString,
  email: NullableString,
  profile_picture: NullableString,
  vertical: NullableString,
  websites: Schema.NullOr(Schema.Array(Schema.String)),
  image: NullableString,
  provider: Schema.String,
  account_id: Schema.Number,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "Platform" })
export type PlatformJson = typeof PlatformJson.Type

export const platformJson = (p: Platform): PlatformJson => ({
  id: p.id,
  name: p.name,
  verified_name: p.name,
  code_verification_status: p.provider === "sandbox" ? "VERIFIED" : null,
  display_phone_number: p.display_phone_number,
  quality_rating: p.provider === "sandbox" ? "GREEN" : null,
  phone_id: p.phone_id,
  waba_id: p.waba_id,
  about: null,
  address: null,
  description: null,
  email: null,
  profile_picture: null,
  vertical: null,
  websites: null,
  image: null,
  provider: p.provider,
  account_id: p.account_id,
  created_at: formatWireTimestamp(p.created_at),
  updated_at: formatWireTimestamp(p.updated_at)
})

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const PHONE = /^\+?[0-9][0-9 ()-]{4,30}$/
const GRAPH_ID = /^[0-9]{1,32}$/

/** `POST /api/platforms` body: `{ name, display_phone_number, provider?, phone_id?, waba_id?, access_token? }`. */
export const validatePlatformCreate = (body: unknown): Effect.Effect<PlatformInput, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Record<string, Array<string>> = {}
    const add = (key: string, message: string) => {
      ;(errors[key] ??= []).push(message)
    }
    const input = isObject(body) ? body : {}
    const str = (key: string, required: boolean, max: number): string | null => {
      const v = input[key]
      if (v === undefined || v === null || v === "") {
        if (required) add(key, `The ${key} field is required.`)
        return null
      }
      if (typeof v !== "string") {
        add(key, `The ${key} field must be a string.`)
        return null
      }
      if (v.length > max) {
        add(key, `The ${key} field must not be greater than ${max} characters.`)
        return null
      }
      return v
    }
    const name = str("name", true, 255)
    const display = str("display_phone_number", true, 32)
    if (display !== null && (!PHONE.test(display) || display.replace(/[^0-9]/g, "").length < 6)) {
      add("display_phone_number", "The display_phone_number field format is invalid.")
    }
    const rawProvider = input["provider"] ?? "sandbox"
    const provider = PROVIDER_NAMES.find((p) => p === rawProvider)
    if (provider === undefined) add("provider", "The selected provider is invalid.")
    const cloud = provider === "whatsapp_cloud"
    const phoneId = str("phone_id", cloud, 32)
    if (phoneId !== null && !GRAPH_ID.test(phoneId)) add("phone_id", "The phone_id field format is invalid.")
    const wabaId = str("waba_id", false, 32)
    if (wabaId !== null && !GRAPH_ID.test(wabaId)) add("waba_id", "The waba_id field format is invalid.")
    const token = str("access_token", cloud, 4096)
    yield* failIfAny(errors)
    return {
      name: name!,
      display_phone_number: display!,
      provider: provider!,
      phone_id: phoneId,
      waba_id: wabaId,
      access_token: token
    }
  })
