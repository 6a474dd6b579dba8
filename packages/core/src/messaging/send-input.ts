/**
 * The bodies of the send endpoints, validated by hand so every key gets Laravel's message and every
 * failure is reported at once.
 */
import { Effect } from "effect"
import type { ValidationFailed } from "../errors.ts"
import type { HeaderMedia } from "./messaging-provider.ts"
import { RECIPIENT_NUMBER } from "./recipient.ts"
import { failIfAny, isMediaHeader, offerCodeButtonIndex, type TemplateDefinition } from "./template.ts"
import type { ParameterSource, ParameterSources } from "./template-variables.ts"

type Errors = Record<string, Array<string>>
const add = (errors: Errors, key: string, message: string) => {
  ;(errors[key] ??= []).push(message)
}
const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const absent = (u: unknown) => u === undefined || u === null || u === ""

// ---------------------------------------------------------------------------------------------
// send: a template message to a contact
// ---------------------------------------------------------------------------------------------

/** The largest `header.file`: 10 MB (10,240 KiB, Laravel's `max:10240`). */
export const HEADER_FILE_MAX_BYTES: number = 10 * 1024 * 1024
/** The media types a `header.file` may have. */
export const HEADER_FILE_TYPES = ["application/pdf", "image/jpeg", "image/jpg", "image/png", "video/mp4"] as const

/** An uploaded file, as the HTTP layer read it. */
export interface UploadedFile {
  /** The file's name as uploaded. */
  readonly filename: string
  /** Its media type as uploaded. */
  readonly contentType: string
  /** Its content. */
  readonly bytes: Uint8Array
}

/** A validated send body. */
export interface SendInput {
  /** The contact to send to. */
  readonly contactId: string
  /** For a template with an offer-code button: the button's index and the code to copy. */
  readonly offerCode?: { readonly index: number; readonly code: string }
  /** For a template with a media header: the file to show. */
  readonly headerMedia?: HeaderMedia
  /** The values of the template's variables, as given (none when the body names no `parameters`). */
  readonly parameters: ParameterSources
}

/**
 * `parameters` `{ body?: [...], header?: [...] }`: each value a string or `{ property }`. Only
 * the shape is checked here; the values are matched to the template's variables, and properties
 * read from the contact, when the message is filled (template-variables.ts).
 */
export const parseParameters = (errors: Record<string, Array<string>>, raw: unknown): ParameterSources => {
  if (absent(raw)) return { body: [], header: [] }
  if (!isObject(raw)) {
    add(errors, "parameters", "The parameters field must be an object.")
    return { body: [], header: [] }
  }
  const list = (component: "body" | "header"): Array<ParameterSource> => {
    const key = `parameters.${component}`
    const items = raw[component]
    if (items === undefined || items === null) return []
    if (!Array.isArray(items)) {
      add(errors, key, `The ${key} field must be an array.`)
      return []
    }
    return items.flatMap((item, i): Array<ParameterSource> => {
      const itemKey = `${key}.${i}`
      if (typeof item === "string") return [item]
      if (typeof item === "number") return [String(item)]
      if (isObject(item) && typeof item["property"] === "string" && item["property"] !== "") {
        return [{ property: item["property"] }]
      }
      add(errors, itemKey, `The ${itemKey} field must be a string or an object with a property.`)
      return []
    })
  }
  return { body: list("body"), header: list("header") }
}

/** Offer codes as WhatsApp takes them: up to 15 characters. */
const MAX_OFFER_CODE = 15

const parseComponents = (errors: Errors, raw: unknown, buttonIndex: number): { index: number; code: string } | undefined => {
  if (!Array.isArray(raw)) {
    add(errors, "components", "The components field must be an array.")
    return undefined
  }
  if (raw.length === 0) {
    add(errors, "components", "The components field is required.")
    return undefined
  }
  let offer: { index: number; code: string } | undefined
  raw.forEach((component, i) => {
    const key = `components.${i}`
    if (!isObject(component)) return add(errors, key, `The ${key} field must be an object.`)
    const type = component["type"]
    if (absent(type)) add(errors, `${key}.type`, `The ${key}.type field is required.`)
    else if (type !== "button") add(errors, `${key}.type`, `The selected ${key}.type is invalid.`)
    const subType = component["sub_type"]
    if (absent(subType)) add(errors, `${key}.sub_type`, `The ${key}.sub_type field is required.`)
    else if (subType !== "copy_code") add(errors, `${key}.sub_type`, `The selected ${key}.sub_type is invalid.`)
    const index = component["index"]
    let indexOk = false
    if (absent(index)) add(errors, `${key}.index`, `The ${key}.index field is required.`)
    else if (typeof index !== "number" || !Number.isInteger(index)) {
      add(errors, `${key}.index`, `The ${key}.index field must be an integer.`)
    } else if (index !== buttonIndex) {
      add(errors, `${key}.index`, `The selected ${key}.index is invalid.`)
    } else indexOk = true
    const parameters = component["parameters"]
    if (!Array.isArray(parameters) || parameters.length === 0) {
      return add(errors, `${key}.parameters`, Array.isArray(parameters) || absent(parameters)
        ? `The ${key}.parameters field is required.`
        : `The ${key}.parameters field must be an array.`)
    }
    parameters.forEach((parameter, j) => {
      const pkey = `${key}.parameters.${j}`
      if (!isObject(parameter)) return add(errors, pkey, `The ${pkey} field must be an object.`)
      const ptype = parameter["type"]
      if (absent(ptype)) add(errors, `${pkey}.type`, `The ${pkey}.type field is required.`)
      else if (ptype !== "payload") add(errors, `${pkey}.type`, `The selected ${pkey}.type is invalid.`)
      const payload = parameter["payload"]
      if (absent(payload)) add(errors, `${pkey}.payload`, `The ${pkey}.payload field is required.`)
      else if (typeof payload !== "string") add(errors, `${pkey}.payload`, `The ${pkey}.payload field must be a string.`)
      else if (payload.length > MAX_OFFER_CODE) {
        add(errors, `${pkey}.payload`, `The ${pkey}.payload field must not be greater than ${MAX_OFFER_CODE} characters.`)
      } else if (indexOk && ptype === "payload" && offer === undefined) offer = { index: index as number, code: payload }
    })
  })
  return offer
}

const parseHeaderFile = (errors: Errors, file: UploadedFile | undefined, template: TemplateDefinition): HeaderMedia | undefined => {
  if (!isMediaHeader(template.header)) return undefined
  const key = "header.file"
  if (file === undefined) {
    add(errors, key, `The ${key} field is required.`)
    return undefined
  }
  const type = file.contentType.split(";")[0]!.trim().toLowerCase()
  if (!(HEADER_FILE_TYPES as ReadonlyArray<string>).includes(type)) {
    add(errors, key, `The ${key} field must be a file of type: pdf, jpeg, jpg, png, mp4.`)
  }
  if (file.bytes.length > HEADER_FILE_MAX_BYTES) {
    add(errors, key, `The ${key} field must not be greater than ${HEADER_FILE_MAX_BYTES / 1024} kilobytes.`)
  }
  if (errors[key] !== undefined) return undefined
  return {
    format: template.header!.format as HeaderMedia["format"],
    filename: file.filename,
    contentType: type,
    bytes: file.bytes
  }
}

/**
 * `POST /api/broadcasts/{id}/send`: `contact_id` (required), `header.file` (required for a media
 * header), `components` (required for a template with an offer code; only the copy_code button),
 * `parameters` (the values of the template's variables).
 */
export const validateSendInput = (
  template: TemplateDefinition,
  body: unknown,
  file: UploadedFile | undefined
): Effect.Effect<SendInput, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Errors = {}
    const input = isObject(body) ? body : {}
    const contactId = input["contact_id"]
    if (absent(contactId)) add(errors, "contact_id", "The contact_id field is required.")
    else if (typeof contactId !== "string") add(errors, "contact_id", "The contact_id field must be a string.")
    const headerMedia = parseHeaderFile(errors, file, template)
    const buttonIndex = offerCodeButtonIndex(template)
    let offerCode: { index: number; code: string } | undefined
    if (buttonIndex !== undefined) {
      if (absent(input["components"])) add(errors, "components", "The components field is required.")
      else offerCode = parseComponents(errors, input["components"], buttonIndex)
    } else if (!absent(input["components"])) {
      add(errors, "components", "The components field is prohibited: the template has no offer code.")
    }
    const parameters = parseParameters(errors, input["parameters"])
    yield* failIfAny(errors)
    return {
      contactId: contactId as string,
      parameters,
      ...(offerCode === undefined ? {} : { offerCode }),
      ...(headerMedia === undefined ? {} : { headerMedia })
    }
  })

// ---------------------------------------------------------------------------------------------
// send-otp: a one-time password to a contact or a number
// ---------------------------------------------------------------------------------------------

/** A validated send-otp body. */
export interface SendOtpInput {
  /** Who to send to: a contact of the account, or a number (its contact found or created). */
  readonly recipient: { readonly _tag: "Contact"; readonly contactId: string } | { readonly _tag: "Number"; readonly to: string }
  /** The caller's own code (relay mode); none for managed mode. */
  readonly code: string | undefined
}

const RELAY_CODE = /^[A-Za-z0-9]+$/

/**
 * Validates a send-otp body: `contact_id` xor `to` (neither or both is a 422), `to` 6–20 digits
 * with an optional `+`, `code` (relay mode) 4–15 letters and digits.
 */
export const validateSendOtpInput = (body: unknown): Effect.Effect<SendOtpInput, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Errors = {}
    const input = isObject(body) ? body : {}
    const contactId = input["contact_id"]
    const to = input["to"]
    const code = input["code"]
    if (absent(contactId) && absent(to)) {
      add(errors, "contact_id", "The contact_id field is required when to is not present.")
      add(errors, "to", "The to field is required when contact_id is not present.")
    } else if (!absent(contactId) && !absent(to)) {
      add(errors, "contact_id", "The contact_id field prohibits to from being present.")
      add(errors, "to", "The to field prohibits contact_id from being present.")
    } else if (!absent(contactId)) {
      if (typeof contactId !== "string") add(errors, "contact_id", "The contact_id field must be a string.")
    } else if (typeof to !== "string" || !RECIPIENT_NUMBER.test(to)) {
      add(errors, "to", "The to field format is invalid.")
    }
    if (!absent(code)) {
      if (typeof code !== "string") add(errors, "code", "The code field must be a string.")
      else {
        if (!RELAY_CODE.test(code)) add(errors, "code", "The code field must only contain letters and numbers.")
        if (code.length < 4 || code.length > 15) add(errors, "code", "The code field must be between 4 and 15 characters.")
      }
    }
    yield* failIfAny(errors)
    return {
      recipient: absent(contactId)
        ? { _tag: "Number", to: to as string }
        : { _tag: "Contact", contactId: contactId as string },
      code: absent(code) ? undefined : code as string
    }
  })

/** `POST /api/verifications/{id}/verify` body: `{ code }`, a string of 1 to 15 letters and digits. */
export const validateVerifyInput = (body: unknown): Effect.Effect<string, ValidationFailed> =>
  Effect.gen(function*() {
    const errors: Errors = {}
    const code = isObject(body) ? body["code"] : undefined
    if (absent(code)) add(errors, "code", "The code field is required.")
    else if (typeof code !== "string") add(errors, "code", "The code field must be a string.")
    else if (code.length > 15) add(errors, "code", "The code field must not be greater than 15 characters.")
    yield* failIfAny(errors)
    return code as string
  })
