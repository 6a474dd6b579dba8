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

/**
 * What Meta says of a WhatsApp Cloud number (`GET /{phone_id}` and the quality webhook); each
 * null until Meta has told, and always null on the sandbox, which has no Meta number behind it.
 */
export interface NumberHealth {
  /** The business name Meta verified for the number. */
  readonly verified_name: string | null
  /** Whether the number's registration code was verified (`VERIFIED`, `NOT_VERIFIED`, `EXPIRED`, ...). */
  readonly code_verification_status: string | null
  /** Meta's quality rating of the number (`GREEN`, `YELLOW`, `RED`, `UNKNOWN`). */
  readonly quality_rating: string | null
  /** How many customers the number may start conversations with a day (`TIER_1K`, `TIER_UNLIMITED`, ...). */
  readonly messaging_limit_tier: string | null
}

/** The health of a number Meta has said nothing of (and of every sandbox number). */
export const UNKNOWN_HEALTH: NumberHealth = {
  verified_name: null,
  code_verification_status: null,
  quality_rating: null,
  messaging_limit_tier: null
}

/** A sending number as stored. */
export interface Platform extends NumberHealth {
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
 * service does not hold are null), plus `provider` and `messaging_limit_tier`; never the access
 * token.
 */
export const PlatformJson: Schema.Struct<{
  readonly id: Schema.Int
  readonly name: Schema.String
  readonly verified_name: Schema.NullOr<Schema.String>
  readonly code_verification_status: Schema.NullOr<Schema.String>
  readonly display_phone_number: Schema.String
  readonly quality_rating: Schema.NullOr<Schema.String>
  readonly messaging_limit_tier: Schema.NullOr<Schema.String>
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
  messaging_limit_tier: NullableString,
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

/** The wire shape of a stored platform: its health as Meta last told it (null where it never did). */
export const platformJson = (p: Platform): PlatformJson => ({
  id: p.id,
  name: p.name,
  verified_name: p.verified_name,
  code_verification_status: p.code_verification_status,
  display_phone_number: p.display_phone_number,
  quality_rating: p.quality_rating,
  messaging_limit_tier: p.messaging_limit_tier,
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

/** Reads a string field of `input` (null when absent or empty), adding its messages through `add`. */
const stringField = (input: Record<string, unknown>, add: (key: string, message: string) => void) =>
(key: string, required: boolean, max: number): string | null => {
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

/** `POST /api/platforms` body: `{ name, display_phone_number, provider?, phone_id?, waba_id?, access_token? }`. */
export const validatePlatformCreate = (body: unknown): Effect.Effect<PlatformInput, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Record<string, Array<string>> = {}
    const add = (key: string, message: string) => {
      ;(errors[key] ??= []).push(message)
    }
    const input = isObject(body) ? body : {}
    const str = stringField(input, add)
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

/** What a `PUT /api/platforms/{id}` changes: each field given, the rest kept. */
export interface PlatformChanges {
  /** The new display name. */
  readonly name?: string
  /** The new access token in clear; sealed before it is stored. */
  readonly access_token?: string
}

/**
 * `PUT /api/platforms/{id}` body: `{ name?, access_token? }`, each non-empty when given (at most
 * 255 and 4096 characters); the number itself (its display number, provider and ids) does not
 * change: register another number instead.
 */
export const validatePlatformUpdate = (body: unknown): Effect.Effect<PlatformChanges, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Record<string, Array<string>> = {}
    const add = (key: string, message: string) => {
      ;(errors[key] ??= []).push(message)
    }
    const input = isObject(body) ? body : {}
    const str = stringField(input, add)
    const given = (key: string) => key in input
    const name = given("name") ? str("name", true, 255) : null
    const token = given("access_token") ? str("access_token", true, 4096) : null
    yield* failIfAny(errors)
    return { ...(name === null ? {} : { name }), ...(token === null ? {} : { access_token: token }) }
  })
