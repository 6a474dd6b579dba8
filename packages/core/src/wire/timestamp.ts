/**
 * The wire forms of time: timestamps are emitted with
 * microseconds and a trailing Z; close_date and a channel's created_at use the
 * `{ $date: { $numberLong } }` object. Inputs accept either form or epoch ms, in the years
 * 0001–9999 (`isStorableInstant`).
 */
import { DateTime, Effect, Option, Schema, SchemaGetter, SchemaIssue } from "effect"
import { formatIsoMicros, parseDayMillis, parseWireMillis } from "./civil-time.ts"

const orInvalid = <A>(value: Option.Option<A>, input: unknown, message: string) =>
  Option.match(value, {
    onNone: () => Effect.fail(new SchemaIssue.InvalidValue({ message }, input)),
    onSome: (a) => Effect.succeed(a)
  })

/** `2026-11-21T17:24:05.123456Z`: JS time has millisecond precision, so the last three digits are 0. */
export const formatWireTimestamp = (dt: DateTime.DateTime): string => formatIsoMicros(dt.epochMilliseconds, 0)

/**
 * For text already matching the general pattern: `Date` silently rolls 2026-02-30 over to March
 * and 24:00 to the next day; refuse those.
 */
const isCalendarDate = (input: string): boolean =>
  !Number.isNaN(parseDayMillis(input.slice(0, 10))) && (input.length === 10 || Number(input.slice(11, 13)) <= 23)

/** 0001-01-01T00:00:00.000Z: PostgreSQL has no year 0000 (its 1 BC), so nothing earlier is taken. */
const MIN_STORABLE_MS = -62_135_596_800_000
/** 9999-12-31T23:59:59.999Z: four-digit years only, as the wire forms write them. */
const MAX_STORABLE_MS = 253_402_300_799_999

/**
 * Whether an instant falls in the years 0001–9999: the ones every store and wire form of Wasl can
 * hold. Every date input outside them is invalid input (a 422), never a database error.
 */
export const isStorableInstant = (instant: DateTime.DateTime): boolean => {
  const ms = DateTime.toEpochMillis(instant)
  return ms >= MIN_STORABLE_MS && ms <= MAX_STORABLE_MS
}

const storable = (instant: Option.Option<DateTime.Utc>): Option.Option<DateTime.Utc> =>
  Option.filter(instant, isStorableInstant)

/**
 * The epoch milliseconds of a wire timestamp (`YYYY-MM-DDTHH:MM:SS.ffffffZ`) in the years
 * 0001–9999; undefined for any other text.
 */
export const storableWireMillis = (text: string): number | undefined => {
  const ms = parseWireMillis(text)
  return ms >= MIN_STORABLE_MS && ms <= MAX_STORABLE_MS ? ms : undefined
}

const instantOfMillis = (ms: number): Option.Option<DateTime.Utc> =>
  Number.isNaN(ms) ? Option.none() : Option.some(DateTime.makeUnsafe(ms))

const parseAnyInstant = (input: string | number): Option.Option<DateTime.Utc> => {
  if (typeof input === "number") {
    return Number.isFinite(input) ? DateTime.make(input).pipe(Option.map(DateTime.toUtc)) : Option.none()
  }
  // The forms Wasl writes itself (every timestamp the database answers, every stored datetime
  // and date: several per record shown) are read digit by digit. Anything else, those forms
  // naming no real instant included (which the general path refuses too), takes the general path.
  const written = instantOfMillis(input.length === 10 ? parseDayMillis(input) : parseWireMillis(input))
  if (Option.isSome(written)) return written
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(input)) {
    return Option.none()
  }
  if (!isCalendarDate(input)) return Option.none()
  // Sub-millisecond digits are beyond JS precision; drop them before parsing.
  const trimmed = input.replace(/(\.\d{3})\d+/, "$1")
  return DateTime.make(trimmed).pipe(Option.map(DateTime.toUtc))
}

/** An instant from an ISO 8601 string or epoch milliseconds, in the years 0001–9999. */
const parseInstant = (input: string | number): Option.Option<DateTime.Utc> => storable(parseAnyInstant(input))

/** A timestamp written as `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export const WireTimestamp: Schema.decodeTo<Schema.DateTimeUtc, Schema.String> = Schema.String.pipe(
  Schema.decodeTo(Schema.DateTimeUtc, {
    decode: SchemaGetter.transformEffect((s: string) =>
      orInvalid(storable(instantOfMillis(parseWireMillis(s))), s, "Invalid timestamp.")
    ),
    encode: SchemaGetter.transform(formatWireTimestamp)
  })
).annotate({ identifier: "WireTimestamp", description: "ISO 8601 UTC with microseconds, e.g. 2026-11-21T17:24:05.123456Z" })

/** A wire timestamp already written as text (a REST shape built by hand), for schemas and OpenAPI. */
export const WireTimestampString: Schema.String = Schema.String.annotate({
  description: "ISO 8601 UTC with microseconds, e.g. 2026-11-21T17:24:05.123456Z"
})

/** The `{ $date: { $numberLong: "<epoch ms>" } }` object form. */
export const MongoDateObject: Schema.Struct<{
  readonly $date: Schema.Struct<{ readonly $numberLong: Schema.String }>
}> = Schema.Struct({
  $date: Schema.Struct({ $numberLong: Schema.String.check(Schema.isPattern(/^-?\d{1,16}$/)) })
})

/** An instant as the `{ $date: { $numberLong: "<epoch ms>" } }` object (what `MongoDate` encodes to). */
export const mongoDateOf = (dt: DateTime.DateTime): typeof MongoDateObject.Type => ({
  $date: { $numberLong: String(DateTime.toEpochMillis(dt)) }
})

/** A `{ $date: { $numberLong } }` object, decoded to the instant it names; encodes back to that object. */
export const MongoDate: Schema.decodeTo<Schema.DateTimeUtc, typeof MongoDateObject> = MongoDateObject.pipe(
  Schema.decodeTo(Schema.DateTimeUtc, {
    // Out-of-range epochs (Date reaches only ±8.64e15 ms, Wasl the years 0001–9999) are invalid input, not a crash.
    decode: SchemaGetter.transformEffect((o) =>
      orInvalid(storable(DateTime.make(Number(o.$date.$numberLong)).pipe(Option.map(DateTime.toUtc))), o, "Invalid date.")
    ),
    encode: SchemaGetter.transform(mongoDateOf)
  })
).annotate({ identifier: "MongoDate", description: "{ $date: { $numberLong: <epoch milliseconds> } }" })

/** Parse any accepted input form (ISO 8601 string, epoch ms, `$date` object) to an instant. */
export const parseDateInput = (input: unknown): Option.Option<DateTime.Utc> => {
  if (typeof input === "string" || typeof input === "number") return parseInstant(input)
  return Schema.decodeUnknownOption(MongoDate)(input)
}

/** Decodes every accepted input form; encodes as a wire timestamp. */
export const DateInput: Schema.decodeTo<Schema.DateTimeUtc, Schema.Unknown> = Schema.Unknown.pipe(
  Schema.decodeTo(Schema.DateTimeUtc, {
    decode: SchemaGetter.transformEffect((u: unknown) => orInvalid(parseDateInput(u), u, "Invalid date.")),
    encode: SchemaGetter.transform(formatWireTimestamp)
  })
).annotate({ identifier: "DateInput" })

/** The pivot's `last_used`: `YYYY-MM-DD HH:MM:SS` in UTC. */
export const formatSqlDateTime = (dt: DateTime.DateTime): string =>
  DateTime.formatIso(DateTime.toUtc(dt)).slice(0, 19).replace("T", " ")
