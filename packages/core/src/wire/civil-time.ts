/**
 * ISO 8601 UTC text ↔ epoch milliseconds by digit arithmetic, for the two forms Wasl writes itself:
 * `YYYY-MM-DDTHH:MM:SS.ffffffZ` (every timestamp of a row and of an answer) and `YYYY-MM-DD`.
 *
 * Written by hand rather than taken from a library because `Date`'s own `toISOString` and
 * `Date.parse` are the slow part: a Struct of 16 wire timestamps cost 41 µs to decode and 21.5 µs
 * to encode (2.5 and 1.3 µs a timestamp) against 1.9 and 2.9 µs for 16 `Schema.DateTimeUtc`, and
 * the Date-based format and parse with their regexes were half of that profile. Reading and writing
 * the digits here made that Struct 2.0–2.4x faster to decode and 2.2–2.8x to encode (same runs,
 * shared machine), the timestamptz codec's text 3.5–6x faster, and took the timestamp code of
 * `GET /api/me` from 3.2 % to 0.7 % of the server's busy time.
 * The date libraries (date-fns, dayjs, luxon) format and parse through a `Date` themselves. The
 * calendar arithmetic is Howard Hinnant's `days_from_civil` / `civil_from_days` (proleptic
 * Gregorian, as `Date` and PostgreSQL reckon); the results are `Date`'s to the byte
 * (test/wire/civil-time.test.ts).
 *
 * @module
 */

const MS_PER_DAY = 86_400_000
/** Days from 0000-03-01 (where Hinnant's eras start) to 1970-01-01. */
const EPOCH_SHIFT_DAYS = 719_468
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the years written with four digits. */
const FIRST_FOUR_DIGIT_MS = -62_167_219_200_000
const LAST_FOUR_DIGIT_MS = 253_402_300_799_999

/** Character codes of the wire forms, written and read: "0" (a digit's is "0" + the digit), "-", "T", ":", ".", "Z". */
const ZERO = 48
const DASH = 45
const T = 84
const COLON = 58
const DOT = 46
const Z = 90

/** The character code of `n`'s digit at `place` (1, 10, 100 or 1000). */
const digit = (n: number, place: number) => ZERO + Math.floor(n / place) % 10

/**
 * `new Date(epochMillis).toISOString()` with three more fraction digits, `microsOfMilli` (an
 * integer 0–999): `2026-11-21T17:24:05.123456Z`. Outside the years 0000–9999 `Date` writes a
 * signed six-digit year (and throws past its range); that rare text is left to it.
 */
export const formatIsoMicros = (epochMillis: number, microsOfMilli: number): string => {
  if (!(epochMillis >= FIRST_FOUR_DIGIT_MS && epochMillis <= LAST_FOUR_DIGIT_MS)) {
    return `${new Date(epochMillis).toISOString().slice(0, -1)}${String(microsOfMilli).padStart(3, "0")}Z`
  }
  const days = Math.floor(epochMillis / MS_PER_DAY)
  const msOfDay = epochMillis - days * MS_PER_DAY
  // civil_from_days: an era is 400 years (146097 days), each year starting on March 1.
  const z = days + EPOCH_SHIFT_DAYS
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const seconds = Math.floor(msOfDay / 1000)
  const hour = Math.floor(seconds / 3600)
  const minute = Math.floor(seconds / 60) % 60
  const second = seconds % 60
  const milli = msOfDay - seconds * 1000
  // One flat string from its 27 character codes: a chain of concatenations made about 18
  // intermediate strings per timestamp (≈ 10 KB of garbage per `GET /api/me`), and took twice as long.
  return String.fromCharCode(
    digit(year, 1000), digit(year, 100), digit(year, 10), digit(year, 1), DASH,
    digit(month, 10), digit(month, 1), DASH, digit(day, 10), digit(day, 1), T,
    digit(hour, 10), digit(hour, 1), COLON, digit(minute, 10), digit(minute, 1), COLON,
    digit(second, 10), digit(second, 1), DOT,
    digit(milli, 100), digit(milli, 10), digit(milli, 1),
    digit(microsOfMilli, 100), digit(microsOfMilli, 10), digit(microsOfMilli, 1), Z
  )
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Days from 1970-01-01 to a valid date (days_from_civil). */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - EPOCH_SHIFT_DAYS
}

/**
 * Epoch ms of a UTC date and time, or NaN unless it is a real one: a month of the year, a day of
 * that month (2026-02-30 is not rolled over to March as `Date.UTC` would), hour 0–23, minute and
 * second 0–59 (`Date.parse` refuses a leap second 60 and its 24:00 is refused here too).
 */
export const utcMillis = (
  year: number, month: number, day: number, hour: number, minute: number, second: number, milli: number
): number => {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return Number.NaN
  if (day > (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!)) return Number.NaN
  return daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + milli
}

/** The number written by the two ASCII digits at `at`, or -1 when either is not one. */
const twoDigitsAt = (text: string, at: number): number => {
  const tens = text.charCodeAt(at) - 48
  const ones = text.charCodeAt(at + 1) - 48
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1
}

/** Whether `text` starts with `YYYY-MM-DD` (digits not yet checked). */
const hasDateSeparators = (text: string) => text.charCodeAt(4) === DASH && text.charCodeAt(7) === DASH

/**
 * Epoch ms of `YYYY-MM-DDTHH:MM:SS.ffffffZ` (the last three digits, below JS's millisecond,
 * dropped), or NaN when the text is not exactly that form or names no real instant.
 */
export const parseWireMillis = (text: string): number => {
  if (
    text.length !== 27 || !hasDateSeparators(text) || text.charCodeAt(10) !== T || text.charCodeAt(13) !== COLON ||
    text.charCodeAt(16) !== COLON || text.charCodeAt(19) !== DOT || text.charCodeAt(26) !== Z
  ) {
    return Number.NaN
  }
  // Read two digits at a time, the fraction's six too: milliseconds are its first three.
  const centuries = twoDigitsAt(text, 0)
  const years = twoDigitsAt(text, 2)
  const month = twoDigitsAt(text, 5)
  const day = twoDigitsAt(text, 8)
  const hour = twoDigitsAt(text, 11)
  const minute = twoDigitsAt(text, 14)
  const second = twoDigitsAt(text, 17)
  const fraction12 = twoDigitsAt(text, 20)
  const fraction34 = twoDigitsAt(text, 22)
  const fraction56 = twoDigitsAt(text, 24)
  if ((centuries | years | month | day | hour | minute | second | fraction12 | fraction34 | fraction56) < 0) {
    return Number.NaN
  }
  const milli = fraction12 * 10 + Math.floor(fraction34 / 10)
  return utcMillis(centuries * 100 + years, month, day, hour, minute, second, milli)
}

/** Epoch ms of the midnight UTC that starts `YYYY-MM-DD`, or NaN when the text is not a real date of that form. */
export const parseDayMillis = (text: string): number => {
  if (text.length !== 10 || !hasDateSeparators(text)) return Number.NaN
  const centuries = twoDigitsAt(text, 0)
  const years = twoDigitsAt(text, 2)
  const month = twoDigitsAt(text, 5)
  const day = twoDigitsAt(text, 8)
  if ((centuries | years | month | day) < 0) return Number.NaN
  return utcMillis(centuries * 100 + years, month, day, 0, 0, 0, 0)
}
