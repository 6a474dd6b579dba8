/**
 * Property types and the little a filter needs to know about a property. The full property
 * definition model lives in property-definition.ts; this stays small and independent of it.
 */
import { Schema } from "effect"

/** The eleven types a property can have. */
export const PROPERTY_TYPES = [
  "string",
  "textarea",
  "number",
  "boolean",
  "date",
  "datetime",
  "single_select",
  "multi_select",
  "email",
  "phone",
  "url"
] as const

/** A property's type as a Schema. */
export const PropertyType: Schema.Literals<typeof PROPERTY_TYPES> = Schema.Literals(PROPERTY_TYPES)
/**
 * A property's type: free text (`string`, `textarea`, `email`, `phone`, `url`), `number`,
 * `boolean`, `date`, `datetime`, or a select (`single_select`, `multi_select`) with options.
 */
export type PropertyType = typeof PropertyType.Type

/** Types whose values are free text (compared case-insensitively, with substring tests). */
export const TEXT_PROPERTY_TYPES: readonly ["string", "textarea", "email", "phone", "url"] = [
  "string",
  "textarea",
  "email",
  "phone",
  "url"
] as const satisfies ReadonlyArray<PropertyType>

/** Whether values of the type are free text (see `TEXT_PROPERTY_TYPES`). */
export const isTextPropertyType = (type: PropertyType): boolean =>
  (TEXT_PROPERTY_TYPES as ReadonlyArray<PropertyType>).includes(type)

/**
 * How values of a property type are held by a store (and compared in filters and ordering):
 * every text-like type, the selects included, is text; the others are held as themselves.
 */
export type ValueStorage = "text" | "number" | "boolean" | "datetime" | "date"

/** The storage of values of `type` (see `ValueStorage`). */
export const storageOf = (type: PropertyType): ValueStorage =>
  type === "number" || type === "boolean" || type === "date" || type === "datetime" ? type : "text"

/** What a filter needs: the name, the type, and for selects the allowed option values. */
export interface FilterableProperty {
  /** The name a filter uses for the property. */
  readonly internal_name: string
  /** Its type, which decides the operators and values a filter may use. */
  readonly type: PropertyType
  /** The option values of a single_select / multi_select; absent: any value is accepted. */
  readonly options?: ReadonlyArray<string> | undefined
}

/** Every kind can be filtered on its timestamps. */
export const TIMESTAMP_FILTER_PROPERTIES: ReadonlyArray<FilterableProperty> = [
  { internal_name: "created_at", type: "datetime" },
  { internal_name: "updated_at", type: "datetime" }
]
