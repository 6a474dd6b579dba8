/**
 * Sending numbers (platforms): a WhatsApp business number registered in the
 * account, sending through a provider. The provider's access token is write-only: it is stored
 * sealed (SecretBox) and never rendered.
 */
import { type DateTime, Effect, Schema } from "effect"
import type { ValidationFailed } from "../errors.ts"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import { failIfAny } from "./template.ts"

/** The providers a platform can send through. */
export const PROVIDER_NAMES = ["sandbox", "whatsapp_cloud"] as const
/**
 * A platform's provider: `sandbox` (messages are recorded, nothing leaves the service) or
 * `whatsapp_cloud` (Meta's WhatsApp Cloud API).
 */
export type ProviderName = typeof PROVIDER_NAMES[number]

/** A sending number as stored. */
export interface Platform {
  /** The platform's id. */
  readonly id: number
  /** The account it belongs to. */
  readonly account_id: number
  /** Its display name. */
  readonly name: string
  /** The phone number recipients see. */
  readonly display_phone_number: string
  /** The provider it sends through. */
  readonly provider: ProviderName
  /** The provider's phone number id (WhatsApp Cloud); null for the sandbox. */
  readonly phone_id: string | null
  /** The WhatsApp Business Account id, when given. */
  readonly waba_id: string | null
  /** The access token sealed with SecretBox; null when none was given. */
  readonly sealed_access_token: string | null
  /** When it was registered. */
  readonly created_at: DateTime.Utc
  /** When it was last changed. */
  readonly updated_at: DateTime.Utc
}

/** The number's id at its provider: its `phone_id`, else (a sandbox number) its display number's digits. */
export const platformThirdPartyId = (p: Pick<Platform, "phone_id" | "display_phone_number">): string =>
  p.phone_id ?? p.display_phone_number.replace(/[^0-9]/g, "")

/** What a create stores (before the ids and times). */
export interface PlatformInput {
  /** Its display name. */
  readonly name: string
  /** The phone number recipients see. */
  readonly display_phone_number: string
  /** The provider it sends through (`sandbox` when the body names none). */
  readonly provider: ProviderName
  /** The provider's phone number id (required for WhatsApp Cloud). */
  readonly phone_id: string | null
  /** The WhatsApp Business Account id. */
  readonly waba_id: string | null
  /** The provider's access token in clear (required for WhatsApp Cloud); sealed before it is stored. */
  readonly access_token: string | null
}

const NullableString = Schema.NullOr(Schema.String)

/**
 * A platform as the platform endpoints return it (the WhatsApp business profile fields the
 * service does not hold are null), plus `provider`; never the access token.
 */
export const PlatformJson: Schema.Struct<{
  readonly id: Schema.Int
  readonly name: Schema.String
  readonly verified_name: Schema.NullOr<Schema.String>
  readonly code_verification_status: Schema.NullOr<Schema.String>
  readonly display_phone_number: Schema.String
  readonly quality_rating: Schema.NullOr<Schema.String>
  readonly phone_id: Schema.NullOr<Schema.String>
  readonly waba_id: Schema.NullOr<Schema.String>
  readonly about: Schema.NullOr<Schema.String>
  readonly address: Schema.NullOr<Schema.String>
  readonly description: Schema.NullOr<Schema.String>
  readonly email: Schema.NullOr<Schema.String>
  readonly profile_picture: Schema.NullOr<Schema.String>
  readonly vertical: Schema.NullOr<Schema.String>
  readonly websites: Schema.NullOr<Schema.$Array<Schema.String>>
  readonly image: Schema.NullOr<Schema.String>
  readonly provider: Schema.String
  readonly account_id: Schema.Int
  readonly created_at: Schema.String
  readonly updated_at: Schema.String
}> = Schema.Struct({
  id: Schema.Int,
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
  account_id: Schema.Int,
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "Platform" })
/** A platform in its wire shape (see the `PlatformJson` schema). */
export type PlatformJson = typeof PlatformJson.Type

/** The wire shape of a stored platform (a sandbox platform shows as verified, quality GREEN). */
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
