/**
 * A record as a CSV row: each column's value as the API shows it, written as text a spreadsheet
 * reads back, and guarded against formula injection.
 *
 * - null or absent: an empty cell; text as it is; numbers in JavaScript's shortest form;
 *   booleans `true`/`false`; timestamps are already the API's ISO text;
 * - a list (multi-select values, linked ids): its elements joined with `;`; an object (a deal's
 *   linked contact summary): its JSON.
 *
 * Text cells get the formula guard of every CSV Wasl writes (formula-guard.ts). Numbers are left
 * alone: a negative amount stays a number (`-5`), and no number can hold a formula.
 */
import type { RecordJson } from "../records/record-shape.ts"
import { guardFormula } from "../wire/formula-guard.ts"

const elementText = (value: unknown): string =>
  value === null || value === undefined
    ? ""
    : typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : JSON.stringify(value)

/** One value as its cell. */
export const cellOf = (value: unknown): string => {
  if (typeof value === "number") return String(value)
  if (Array.isArray(value)) return guardFormula(value.map(elementText).join(";"))
  return guardFormula(elementText(value))
}

/** A record's row: its values under `columns`, in order. */
export const csvRowOf = (record: RecordJson, columns: ReadonlyArray<string>): ReadonlyArray<string> =>
  columns.map((column) => cellOf(record.properties[column]))
