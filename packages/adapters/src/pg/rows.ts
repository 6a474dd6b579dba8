/**
 * Row codecs shared by the PG repositories. Column values arrive in whatever
 * form the client's type registry gives them (Wasl's `pgTypes`: int8 as
 * number, timestamptz as an ISO string with microseconds; the driver's
 * defaults: bigint and Date), so each codec accepts both and decodes to the
 * core schemas' Type (numbers, `DateTime.Utc`).
 */
import { formatSqlDateTime, parseDateInput } from "@wasl/core/Wire"
import { DateTime, Effect, Option, Schema, SchemaGetter, SchemaIssue } from "effect"
import { SchemaJITCompiler } from "effect/schema"

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

/**
 * A nullable column of a timestamp codec (`DbTimestamp`, `DbSqlDateTime`): `Schema.NullOr` with
 * `null` tried first. Their encoded side holds `Schema.Date`, a declaration that Schema's union
 * cannot rule out by the input's type, so `NullOr` tried the timestamp first on every null and
 * built a failure before trying `Null` (measured: about 3.5 µs per null column, a row of 16 null
 * timestamps 60 µs → 2 µs). Null first, the same values decode and the same issues are reported.
 */
export const DbNullOr = <S extends Schema.Top>(schema: S): Schema.Union<readonly [Schema.Null, S]> =>
  Schema.Union([Schema.Null, schema])

/** timestamptz → `YYYY-MM-DD HH:MM:SS` (the form of a membership's `last_used` in the API). */
export const DbSqlDateTime: Schema.decodeTo<Schema.String, typeof DbTimestamp> = DbTimestamp.pipe(
  Schema.decodeTo(Schema.String, {
    decode: SchemaGetter.transform(formatSqlDateTime),
    encode: SchemaGetter.transform((s: string) => DateTime.makeUnsafe(`${s.replace(" ", "T")}Z`))
  })
)

/**
 * `schema` with Effect's Schema JIT compiler enabled on its AST and the ASTs under it (generated
 * decoders for the structs, the literal unions and the plain columns; the transformations, as
 * DbInt and DbTimestamp, stay interpreted). Measured on GET /api/me's rows in isolation: about a
 * quarter less CPU to decode them. The JIT is marked unstable in Effect 4.1; it is safe here
 * because it only answers rows that decode: on any failure its fast path answers "invalid" and
 * Schema's interpreter runs again to build the very same issue, and where `new Function` is
 * unavailable (a locked-down runtime) it does not compile and the interpreter decodes as before.
 */
const compiled = <S extends Schema.Top>(schema: S): S => {
  SchemaJITCompiler.enable(schema.ast)
  return schema
}

/**
 * Decodes every row with `schema`; a row that does not decode is a defect (the schema and the table
 * disagree). Make the decoder once, beside the repository, not per query: each compiles its schema.
 */
export const decodeRows = <S extends Schema.Codec<unknown, unknown, never, never>>(
  schema: S
): (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<S["Type"]>> => {
  const decode = Schema.decodeUnknownEffect(compiled(Schema.Array(schema)))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<S["Type"]>> => Effect.orDie(decode(rows))
}

/** Decodes the first row, if any (made once, as {@link decodeRows}). */
export const decodeFirst = <S extends Schema.Codec<unknown, unknown, never, never>>(
  schema: S
): (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<S["Type"]>> => {
  const decode = Schema.decodeUnknownEffect(compiled(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<S["Type"]>> =>
    rows.length === 0 ? Effect.succeedNone : Effect.asSome(Effect.orDie(decode(rows[0])))
}

/** "now" as a timestamptz parameter, from Effect's Clock (so `TestClock` drives stored times). */
export const nowParam: Effect.Effect<{ readonly now: DateTime.Utc; readonly param: Date }> = Effect.map(DateTime.now, (now) => ({ now, param: DateTime.toDateUtc(now) }))

/**
 * A select list kept as data, each output column's name with the expression that computes it,
 * so one list serves a repository's own read and a combined read that selects the same row
 * beside others (under a prefix, with the same decoding).
 */
export type Columns = ReadonlyArray<readonly [name: string, expression: string]>

/** A column list from names (selected as they are) and `[name, expression]` pairs. */
export const columns = (...specs: ReadonlyArray<string | readonly [name: string, expression: string]>): Columns =>
  specs.map((spec) => typeof spec === "string" ? [spec, spec] as const : spec)

/** `expression AS "<prefix><name>", …`; without a prefix a bare column stays bare. */
export const selectList = (list: Columns, prefix = ""): string =>
  list.map(([name, expression]) =>
    prefix === "" && name === expression ? name : `${expression} AS "${prefix}${name}"`
  ).join(", ")

/**
 * The rows of a subquery folded into one: `array_agg(expression ORDER BY orderBy) AS "<prefix><name>"`
 * per column, so every value still arrives through the driver's codec for its type. A column of
 * an array type goes through `json_agg` instead (PostgreSQL cannot stack arrays of different
 * lengths); name those in `ragged`, and give them only JSON-native values (no timestamps).
 */
export const aggregateList = (list: Columns, orderBy: string, prefix: string, ragged: ReadonlyArray<string> = []): string =>
  list.map(([name, expression]) =>
    `${ragged.includes(name) ? "json_agg" : "array_agg"}(${expression} ORDER BY ${orderBy}) AS "${prefix}${name}"`
  ).join(", ")

const prefixedNamesCache = new WeakMap<Columns, Map<string, ReadonlyArray<string>>>()

/**
 * The names of `list`'s columns under `prefix`, made once per list and prefix: a key built per
 * column and request (a fresh string, hashed again to look it up) was most of {@link unprefix}'s
 * and {@link unaggregate}'s time in `GET /api/me`'s profile.
 */
const prefixedNames = (list: Columns, prefix: string): ReadonlyArray<string> => {
  let byPrefix = prefixedNamesCache.get(list)
  if (byPrefix === undefined) prefixedNamesCache.set(list, byPrefix = new Map())
  let names = byPrefix.get(prefix)
  if (names === undefined) byPrefix.set(prefix, names = list.map(([name]) => `${prefix}${name}`))
  return names
}

/** The columns of `row` under `prefix`, without it: one part of a combined row. */
export const unprefix = (row: Readonly<Record<string, unknown>>, list: Columns, prefix: string): Record<string, unknown> => {
  const names = prefixedNames(list, prefix)
  const part: Record<string, unknown> = {}
  for (let c = 0; c < list.length; c++) part[list[c]![0]] = row[names[c]!]
  return part
}

/**
 * The rows {@link aggregateList} folded, unfolded again: the `i`-th row takes the `i`-th value of
 * every column (no rows at all aggregate to nulls).
 */
export const unaggregate = (
  row: Readonly<Record<string, unknown>>,
  list: Columns,
  prefix: string
): Array<Record<string, unknown>> => {
  const names = prefixedNames(list, prefix)
  const columns = names.map((name) => (row[name] ?? []) as ReadonlyArray<unknown>)
  const length = columns[0]?.length ?? 0
  const rows: Array<Record<string, unknown>> = []
  for (let i = 0; i < length; i++) {
    const unfolded: Record<string, unknown> = {}
    for (let c = 0; c < list.length; c++) unfolded[list[c]![0]] = columns[c]![i]
    rows.push(unfolded)
  }
  return rows
}
