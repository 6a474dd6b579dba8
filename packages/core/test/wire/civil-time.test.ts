import { assert, describe, it } from "@effect/vitest"
import { DateTime, Option } from "effect"
import fc from "fast-check"
import { formatIsoMicros, parseDateInput, parseDayMillis, parseWireMillis } from "../../src/Wire.ts"

// The reference throughout is `Date`'s own formatting and parsing, as the code before civil-time.ts
// used them: `toISOString` plus three micro digits, and `Date.parse` behind a calendar check
// (`Date.parse` rolls 2026-02-30 over to March and 24:00 to the next day; Wasl refuses both).

const FIRST_0000 = Date.parse("0000-01-01T00:00:00Z")
const FIRST_0001 = Date.parse("0001-01-01T00:00:00Z")
const LAST_9999 = Date.parse("9999-12-31T23:59:59.999Z")
const DATE_LIMIT = 8.64e15

const pad = (n: number, width: number) => String(n).padStart(width, "0")
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!

const referenceFormat = (ms: number, micros: number) => `${new Date(ms).toISOString().slice(0, -1)}${pad(micros, 3)}Z`

const WIRE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):\d{2}:\d{2}\.\d{6}Z$/
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const isCalendar = (y: string, m: string, d: string, h = "00") =>
  Number(m) >= 1 && Number(m) <= 12 && Number(d) >= 1 && Number(d) <= daysIn(Number(y), Number(m)) && Number(h) <= 23

const referenceWire = (text: string) => {
  const match = WIRE.exec(text)
  return match !== null && isCalendar(match[1]!, match[2]!, match[3]!, match[4]!)
    ? Date.parse(`${text.slice(0, 23)}Z`)
    : Number.NaN
}
const referenceDay = (text: string) => {
  const match = DAY.exec(text)
  return match !== null && isCalendar(match[1]!, match[2]!, match[3]!) ? Date.parse(text) : Number.NaN
}

const FourDigitMillis = fc.integer({ min: FIRST_0000, max: LAST_9999 })
const MicrosOfMilli = fc.integer({ min: 0, max: 999 })

/** Wire-shaped text with each field drawn from 00 to 99 (or 0000–9999): real instants and impossible ones. */
const WireShaped = fc.record({
  year: fc.integer({ min: 0, max: 9999 }),
  month: fc.integer({ min: 0, max: 99 }),
  day: fc.integer({ min: 0, max: 99 }),
  hour: fc.integer({ min: 0, max: 99 }),
  minute: fc.integer({ min: 0, max: 99 }),
  second: fc.integer({ min: 0, max: 99 }),
  fraction: fc.integer({ min: 0, max: 999_999 })
}).map((f) =>
  `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}T${pad(f.hour, 2)}:${pad(f.minute, 2)}:${pad(f.second, 2)}.${
    pad(f.fraction, 6)
  }Z`
)

/** The same, kept within plausible ranges so that most are real and the edges (day 28–31, 23:59:59) are dense. */
const NearlyReal = fc.record({
  year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 100, 1600, 1900, 1969, 1970, 2000, 2024, 2100, 9999)),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 27, max: 31 }),
  hour: fc.constantFrom(0, 23, 24),
  minute: fc.constantFrom(0, 59, 60),
  second: fc.constantFrom(0, 59, 60),
  fraction: fc.constantFrom(0, 999_999, 123_456)
}).map((f) =>
  `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}T${pad(f.hour, 2)}:${pad(f.minute, 2)}:${pad(f.second, 2)}.${
    pad(f.fraction, 6)
  }Z`
)

const sameNumber = (actual: number, expected: number, text: string) =>
  assert.isTrue(Object.is(actual, expected), `${text}: ${actual} instead of ${expected}`)

/** A fast-check property as a test (`it.prop` takes Schemas; these arbitraries are fast-check's own). */
const prop = <Ts extends [unknown, ...Array<unknown>]>(
  name: string,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  check: (values: Ts) => void,
  numRuns = 100
) => it(name, () => fc.assert(fc.property(...arbitraries, (...values) => check(values as unknown as Ts)), { numRuns }))

describe("formatIsoMicros", () => {
  prop("is toISOString with three micro digits over the years 0000–9999", [FourDigitMillis, MicrosOfMilli], ([ms, us]) => {
    assert.strictEqual(formatIsoMicros(ms, us), referenceFormat(ms, us))
  }, 5000)

  prop("and over the whole range of Date (six-digit years)", [fc.integer({ min: -DATE_LIMIT, max: DATE_LIMIT })], ([ms]) => {
    assert.strictEqual(formatIsoMicros(ms, 7), referenceFormat(ms, 7))
  })

  prop("at every midnight and the last millisecond of every day", [fc.integer({ min: -719_528, max: 2_932_896 })], ([days]) => {
    for (const ms of [days * 86_400_000, days * 86_400_000 + 86_399_999]) {
      assert.strictEqual(formatIsoMicros(ms, 0), referenceFormat(ms, 0))
    }
  }, 3000)

  it.each([
    ["0000-01-01T00:00:00.000000Z", FIRST_0000, 0],
    ["0001-01-01T00:00:00.000000Z", FIRST_0001, 0],
    ["9999-12-31T23:59:59.999999Z", LAST_9999, 999],
    ["1969-12-31T23:59:59.999999Z", -1, 999],
    ["1970-01-01T00:00:00.000001Z", 0, 1],
    ["2000-02-29T12:00:00.000000Z", Date.UTC(2000, 1, 29, 12), 0],
    ["2024-02-29T23:59:59.999000Z", Date.UTC(2024, 1, 29, 23, 59, 59, 999), 0],
    ["1900-02-28T00:00:00.000000Z", Date.UTC(1900, 1, 28), 0],
    ["1900-03-01T00:00:00.000000Z", Date.UTC(1900, 2, 1), 0],
    ["2026-12-31T23:59:59.999000Z", Date.UTC(2026, 11, 31, 23, 59, 59, 999), 0],
    ["-000001-12-31T23:59:59.999000Z", FIRST_0000 - 1, 0],
    ["+010000-01-01T00:00:00.000000Z", LAST_9999 + 1, 0]
  ])("writes %s", (expected, ms, us) => {
    assert.strictEqual(formatIsoMicros(ms, us), expected)
    assert.strictEqual(referenceFormat(ms, us), expected)
  })

  it("throws as toISOString does past the range of Date", () => {
    for (const ms of [DATE_LIMIT + 1, -DATE_LIMIT - 1, Number.NaN]) {
      assert.throws(() => formatIsoMicros(ms, 0), RangeError)
    }
  })
})

describe("parseWireMillis", () => {
  prop("reads back what formatIsoMicros writes, micro digits dropped (0000–9999)", [FourDigitMillis, MicrosOfMilli], ([ms, us]) => {
    sameNumber(parseWireMillis(formatIsoMicros(ms, us)), ms, formatIsoMicros(ms, us))
  }, 5000)

  prop("accepts and refuses what Date.parse behind the calendar check does", [fc.oneof(WireShaped, NearlyReal)], ([text]) => {
    sameNumber(parseWireMillis(text), referenceWire(text), text)
  }, 5000)

  prop("refuses any string not of the wire form", [fc.string({ maxLength: 30 })], ([text]) => {
    if (!WIRE.test(text)) sameNumber(parseWireMillis(text), Number.NaN, text)
  })

  prop("refuses the wire form with any one character replaced by another", [FourDigitMillis, fc.nat(26), fc.integer({ min: 0, max: 0xffff })], ([ms, at, code]) => {
    const text = formatIsoMicros(ms, 0)
    const changed = text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1)
    sameNumber(parseWireMillis(changed), referenceWire(changed), changed)
  }, 3000)

  it.each([
    ["2000-02-29T00:00:00.000000Z", Date.UTC(2000, 1, 29)],
    ["2024-02-29T12:34:56.789123Z", Date.UTC(2024, 1, 29, 12, 34, 56, 789)],
    ["0001-01-01T00:00:00.000000Z", FIRST_0001],
    ["0000-01-01T00:00:00.000000Z", FIRST_0000],
    ["9999-12-31T23:59:59.999999Z", LAST_9999],
    ["1969-12-31T23:59:59.999999Z", -1],
    ["1970-01-01T00:00:00.000000Z", 0],
    ["2026-01-31T00:00:00.000000Z", Date.UTC(2026, 0, 31)],
    ["2026-04-30T23:59:59.000000Z", Date.UTC(2026, 3, 30, 23, 59, 59)]
  ])("reads %s", (text, ms) => {
    sameNumber(parseWireMillis(text), ms, text)
    sameNumber(referenceWire(text), ms, text)
  })

  it.each([
    "1900-02-29T00:00:00.000000Z",
    "2026-02-29T00:00:00.000000Z",
    "2026-02-30T00:00:00.000000Z",
    "2026-04-31T00:00:00.000000Z",
    "2026-13-01T00:00:00.000000Z",
    "2026-00-01T00:00:00.000000Z",
    "2026-01-00T00:00:00.000000Z",
    "2026-01-32T00:00:00.000000Z",
    "2026-01-01T24:00:00.000000Z",
    "2026-01-01T23:60:00.000000Z",
    "2026-01-01T23:59:60.000000Z",
    "2026-01-01T00:00:00.000000z",
    "2026-01-01t00:00:00.000000Z",
    "2026-01-01 00:00:00.000000Z",
    "2026-01-01T00:00:00.00000Z",
    "2026-01-01T00:00:00.0000000Z",
    "2026-01-01T00:00:00.000000+00:00",
    "+02026-01-01T00:00:00.00000Z",
    "２０２６-01-01T00:00:00.000000Z",
    "2026-01-01T00:00:00.00000 Z",
    "2026-01-01T00:00:00.-00000Z",
    ""
  ])("refuses %j", (text) => {
    sameNumber(parseWireMillis(text), Number.NaN, text)
    sameNumber(referenceWire(text), Number.NaN, text)
  })
})

describe("parseDayMillis", () => {
  prop("reads every day of the years 0000–9999 as its midnight, as Date.parse does", [fc.integer({ min: -719_528, max: 2_932_896 })], ([days]) => {
    const text = new Date(days * 86_400_000).toISOString().slice(0, 10)
    sameNumber(parseDayMillis(text), days * 86_400_000, text)
  }, 3000)

  prop("accepts and refuses what Date.parse behind the calendar check does", [fc.record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 })
  })], ([f]) => {
    const text = `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}`
    sameNumber(parseDayMillis(text), referenceDay(text), text)
  }, 3000)

  prop("refuses any string not of the form", [fc.string({ maxLength: 12 })], ([text]) => {
    if (!DAY.test(text)) sameNumber(parseDayMillis(text), Number.NaN, text)
  })

  it("reads and refuses February 29, March 1 and December 31–32 of every year 0000–9999 as the reference does", () => {
    for (let year = 0; year <= 9999; year++) {
      for (const day of ["02-28", "02-29", "02-30", "03-01", "12-31", "12-32"]) {
        const text = `${pad(year, 4)}-${day}`
        sameNumber(parseDayMillis(text), referenceDay(text), text)
      }
    }
  })

  it.each(["1800-02-29", "1900-02-29", "2100-02-29", "2200-02-29", "2026-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-10", "2026/01/10", "2026-01-10T", ""])(
    "refuses %j",
    (text) => sameNumber(parseDayMillis(text), Number.NaN, text)
  )

  it.each([["1600-02-29", Date.UTC(1600, 1, 29)], ["2000-02-29", Date.UTC(2000, 1, 29)], ["2024-02-29", Date.UTC(2024, 1, 29)], ["2400-02-29", Date.UTC(2400, 1, 29)], ["0001-01-01", FIRST_0001], ["9999-12-31", Date.UTC(9999, 11, 31)]])(
    "reads %s",
    (text, ms) => sameNumber(parseDayMillis(text), ms, text)
  )
})

describe("parseDateInput on the forms Wasl writes", () => {
  // Those naming no real instant fall through to the general path, which must refuse them too.
  const storedMillis = (reference: number) =>
    Number.isNaN(reference) || reference < FIRST_0001 || reference > LAST_9999 ? undefined : reference
  const DayShaped = fc.record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 })
  }).map((f) => `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}`)

  prop("accepts and refuses what the reference does, in the years 0001–9999", [fc.oneof(WireShaped, NearlyReal, DayShaped)], ([text]) => {
    const expected = storedMillis(text.length === 10 ? referenceDay(text) : referenceWire(text))
    assert.strictEqual(Option.getOrUndefined(Option.map(parseDateInput(text), DateTime.toEpochMillis)), expected, text)
  }, 3000)
})
