/**
 * Property types (decisions §5) and the little a filter needs to know about a property. The full
 * property definition model lives elsewhere; this stays small and independent of it.
 */
import { Schema } from "effect"

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

export const PropertyType = Schema.Literals(PROPERTY_TYPES)
export type PropertyType = typeof PropertyType.Type

/** Types whose values are free text (compared case-insensitively, with substring tests). */
export const TEXT_PROPERTY_TYPES = ["string", "textarea", "email", "phone", "url"] as const satisfies ReadonlyArray<PropertyType>

export const isTextPropertyType = (type: PropertyType): boolean =>
  (TEXT_PROPERTY_TYPES as ReadonlyArray<PropertyType>).includes(type)

/** What a filter needs: the name, the type, and for selects the allowed option values. */
export interface FilterableProperty {
  readonly internal_name: string
  readonly type: PropertyType
  /** The option values of a single_select / multi_select; absent: any value is accepted. */
  readonly options?: ReadonlyArray<string> | undefined
}

/** Every kind can be filtered on its timestamps. */
export const TIMESTAMP_FILTER_PROPERTIES: ReadonlyArray<FilterableProperty> = [
  { internal_name: "created_at", type: "datetime" },
  { internal_name: "updated_at", type: "datetime" }
]
