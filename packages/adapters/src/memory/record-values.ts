/**
 * A record's values as the memory store writes and reads them, to the letter of the PostgreSQL
 * store (record-codec.ts):
 *
 * - A write names built-in and custom properties by internal_name. A name that is no writable
 *   property of the kind (unknown, derived, a link, a timestamp), a value not of its property's
 *   type and a built-in single_select value outside its options (the column's CHECK) are defects:
 *   the core validates bodies first, so only a broken caller sends one.
 * - "No value" (null, "", []) clears; a record never holds one. Numbers are held `+ 0` (no -0),
 *   datetimes as wire timestamps at the millisecond, dates as `YYYY-MM-DD` (a datetime input gives
 *   its UTC day), a multi_select without its duplicates (first order kept).
 * - A read shows the built-in values and the custom values of the definitions it is given, by
 *   internal_name; custom values are held by property id.
 * - Filters and ordering see a custom value only when it has its definition's stored form
 *   (`indexedValue`): PostgreSQL filters and orders on side rows that index a value under its
 *   property's type, and leaves out of them a value not of that form (after a type change whose
 *   conversions did not cover it), which then has no value there while reads still show it.
 *
 * @module
 */
import {
  BUILTIN_PROPERTIES,
  DERIVED_PROPERTIES,
  hasNoValue,
  isCustomPropertyOf,
  isPipelineStage,
  LINK_FILTERS,
  type ObjectKind,
  optionNames,
  type PropertyDefinition,
  type PropertyType,
  storageOf,
  type StoredValue
} from "@wasl/core/Records"
import { formatWireTimestamp, parseDateInput } from "@wasl/core/Wire"
import { DateTime, Option } from "effect"
import type { MemoryRecordRow } from "./record-tables.ts"

/** A value as a write gives it: a stored value, or no value (clears). */
export type WriteValue = StoredValue | null | undefined

const defect = (message: string): never => {
  throw new Error(`records: ${message}`)
}

const RECORD_ID = /^[0-9a-f]{24}$/
const DAY = /^\d{4}-\d{2}-\d{2}$/
const DATETIME_FORM = /^\d{4}-\d{2}-\d{2}T/

/** A name a custom property cannot take: a built-in's, a timestamp's, a link filter's (a deal's `contact_ids`). */
const shadowed = (kind: ObjectKind, name: string): boolean =>
  BUILTIN_PROPERTIES[kind].some((b) => b.internal_name === name) || name === "created_at" || name === "updated_at" ||
  LINK_FILTERS[kind].includes(name)

/**
 * The account's custom definitions of the kind, as the store reads them (built-ins and other
 * kinds' definitions are ignored). One whose name is a built-in's (or a timestamp's, or the deal
 * link filter's), or whose id is no record id, is a defect: the core never makes one.
 */
export const customOfKind = (
  kind: ObjectKind,
  definitions: ReadonlyArray<PropertyDefinition>
): ReadonlyArray<PropertyDefinition> => {
  const custom = definitions.filter((d) => isCustomPropertyOf(kind, d))
  for (const d of custom) {
    if (shadowed(kind, d.internal_name)) defect(`custom property "${d.internal_name}" of ${kind} shadows a built-in`)
    if (!RECORD_ID.test(d._id)) defect(`custom property id "${d._id}" is not 24 hex`)
  }
  return custom
}

const instantOf = (name: string, value: WriteValue): DateTime.Utc =>
  typeof value === "string" || typeof value === "number"
    ? Option.getOrElse(parseDateInput(value), () => defect(`${name}: not a date`))
    : defect(`${name}: not a date`)

/** One scalar in its stored form for a property of `type`. */
const storedScalar = (name: string, type: PropertyType, value: WriteValue): StoredValue => {
  switch (storageOf(type)) {
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? value + 0 : defect(`${name}: not a finite number`)
    case "boolean":
      return typeof value === "boolean" ? value : defect(`${name}: not a boolean`)
    case "datetime":
      return formatWireTimestamp(instantOf(name, value))
    case "date":
      return typeof value === "string" && DAY.test(value)
        ? value
        : DateTime.formatIso(instantOf(name, value)).slice(0, 10)
    case "text":
      return typeof value === "string" ? value : defect(`${name}: not a string`)
  }
}

const storedValue = (name: string, type: PropertyType, value: WriteValue): StoredValue => {
  if (type !== "multi_select") return storedScalar(name, type, value)
  if (!Array.isArray(value) || !value.every((e) => typeof e === "string" && e !== "")) {
    return defect(`${name}: not a list of option names`)
  }
  return [...new Set(value)]
}

/** A write applied to a row's values: built-ins by internal_name, custom values by property id. */
export const applyWrite = (
  row: Pick<MemoryRecordRow, "kind" | "builtin" | "custom">,
  custom: ReadonlyArray<PropertyDefinition>,
  values: Readonly<Record<string, WriteValue>>
): Pick<MemoryRecordRow, "builtin" | "custom"> => {
  const builtin: Record<string, StoredValue> = { ...row.builtin }
  const held: Record<string, StoredValue> = { ...row.custom }
  for (const [name, value] of Object.entries(values)) {
    const definition = BUILTIN_PROPERTIES[row.kind].find((d) => d.internal_name === name) ??
      custom.find((d) => d.internal_name === name)
    if (definition === undefined) return defect(`"${name}" is no property of ${row.kind}`)
    if (definition.builtin && DERIVED_PROPERTIES[row.kind].includes(name)) return defect(`${name} is derived`)
    const target = definition.builtin ? builtin : held
    const key = definition.builtin ? name : definition._id
    if (hasNoValue(value)) {
      delete target[key]
      continue
    }
    const stored = storedValue(name, definition.type, value)
    // A built-in single_select's column CHECKs its option names (a stage's are the account's
    // pipelines' stages, which the core checks).
    if (
      definition.builtin && definition.type === "single_select" && !isPipelineStage(definition) &&
      !optionNames(definition).includes(stored as string)
    ) {
      defect(`${name}: "${String(stored)}" is not an option`)
    }
    target[key] = stored
  }
  return { builtin, custom: held }
}

/** The values a read shows: the built-ins held, then the custom values of `custom` by internal_name. */
export const valuesOf = (
  row: MemoryRecordRow,
  custom: ReadonlyArray<PropertyDefinition>
): Record<string, StoredValue> => {
  const values: Record<string, StoredValue> = { ...row.builtin }
  for (const d of custom) {
    const value = row.custom[d._id]
    if (value !== undefined) values[d.internal_name] = value
  }
  return values
}

/** A held custom value as filters and ordering see it under its definition's type; undefined: none. */
export const indexedValue = (type: PropertyType, value: StoredValue | undefined): StoredValue | undefined => {
  if (value === undefined) return undefined
  if (type === "multi_select") {
    const elements = Array.isArray(value) ? value.filter((e) => e !== "") : []
    return elements.length === 0 ? undefined : elements
  }
  switch (storageOf(type)) {
    case "number":
      return typeof value === "number" ? value : undefined
    case "boolean":
      return typeof value === "boolean" ? value : undefined
    case "datetime":
      return typeof value === "string" && DATETIME_FORM.test(value) ? value : undefined
    case "date":
      return typeof value === "string" && DAY.test(value) ? value : undefined
    case "text":
      return typeof value === "string" && value !== "" ? value : undefined
  }
}
