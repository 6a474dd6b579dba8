import { assert, describe, it } from "@effect/vitest"
import { DateTime, Exit, Option, Schema } from "effect"
import {
  DateInput,
  formatSqlDateTime,
  formatWireTimestamp,
  isStorableInstant,
  MongoDate,
  parseDateInput,
  storableWireMillis,
  WireTimestamp
} from "../../src/Wire.ts"

const WIRE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const SQL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

/** Epoch milliseconds from 1970-01-01 to the end of 9999. */
const MAX_MILLIS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
/** The first millisecond of the year 0001 (PostgreSQL has no year 0000). */
const MIN_MILLIS = Date.parse("0001-01-01T00:00:00Z")
const EpochMillis = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_MILLIS }))
const Micros = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 999 }))

const encodeWire = Schema.encodeSync(WireTimestamp)
const decodeWire = Schema.decodeUnknownExit(WireTimestamp)
const encodeMongo = Schema.encodeSync(MongoDate)
const decodeMongo = Schema.decodeUnknownExit(MongoDate)

const utc = (ms: number) => DateTime.makeUnsafe(ms)
const millisOf = (exit: Exit.Exit<DateTime.Utc, unknown>) =>
  Exit.isSuccess(exit) ? DateTime.toEpochMillis(exit.value) : undefined

/** A typed failure (a 422), not a defect (a 500). */
const isRejection = (exit: Exit.Exit<unknown, unknown>) => Exit.isFailure(exit) && !Exit.hasDies(exit)

const pad = (n: number, width: number) => String(n).padStart(width, "0")
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!

describe("WireTimestamp", () => {
  it.prop("encode always gives YYYY-MM-DDTHH:MM:SS.ffffffZ", [EpochMillis], ([ms]) => {
    const wire = encodeWire(utc(ms))
    assert.match(wire, WIRE)
    // JS time is milliseconds: the three extra microsecond digits are zero.
    assert.isTrue(wire.endsWith("000Z"))
    assert.strictEqual(wire, formatWireTimestamp(utc(ms)))
  })

  it.prop("decode ∘ encode is the identity on instants (1970–9999)", [EpochMillis], ([ms]) => {
    assert.strictEqual(millisOf(decodeWire(encodeWire(utc(ms)))), ms)
  })

  it.prop("encode ∘ decode keeps the string up to the millisecond", [EpochMillis, Micros], ([ms, micros]) => {
    const wire = encodeWire(utc(ms)).slice(0, 23) + pad(micros, 3) + "Z"
    const exit = decodeWire(wire)
    assert.strictEqual(millisOf(exit), ms)
    assert.strictEqual(encodeWire((exit as Exit.Success<DateTime.Utc>).value), wire.slice(0, 23) + "000Z")
  })

  const Storable = Schema.Int.check(Schema.isBetween({ minimum: MIN_MILLIS, maximum: MAX_MILLIS }))

  it.prop("encode is toISOString's text to the millisecond then 000Z, before 1970 too", [Storable], ([ms]) => {
    assert.strictEqual(encodeWire(utc(ms)), `${new Date(ms).toISOString().slice(0, 23)}000Z`)
  })

  it.prop("decode ∘ encode is the identity on instants (0001–9999)", [Storable], ([ms]) => {
    assert.strictEqual(millisOf(decodeWire(encodeWire(utc(ms)))), ms)
  })

  it.prop("a zoned DateTime encodes as its UTC instant", [EpochMillis], ([ms]) => {
    const zoned = DateTime.makeZonedUnsafe(ms, { timeZone: "Asia/Kolkata" })
    assert.strictEqual(formatWireTimestamp(zoned), encodeWire(utc(ms)))
  })

  it("decodes the documented example (2026-11-21T17:24:05.123456Z)", () => {
    const exit = decodeWire("2026-11-21T17:24:05.123456Z")
    assert.strictEqual(millisOf(exit), Date.UTC(2026, 10, 21, 17, 24, 5, 123))
  })

  it.prop("rejects any string not of the wire form", [Schema.String], ([s]) => {
    if (WIRE.test(s)) return
    assert.isTrue(isRejection(decodeWire(s)), s)
  })

  it.prop("rejects non-strings", [Schema.Union([Schema.Number, Schema.Boolean, Schema.Null])], ([u]) => {
    assert.isTrue(isRejection(decodeWire(u)))
  })

  it.each([
    "2026-11-21T17:24:05.123Z",
    "2026-11-21T17:24:05Z",
    "2026-11-21T17:24:05.1234567Z",
    "2026-11-21T17:24:05.123456",
    "2026-11-21T17:24:05.123456+00:00",
    "2026-11-21 17:24:05.123456Z",
    " 2026-11-21T17:24:05.123456Z",
    "2026-11-21T17:24:05.123456Z\n",
    "2026-1-21T17:24:05.123456Z",
    "2026-13-01T00:00:00.000000Z",
    "2026-00-10T00:00:00.000000Z",
    "2026-01-00T00:00:00.000000Z",
    "2026-01-32T00:00:00.000000Z",
    "2026-01-01T25:00:00.000000Z",
    "2026-01-01T00:60:00.000000Z",
    "2026-01-01T00:00:60.000000Z",
    "",
    "now"
  ])("rejects malformed %j", (s) => {
    assert.isTrue(isRejection(decodeWire(s)), s)
  })

  // Calendar-impossible dates must be rejected, not rolled over by `Date`
  // (2026-02-30 would otherwise silently become 2026-03-02).
  it.each([
    "2026-02-29T00:00:00.000000Z",
    "2026-02-30T00:00:00.000000Z",
    "2024-02-30T00:00:00.000000Z",
    "2026-04-31T00:00:00.000000Z",
    "2026-11-31T12:00:00.000000Z",
    "2026-01-01T24:00:00.000000Z"
  ])("rejects the impossible date %s", (s) => {
    assert.isTrue(isRejection(decodeWire(s)), s)
  })

  const Fields = Schema.Struct({
    year: Schema.Int.check(Schema.isBetween({ minimum: 1970, maximum: 9999 })),
    month: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
    day: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 31 })),
    hour: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 24 })),
    minute: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 59 })),
    second: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 59 })),
    micros: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 999_999 }))
  })

  it.prop(
    "accepts a well-shaped string iff it names a real instant, and then keeps every field",
    [Fields],
    ([f]) => {
      const wire = `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}T${pad(f.hour, 2)}:${pad(f.minute, 2)}:${
        pad(f.second, 2)
      }.${pad(f.micros, 6)}Z`
      const real = f.day <= daysIn(f.year, f.month) && f.hour <= 23
      const exit = decodeWire(wire)
      if (!real) {
        assert.isTrue(isRejection(exit), `${wire} should be rejected`)
        return
      }
      assert.isTrue(Exit.isSuccess(exit), wire)
      const back = encodeWire((exit as Exit.Success<DateTime.Utc>).value)
      assert.strictEqual(back, wire.slice(0, 23) + "000Z")
    },
    { arbitrary: { runs: 500 } }
  )
})

describe("MongoDate", () => {
  it.prop("encodes { $date: { $numberLong: \"<epoch ms>\" } }", [EpochMillis], ([ms]) => {
    assert.deepStrictEqual(encodeMongo(utc(ms)), { $date: { $numberLong: String(ms) } })
  })

  it.prop("decode ∘ encode is the identity", [EpochMillis], ([ms]) => {
    assert.strictEqual(millisOf(decodeMongo(encodeMongo(utc(ms)))), ms)
  })

  it.prop("decodes negative epoch ms (before 1970, from the year 0001) too", [Schema.Int.check(Schema.isBetween({ minimum: MIN_MILLIS, maximum: 0 }))], ([ms]) => {
    assert.strictEqual(millisOf(decodeMongo({ $date: { $numberLong: String(ms) } })), ms)
  })

  it.each([
    { $date: { $numberLong: 1700000000000 } },
    { $date: { $numberLong: "17e11" } },
    { $date: { $numberLong: "" } },
    { $date: "2026-01-01T00:00:00Z" },
    { $numberLong: "1700000000000" },
    "1700000000000",
    null
  ])("rejects malformed %j", (u) => {
    assert.isTrue(isRejection(decodeMongo(u)))
  })

  // `$numberLong` admits 16 digits, but `Date` only reaches ±8.64e15 ms: out of
  // range must be a schema failure (422), not a defect thrown by makeUnsafe.
  it.each(["9999999999999999", "-9999999999999999", "8640000000000001"])(
    "rejects the out-of-range $numberLong %s as a failure, not a defect",
    (n) => {
      const exit = decodeMongo({ $date: { $numberLong: n } })
      assert.isTrue(isRejection(exit))
      assert.isTrue(Option.isNone(parseDateInput({ $date: { $numberLong: n } })))
      assert.isTrue(isRejection(Schema.decodeUnknownExit(DateInput)({ $date: { $numberLong: n } })))
    }
  )
})

describe("isStorableInstant: the years 0001–9999 only", () => {
  const OutOfRange = Schema.Union([
    Schema.Int.check(Schema.isBetween({ minimum: MAX_MILLIS + 1, maximum: 8.64e15 })),
    Schema.Int.check(Schema.isBetween({ minimum: -8.64e15, maximum: MIN_MILLIS - 1 }))
  ])

  it("holds from 0001-01-01 to 9999-12-31 inclusive", () => {
    assert.isTrue(isStorableInstant(utc(MIN_MILLIS)))
    assert.isTrue(isStorableInstant(utc(MAX_MILLIS)))
    assert.isFalse(isStorableInstant(utc(MIN_MILLIS - 1)))
    assert.isFalse(isStorableInstant(utc(MAX_MILLIS + 1)))
  })

  it("refuses the year 0000 in every input form, as a failure (422), not a defect", () => {
    for (const wire of ["0000-01-01T00:00:00.000000Z", "0000-12-31T23:59:59.999000Z"]) {
      assert.isTrue(isRejection(decodeWire(wire)), wire)
    }
    for (const input of ["0000-01-01", "0000-06-15T12:00:00Z", "0001-01-01T00:30:00+01:00"]) {
      assert.isTrue(Option.isNone(parseDateInput(input)), input)
    }
    assert.isTrue(Option.isSome(parseDateInput("0001-01-01")))
  })

  it.prop("refuses epoch ms and $date objects outside the years", [OutOfRange], ([ms]) => {
    assert.isTrue(Option.isNone(parseDateInput(ms)))
    assert.isTrue(isRejection(decodeMongo({ $date: { $numberLong: String(ms) } })))
    assert.isTrue(isRejection(Schema.decodeUnknownExit(DateInput)(ms)))
  })
})

describe("parseDateInput and DateInput", () => {
  const decodeInput = Schema.decodeUnknownExit(DateInput)
  const encodeInput = Schema.encodeSync(DateInput)

  it.prop("an ISO string, epoch ms and the $date object give the same instant", [EpochMillis], ([ms]) => {
    const forms: ReadonlyArray<unknown> = [
      new Date(ms).toISOString(),
      encodeWire(utc(ms)),
      new Date(ms).toISOString().replace("Z", "+00:00"),
      ms,
      { $date: { $numberLong: String(ms) } }
    ]
    for (const form of forms) {
      const parsed = parseDateInput(form)
      assert.isTrue(Option.isSome(parsed), JSON.stringify(form))
      assert.strictEqual(DateTime.toEpochMillis(Option.getOrThrow(parsed)), ms, JSON.stringify(form))
      assert.strictEqual(millisOf(decodeInput(form)), ms, JSON.stringify(form))
    }
  })

  it.prop("an ISO string with an offset names the same instant", [EpochMillis], ([ms]) => {
    // 2026-01-01T10:00:00.000+05:30 is 04:30Z.
    const shifted = new Date(ms + 330 * 60_000).toISOString().replace("Z", "+05:30")
    if (!shifted.startsWith("+") && /^\d{4}/.test(shifted)) {
      assert.strictEqual(Option.map(parseDateInput(shifted), DateTime.toEpochMillis).pipe(Option.getOrUndefined), ms)
    }
  })

  it.prop("DateInput encodes the wire form", [EpochMillis], ([ms]) => {
    const encoded = encodeInput(utc(ms))
    assert.match(encoded as string, WIRE)
    assert.strictEqual(encoded, encodeWire(utc(ms)))
  })

  const Storable = Schema.Int.check(Schema.isBetween({ minimum: MIN_MILLIS, maximum: MAX_MILLIS }))
  const spelledWithOffset = (text: string) => `${text.slice(0, 10)}T${text.length === 10 ? "00:00:00.000" : text.slice(11, 23)}+00:00`
  const sameReading = (text: string) =>
    assert.deepStrictEqual(
      Option.map(parseDateInput(text), DateTime.toEpochMillis),
      Option.map(parseDateInput(spelledWithOffset(text)), DateTime.toEpochMillis),
      text
    )

  it.prop("a wire timestamp reads as the same instant spelled with an offset", [Storable, Micros], ([ms, micros]) => {
    sameReading(`${new Date(ms).toISOString().slice(0, 23)}${String(micros).padStart(3, "0")}Z`)
  })

  it.prop("a date alone reads as its midnight spelled with an offset", [Storable], ([ms]) => {
    sameReading(new Date(ms).toISOString().slice(0, 10))
  })

  it("accepts a date alone as midnight UTC", () => {
    assert.strictEqual(
      Option.map(parseDateInput("2026-11-21"), DateTime.toEpochMillis).pipe(Option.getOrUndefined),
      Date.UTC(2026, 10, 21)
    )
  })

  it.each([
    "",
    "yesterday",
    "21/11/2026",
    "2026-11-21T17:24:05.123456Zjunk",
    "1700000000000",
    "2026-02-30",
    "2026-02-30T10:00:00Z",
    "2026-02-30T10:00:00.000000Z",
    "2026-11-21T24:00:00.000000Z",
    "2026-11-21T10:60:00.000000Z",
    "2026-11-21T10:00:60.000000Z",
    "2026-13-01",
    "2026-04-31 10:00",
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e20,
    true,
    null,
    undefined,
    {},
    [],
    { $date: 1 }
  ])("rejects %j", (u) => {
    assert.isTrue(Option.isNone(parseDateInput(u)))
    assert.isTrue(isRejection(decodeInput(u)))
  })
})

describe("storableWireMillis", () => {
  const Storable = Schema.Int.check(Schema.isBetween({ minimum: MIN_MILLIS, maximum: MAX_MILLIS }))

  it.prop("reads a wire timestamp as parseDateInput does", [Storable, Micros], ([ms, micros]) => {
    const text = `${new Date(ms).toISOString().slice(0, 23)}${pad(micros, 3)}Z`
    assert.strictEqual(storableWireMillis(text), ms)
    assert.strictEqual(storableWireMillis(text), Option.getOrUndefined(Option.map(parseDateInput(text), DateTime.toEpochMillis)))
  })

  it.each([
    "2026-11-21",
    "2026-11-21T17:24:05Z",
    "2026-11-21T17:24:05.123Z",
    "2026-11-21T17:24:05.123456+00:00",
    "2026-02-30T10:00:00.000000Z",
    "0000-12-31T23:59:59.999999Z",
    ""
  ])("answers nothing for %j, another form or no storable instant", (text) => {
    assert.isUndefined(storableWireMillis(text))
  })
})

describe("formatSqlDateTime", () => {
  it.prop("gives YYYY-MM-DD HH:MM:SS in UTC", [EpochMillis], ([ms]) => {
    const sql = formatSqlDateTime(utc(ms))
    assert.match(sql, SQL)
    assert.strictEqual(sql, new Date(ms).toISOString().slice(0, 19).replace("T", " "))
    assert.strictEqual(formatSqlDateTime(DateTime.makeZonedUnsafe(ms, { timeZone: "America/New_York" })), sql)
  })
})
