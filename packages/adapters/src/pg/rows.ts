/**
 * Row codecs shared by the PG repositories. Column values arrive in whatever
 * form the client's type registry gives them (Wasl's `pgTypes`: int8 as
 * number, timestamptz as an ISO string with microseconds; the driver's
 * defaults: bigint and Date), so each codec accepts both and decodes to the
 * core schemas' Type (numbers, `DateTime.Utc`).
 */
import { formatSqlDateTime, parseDateInput } from "@wasl/core"
import { DateTime, Effect, Option, Schema, SchemaGetter, SchemaIssue } from "effect"

/** int2/int4/int8 (number, bigint or numeric text) → a safe integer. */
export const DbInt: Schema.decodeTo<Schema.Int, Schema.Union<readonly [Schema.Number, Schema.BigInt, Schema.String]>> = Schema.Union([Schema.Number, Schema.BigInt, Schema.String]).pipe(
  Schema.decodeTo(Schema.Int, {
    decode: SchemaGetter.transformEffect((value: number | bigint | string) => {
      const n = Number(value)
      return Number.isSafeInteger(n)
        ? Effect.succeed(n)
        : Effect.fail(new SchemaIssue.InvalidValue({ message: "Not a safe integer." }, value))
    }),
    encode: SchemaGetter.transform((n: number) => n)
  })
)

const toUtc = (value: string | Date): Option.Option<DateTime.Utc> =>
  typeof value === "string" ? parseDateInput(value) : DateTime.make(value).pipe(Option.map(DateTime.toUtc))

/** timestamptz (ISO string or Date) → `DateTime.Utc`. */
export const DbTimestamp: Schema.decodeTo<Schema.DateTimeUtc, Schema.Union<readonly [Schema.String, Schema.Date]>> = Schema.Union([Schema.String, Schema.Date]).pipe(
  Schema.decodeTo(Schema.DateTimeUtc, {
    decode: SchemaGetter.transformEffect((value: string | Date) =>
      Option.match(toUtc(value), {
        onNone: () => Effect.fail(new SchemaIssue.InvalidValue({ message: "Invalid timestamp." }, value)),
        onSome: Effect.succeed
      })
    ),
    encode: SchemaGetter.transform((dt: DateTime.Utc) => DateTime.formatIso(dt))
  })
)

/** timestamptz → `YYYY-MM-DD HH:MM:SS` (the form of a membership's `last_used` in the API). */
export const DbSqlDateTime: Schema.decodeTo<Schema.String, typeof DbTimestamp> = DbTimestamp.pipe(
  Schema.decodeTo(Schema.String, {
    decode: SchemaGetter.transform(formatSqlDateTime),
    encode: SchemaGetter.transform((s: string) => DateTime.makeUnsafe(`${s.replace(" ", "T")}Z`))
  })
)

/** Decodes every row with `schema`; a row that does not decode is a defect (the schema and the table disagree). */
export const decodeRows = <S extends Schema.Codec<unknown, unknown, never, never>>(
  schema: S
): (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<S["Type"]>> => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<S["Type"]>> => Effect.orDie(decode(rows))
}

/** Decodes the first row, if any. */
export const decodeFirst = <S extends Schema.Codec<unknown, unknown, never, never>>(
  schema: S
): (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<S["Type"]>> => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<S["Type"]>> =>
    rows.length === 0 ? Effect.succeedNone : Effect.asSome(Effect.orDie(decode(rows[0])))
}

/** "now" as a timestamptz parameter, from Effect's Clock (so `TestClock` drives stored times). */
export const nowParam: Effect.Effect<{ readonly now: DateTime.Utc; readonly param: Date }> = Effect.map(DateTime.now, (now) => ({ now, param: DateTime.toDateUtc(now) }))
