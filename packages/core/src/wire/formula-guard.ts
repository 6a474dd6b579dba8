/**
 * The guard every CSV Wasl writes puts on its text cells against formula injection (OWASP "CSV
 * Injection"): a spreadsheet runs a cell beginning with `=`, `+`, `-` or `@` as a formula, and
 * some also after a leading tab or carriage return. Such a cell gets a leading `'`, which
 * spreadsheets show as text and hide.
 */

/** Where a cell must not begin: the characters that make a spreadsheet read a formula. */
const FORMULA_START = /^[=+\-@\t\r]/

/** The cell text of `text`, with a `'` before a beginning that would start a formula. */
export const guardFormula = (text: string): string => FORMULA_START.test(text) ? `'${text}` : text
