/** A property value as text for the page, and form text back to the value the API takes. */
import type { Schemas } from "../api/client"
import { type Language, localized } from "../i18n/i18n"

type Property = Schemas["PropertyView"]

const isDateObject = (value: unknown): value is { $date: { $numberLong: string } } =>
  typeof value === "object" && value !== null && "$date" in value

/** The value's epoch milliseconds or ISO text as a Date, for dates in either form the API writes. */
const asDate = (value: unknown): Date | undefined =>
  isDateObject(value) ? new Date(Number(value.$date.$numberLong)) : typeof value === "string" ? new Date(value) : undefined

const optionLabel = (property: Property | undefined, value: unknown, language: Language): string => {
  const option = property?.enum?.find((entry) => entry.internal_name === value)
  return option ? localized(option, language) || option.internal_name : String(value)
}

export const displayValue = (value: unknown, property: Property | undefined, language: Language): string => {
  if (value === null || value === undefined || value === "") return ""
  if (property?.type === "date" || property?.type === "datetime" || isDateObject(value)) {
    const date = asDate(value)
    if (date && !Number.isNaN(date.getTime())) {
      return new Intl.DateTimeFormat(language, property?.type === "date" ? { dateStyle: "medium" } : { dateStyle: "medium", timeStyle: "short" }).format(date)
    }
  }
  if (Array.isArray(value)) return value.map((item) => optionLabel(property, item, language)).join(", ")
  if (typeof value === "boolean") return value ? "✓" : "✗"
  if (typeof value === "object") return JSON.stringify(value)
  return optionLabel(property, value, language)
}

/** The value as a form control holds it. */
export const formText = (value: unknown, property: Property): string | ReadonlyArray<string> => {
  if (value === null || value === undefined) return property.type === "multi_select" ? [] : ""
  if (property.type === "multi_select") return Array.isArray(value) ? value.map(String) : []
  if (property.type === "date" || property.type === "datetime") {
    const date = asDate(value)
    if (!date || Number.isNaN(date.getTime())) return ""
    return property.type === "date" ? date.toISOString().slice(0, 10) : date.toISOString().slice(0, 16)
  }
  return String(value)
}

/** The form's text as the API takes it (null clears the value). */
export const fromFormText = (text: string | ReadonlyArray<string>, property: Property): unknown => {
  if (Array.isArray(text)) return text
  const value = (text as string).trim()
  if (property.type === "boolean") return value === "true"
  if (value === "") return null
  switch (property.type) {
    case "number":
      return Number.isNaN(Number(value)) ? value : Number(value)
    case "datetime":
      return new Date(`${value}Z`).toISOString()
    default:
      return value
  }
}
