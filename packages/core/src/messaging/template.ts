/**
 * Message templates: what a broadcast sends. A template has a category (AUTHENTICATION templates
 * carry one-time passwords and go only through send-otp), a body, optionally a header (text or
 * media), a footer and buttons. A COPY_CODE button is an offer code, whose value the caller
 * supplies on send; an OTP button copies the code of an authentication template.
 */
import { Effect } from "effect"
import { ValidationFailed } from "../errors.ts"
import { variableCount, variableProblem } from "./template-variables.ts"

/** The categories of a template. */
export const TEMPLATE_CATEGORIES = ["UTILITY", "MARKETING", "AUTHENTICATION"] as const
/** A template's category: AUTHENTICATION templates carry one-time passwords (send-otp only). */
export type TemplateCategory = typeof TEMPLATE_CATEGORIES[number]

/** The formats of a template header. */
export const HEADER_FORMATS = ["TEXT", "IMAGE", "DOCUMENT", "VIDEO"] as const
/** A header's format: TEXT, or a media format whose file the sender supplies on send. */
export type HeaderFormat = typeof HEADER_FORMATS[number]

/** The types of a template button. */
export const BUTTON_TYPES = ["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE", "OTP"] as const
/**
 * A button's type: QUICK_REPLY, URL, PHONE_NUMBER, COPY_CODE (an offer code supplied on send, not
 * in AUTHENTICATION templates) or OTP (copies the code; AUTHENTICATION templates only).
 */
export type ButtonType = typeof BUTTON_TYPES[number]

/** A template's header. */
export interface TemplateHeader {
  /** Text or a media format. */
  readonly format: HeaderFormat
  /** The text of a TEXT header; null for media headers. */
  readonly text: string | null
}

/** One button of a template. */
export interface TemplateButton {
  /** What the button does. */
  readonly type: ButtonType
  /** Its label (at most 25 characters). */
  readonly text: string
  /** A URL button's target. */
  readonly url?: string
  /** A PHONE_NUMBER button's number. */
  readonly phone_number?: string
}

/** A template as the account defined it. */
export interface TemplateDefinition {
  /** Its name: lowercase letters, digits and underscores. */
  readonly name: string
  /** Its category. */
  readonly category: TemplateCategory
  /** Its header, if any. */
  readonly header: TemplateHeader | null
  /** Its text (an AUTHENTICATION body holds the code placeholder `{{1}}`). */
  readonly body: string
  /** Its footer, if any. */
  readonly footer: string | null
  /** Its buttons, if any. */
  readonly buttons: ReadonlyArray<TemplateButton> | null
  /** AUTHENTICATION only: how long a managed code lives, in minutes; null means 5 minutes. */
  readonly code_expiration_minutes: number | null
}

/** The managed-code lifetime in minutes when the template does not set one. */
export const DEFAULT_CODE_EXPIRATION_MINUTES = 5
/** The bounds WhatsApp accepts for code_expiration_minutes. */
export const MAX_CODE_EXPIRATION_MINUTES = 90

const NAME = /^[a-z0-9_]{1,512}$/
const MAX_BODY = 1024
const MAX_SHORT_TEXT = 60
const MAX_BUTTON_TEXT = 25
const MAX_BUTTONS = 10

/** Whether the header is a media one: a send needs `header.file` for it. */
export const isMediaHeader = (header: TemplateHeader | null): boolean => header !== null && header.format !== "TEXT"

/** The position of the template's offer-code (COPY_CODE) button, if it has one. */
export const offerCodeButtonIndex = (template: TemplateDefinition): number | undefined => {
  const index = (template.buttons ?? []).findIndex((b) => b.type === "COPY_CODE")
  return index === -1 ? undefined : index
}

/** The one-time-password placeholder of an authentication template's body. */
export const CODE_PLACEHOLDER = "{{1}}"
/** How a one-time code is shown wherever it is stored: it is never stored in clear. */
export const MASKED_CODE = "******"

/** The body as the recipient reads it, with `{{1}}` replaced by `code` (pass MASKED_CODE to store it). */
export const renderBody = (template: TemplateDefinition, code: string | undefined): string =>
  code === undefined ? template.body : template.body.split(CODE_PLACEHOLDER).join(code)

type Errors = Record<string, Array<string>>

const add = (errors: Errors, key: string, message: string) => {
  ;(errors[key] ??= []).push(message)
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** A string field that may also be sent as `{ text }` (the shape the template is returned in). */
const textOf = (u: unknown): unknown => isObject(u) ? u["text"] : u

const stringField = (
  errors: Errors,
  key: string,
  value: unknown,
  options: { readonly required: boolean; readonly max: number }
): string | null => {
  if (value === undefined || value === null || value === "") {
    if (options.required) add(errors, key, `The ${key} field is required.`)
    return null
  }
  if (typeof value !== "string") {
    add(errors, key, `The ${key} field must be a string.`)
    return null
  }
  if (value.length > options.max) {
    add(errors, key, `The ${key} field must not be greater than ${options.max} characters.`)
    return null
  }
  return value
}

const oneOf = <T extends string>(
  errors: Errors,
  key: string,
  value: unknown,
  allowed: ReadonlyArray<T>
): T | null => {
  if (value === undefined || value === null || value === "") {
    add(errors, key, `The ${key} field is required.`)
    return null
  }
  if (typeof value !== "string" || !allowed.includes(value.toUpperCase() as T)) {
    add(errors, key, `The selected ${key} is invalid.`)
    return null
  }
  return value.toUpperCase() as T
}

const parseHeader = (errors: Errors, raw: unknown): TemplateHeader | null => {
  if (raw === undefined || raw === null) return null
  if (!isObject(raw)) {
    add(errors, "template.header", "The template.header field must be an object.")
    return null
  }
  const format = oneOf(errors, "template.header.format", raw["format"], HEADER_FORMATS)
  if (format === null) return null
  if (format === "TEXT") {
    const text = stringField(errors, "template.header.text", raw["text"], { required: true, max: MAX_SHORT_TEXT })
    return text === null ? null : { format, text }
  }
  return { format, text: null }
}

const parseButtons = (errors: Errors, raw: unknown, category: TemplateCategory | null): Array<TemplateButton> | null => {
  if (raw === undefined || raw === null) return null
  if (!Array.isArray(raw)) {
    add(errors, "template.buttons", "The template.buttons field must be an array.")
    return null
  }
  if (raw.length > MAX_BUTTONS) {
    add(errors, "template.buttons", `The template.buttons field must not have more than ${MAX_BUTTONS} items.`)
    return null
  }
  const buttons: Array<TemplateButton> = []
  raw.forEach((item, i) => {
    const key = `template.buttons.${i}`
    if (!isObject(item)) return add(errors, key, `The ${key} field must be an object.`)
    const type = oneOf(errors, `${key}.type`, item["type"], BUTTON_TYPES)
    const text = stringField(errors, `${key}.text`, item["text"], { required: true, max: MAX_BUTTON_TEXT })
    if (type === "OTP" && category !== null && category !== "AUTHENTICATION") {
      add(errors, `${key}.type`, `The selected ${key}.type is invalid.`)
    }
    if (type === "COPY_CODE" && category === "AUTHENTICATION") {
      add(errors, `${key}.type`, `The selected ${key}.type is invalid.`)
    }
    const url = type === "URL" ? stringField(errors, `${key}.url`, item["url"], { required: true, max: 2000 }) : null
    const phone = type === "PHONE_NUMBER"
      ? stringField(errors, `${key}.phone_number`, item["phone_number"], { required: true, max: 20 })
      : null
    if (type !== null && text !== null) {
      buttons.push({ type, text, ...(url === null ? {} : { url }), ...(phone === null ? {} : { phone_number: phone }) })
    }
  })
  if (buttons.filter((b) => b.type === "COPY_CODE").length > 1) {
    add(errors, "template.buttons", "The template.buttons field may hold at most one COPY_CODE button.")
  }
  return buttons
}

/**
 * Validates the `template` object of a broadcast create body, adding Laravel-style messages to
 * `errors` under keys `template.*`; null when it is not valid.
 */
export const parseTemplate = (raw: unknown, errors: Record<string, Array<string>>): TemplateDefinition | null => {
  if (!isObject(raw)) {
    add(errors, "template", raw === undefined || raw === null ? "The template field is required." : "The template field must be an object.")
    return null
  }
  const name = stringField(errors, "template.name", raw["name"], { required: true, max: 512 })
  if (name !== null && !NAME.test(name)) {
    add(errors, "template.name", "The template.name field format is invalid.")
  }
  const category = oneOf(errors, "template.category", raw["category"], TEMPLATE_CATEGORIES)
  const header = parseHeader(errors, raw["header"])
  if (header !== null && category === "AUTHENTICATION" && header.format !== "TEXT") {
    add(errors, "template.header.format", "The selected template.header.format is invalid.")
  }
  const body = stringField(errors, "template.body", textOf(raw["body"]), { required: true, max: MAX_BODY })
  if (body !== null && category === "AUTHENTICATION" && !body.includes(CODE_PLACEHOLDER)) {
    add(errors, "template.body", `The template.body field must contain the code placeholder ${CODE_PLACEHOLDER}.`)
  }
  if (category !== null && category !== "AUTHENTICATION") {
    const bodyProblem = body === null ? undefined : variableProblem(body, MAX_BODY)
    if (bodyProblem !== undefined) add(errors, "template.body", `The template.body field ${bodyProblem}.`)
    const headerProblem = header?.text == null ? undefined : variableProblem(header.text, 1)
    if (headerProblem !== undefined) add(errors, "template.header.text", `The template.header.text field ${headerProblem}.`)
  }
  const footer = stringField(errors, "template.footer", textOf(raw["footer"]), { required: false, max: MAX_SHORT_TEXT })
  const buttons = parseButtons(errors, raw["buttons"], category)
  const minutes = raw["code_expiration_minutes"]
  let codeExpiration: number | null = null
  if (minutes !== undefined && minutes !== null) {
    if (category !== null && category !== "AUTHENTICATION") {
      add(errors, "template.code_expiration_minutes", "The template.code_expiration_minutes field is prohibited.")
    } else if (typeof minutes !== "number" || !Number.isInteger(minutes)) {
      add(errors, "template.code_expiration_minutes", "The template.code_expiration_minutes field must be an integer.")
    } else if (minutes < 1 || minutes > MAX_CODE_EXPIRATION_MINUTES) {
      add(
        errors,
        "template.code_expiration_minutes",
        `The template.code_expiration_minutes field must be between 1 and ${MAX_CODE_EXPIRATION_MINUTES}.`
      )
    } else {
      codeExpiration = minutes
    }
  }
  if (name === null || category === null || body === null) return null
  return { name, category, header, body, footer, buttons, code_expiration_minutes: codeExpiration }
}

/** How many variables the template's body and text header hold (an authentication body's code is not one). */
export const templateVariableCounts = (template: TemplateDefinition): { readonly body: number; readonly header: number } =>
  template.category === "AUTHENTICATION"
    ? { body: 0, header: 0 }
    : { body: variableCount(template.body), header: template.header?.format === "TEXT" ? variableCount(template.header.text) : 0 }

/** Fails with every collected error, first key first. */
export const failIfAny = (errors: Record<string, Array<string>>): Effect.Effect<void, ValidationFailed> =>
  Object.keys(errors).length === 0 ? Effect.void : Effect.fail(new ValidationFailed({ errors }))
