/**
 * A template's variables: `{{1}}`…`{{n}}` in its body, and at most one, `{{1}}`, in a text
 * header. At creation they must be numbered from 1 with none missing (WhatsApp reviews them so);
 * on send each gets a value, given as text or taken from one of the recipient contact's
 * properties (`{ "property": "<internal_name>" }`), and the text the recipient reads is the
 * template's with the values in place. Everything here is pure.
 */

/** How a variable is written in a template: `{{n}}`. */
const VARIABLE = /\{\{([0-9]+)\}\}/g

/** The variable numbers of `text`, in order of appearance (repeats kept). */
export const variablesOf = (text: string): ReadonlyArray<number> => [...text.matchAll(VARIABLE)].map((m) => Number(m[1]))

/** How many variables `text` holds: its highest number (valid texts number them 1…n). */
export const variableCount = (text: string | null): number => text === null ? 0 : Math.max(0, ...variablesOf(text))

/**
 * Why the variables of `text` are not numbered 1…n with none missing, or undefined when they are
 * (no variable at all is fine). `max` bounds how many it may hold (1 for a header).
 */
export const variableProblem = (text: string, max: number): string | undefined => {
  const numbers = new Set(variablesOf(text))
  if (numbers.size === 0) return undefined
  if (numbers.size > max) return max === 1 ? "may hold one variable, {{1}}" : `may hold at most ${max} variables`
  for (let n = 1; n <= numbers.size; n++) {
    if (!numbers.has(n)) return `must number its variables {{1}} to {{${numbers.size}}} with none missing`
  }
  return undefined
}

/** The text with each `{{n}}` replaced by `values[n - 1]` (a variable with no value is left as it is). */
export const fillVariables = (text: string, values: ReadonlyArray<string>): string =>
  text.replace(VARIABLE, (whole, n: string) => values[Number(n) - 1] ?? whole)

/** One variable's value as the caller gives it: the text itself, or the property of the contact to take it from. */
export type ParameterSource = string | { readonly property: string }

/** The values of a send, per component, as given. */
export interface ParameterSources {
  /** The body's values, `{{1}}` first. */
  readonly body: ReadonlyArray<ParameterSource>
  /** The text header's value, if it has a variable. */
  readonly header: ReadonlyArray<ParameterSource>
}

/** The values of a send, per component, as text: what the provider is given. */
export interface FilledParameters {
  /** The body's values, `{{1}}` first. */
  readonly body: ReadonlyArray<string>
  /** The text header's values. */
  readonly header: ReadonlyArray<string>
}

/** The samples of a template submitted for review: one text per variable, and a media header's sample. */
export interface TemplateExamples extends FilledParameters {
  /** A media header's sample: the handle of a file uploaded to Meta (its Resumable Upload API); null otherwise. */
  readonly headerHandle: string | null
}

/** A contact property's value as text: numbers and booleans written out, lists joined. */
const textOfValue = (value: unknown): string | undefined => {
  if (value === null || value === undefined) return undefined
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value)) return value.map((v) => textOfValue(v) ?? "").filter((v) => v !== "").join(", ")
  return undefined
}

/**
 * Fills the values of a send: each source's text, a property's from the contact's `values`
 * (keyed by internal name; `known` says which properties exist). Adds a Laravel-style message to
 * `errors` under `parameters.<component>.<i>` for every value missing, extra, blank, or naming a
 * property unknown or empty on the contact; answers the values only when there is none.
 */
export const fillParameters = (
  counts: { readonly body: number; readonly header: number },
  sources: ParameterSources,
  values: Readonly<Record<string, unknown>>,
  known: (property: string) => boolean,
  errors: Record<string, Array<string>>
): FilledParameters | undefined => {
  const add = (key: string, message: string) => {
    ;(errors[key] ??= []).push(message)
  }
  const before = Object.keys(errors).length
  const fill = (component: "body" | "header"): Array<string> => {
    const given = sources[component]
    const want = counts[component]
    const out: Array<string> = []
    for (let i = 0; i < Math.max(want, given.length); i++) {
      const key = `parameters.${component}.${i}`
      const source = given[i]
      if (i >= want) {
        add(key, `The ${key} field is prohibited: the template's ${component} has ${want} variable${want === 1 ? "" : "s"}.`)
        continue
      }
      if (source === undefined) {
        add(key, `The ${key} field is required.`)
        continue
      }
      if (typeof source === "string") {
        if (source.trim() === "") add(key, `The ${key} field is required.`)
        else out.push(source)
        continue
      }
      if (!known(source.property)) {
        add(`${key}.property`, `The selected ${key}.property is invalid.`)
        continue
      }
      const text = textOfValue(values[source.property])
      if (text === undefined || text.trim() === "") {
        add(`${key}.property`, `The contact has no value for ${source.property}.`)
        continue
      }
      out.push(text)
    }
    return out
  }
  const body = fill("body")
  const header = fill("header")
  return Object.keys(errors).length === before ? { body, header } : undefined
}
