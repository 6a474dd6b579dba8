/**
 * The order of a record list, key for key as PostgreSQL's list statement sorts
 * (list-statement.ts, migration 0004):
 *
 * - by the value of the ordered property, then by `_id`, both in the direction; records without a
 *   value come last in either direction, by `_id` in the direction;
 * - text: its first 255 characters (code points) after case folding, in code-point order (the
 *   B-tree key `left(lower(v), 255) COLLATE "C"`), so texts equal in those compare by `_id`;
 *   a built-in single_select: its option name as it is;
 * - a set (multi_select, contact `deal_ids`, deal `contact_ids`): its distinct folded elements
 *   sorted in code-point order and joined by U+0001, first 255 characters;
 * - numbers numerically, booleans false first, datetimes by instant, dates by day;
 * - `created_at`, `updated_at` and the ticket counts: every record has a value.
 *
 * @module
 */
import {
  definitionsOf,
  foldCase,
  hasNoValue,
  LINK_FILTERS,
  type ObjectKind,
  type OrderDirection,
  type PropertyDefinition,
  type PropertyType
} from "@wasl/core/Records"
import { parseDateInput } from "@wasl/core/Wire"
import { DateTime, Option } from "effect"

/** A sort key: a number, or a string compared by code points. */
export type SortKey = string | number

/** The characters of a text sort key. */
export const TEXT_KEY_LENGTH = 255

/** Code-point order (UTF-16 code units misorder the astral planes against U+E000–U+FFFF). */
export const compareCodePoints = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    // Surrogates (U+D800–U+DFFF) stand for code points above U+FFFF: lift them above U+E000–U+FFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000
    }
    return x - y
  }
  return a.length - b.length
}

const firstCodePoints = (s: string, n: number): string => {
  let out = ""
  let count = 0
  for (const c of s) {
    if (count++ === n) break
    out += c
  }
  return out
}

const textKey = (s: string): string => firstCodePoints(foldCase(s), TEXT_KEY_LENGTH)

const setKey = (elements: ReadonlyArray<string>): string =>
  firstCodePoints([...new Set(elements.map(foldCase))].sort(compareCodePoints).join("\u0001"), TEXT_KEY_LENGTH)

/** What a key is made from: the property's type, and whether it is a built-in single_select. */
export interface OrderSpec {
  readonly type: PropertyType | "record_ids" | "timestamp"
  readonly asIs: boolean
}

/** How `order` sorts records of `kind` (`custom`: the kind's custom definitions); an unknown name is a defect. */
export const orderSpecOf = (kind: ObjectKind, custom: ReadonlyArray<PropertyDefinition>, order: string): OrderSpec => {
  if (order === "created_at" || order === "updated_at") return { type: "timestamp", asIs: false }
  if (LINK_FILTERS[kind].includes(order)) return { type: "record_ids", asIs: false }
  const definition = definitionsOf(kind, custom).find((d) => d.internal_name === order)
  if (definition === undefined) throw new Error(`records: "${order}" is no property of ${kind}`)
  return { type: definition.type, asIs: definition.builtin && definition.type === "single_select" }
}

/** The sort key of a listed value (record-derived.ts); undefined: the record has no value. */
export const sortKeyOf = (spec: OrderSpec, value: unknown): SortKey | undefined => {
  if (hasNoValue(value)) return undefined
  if (DateTime.isDateTime(value)) return DateTime.toEpochMillis(value)
  switch (spec.type) {
    case "number":
      return typeof value === "number" ? value : undefined
    case "boolean":
      return value === true ? 1 : 0
    case "datetime":
      return Option.match(parseDateInput(value), { onNone: () => undefined, onSome: DateTime.toEpochMillis })
    case "multi_select":
    case "record_ids":
      return Array.isArray(value) ? setKey(value) : undefined
    default:
      // Text, and a date as its `YYYY-MM-DD` day.
      return typeof value !== "string" ? undefined : spec.asIs || spec.type === "date" ? value : textKey(value)
  }
}

const compareKeys = (a: SortKey, b: SortKey): number =>
  typeof a === "number" && typeof b === "number" ? a - b : compareCodePoints(String(a), String(b))

const compareIds = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0

/** An entry's place in the order: its id and its key (undefined: no value). */
export interface OrderPlace {
  readonly id: string
  readonly key: SortKey | undefined
}

/** Compares two places in the order of the module comment (negative: `a` comes first). */
export const compareInOrder = (direction: OrderDirection) => (a: OrderPlace, b: OrderPlace): number => {
  const sign = direction === "asc" ? 1 : -1
  if (a.key === undefined || b.key === undefined) {
    if (a.key !== undefined) return -1
    if (b.key !== undefined) return 1
  } else {
    const byKey = compareKeys(a.key, b.key)
    if (byKey !== 0) return sign * byKey
  }
  return sign * compareIds(a.id, b.id)
}

/** Sorts entries in the order of the module comment. */
export const sortByKey = <T extends OrderPlace>(entries: ReadonlyArray<T>, direction: OrderDirection): Array<T> =>
  [...entries].sort(compareInOrder(direction))
