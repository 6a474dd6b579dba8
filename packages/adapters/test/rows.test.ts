/**
 * The row codecs' fast paths change no outcome. `decodeRows`/`decodeFirst` put Effect's Schema JIT
 * compiler on their schema: drawn rows (driver-shaped values, nulls, and broken columns) decode
 * to the same values, or die with the same message, as through Schema's interpreter before the
 * JIT was enabled, and the decoding went through generated code (`new Function` was called).
 * `DbNullOr` tries null first: the same outcomes as `Schema.NullOr`, without the failed attempt.
 */
import { MembershipStatus } from "@wasl/core/Accounts"
import { Permission } from "@wasl/core/Auth"
import { Cause, Effect, Exit, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { DbInt, DbNullOr, DbSqlDateTime, DbTimestamp, decodeFirst, decodeRows } from "../src/pg/rows.ts"
import { functionCalls } from "../../../test/support/function-calls.ts"

/** A row schema with every kind of column the repositories have. */
const Row = Schema.Struct({
  id: DbInt,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  made_by: Schema.NullOr(DbInt),
  status: MembershipStatus,
  hour12: Schema.Boolean,
  permissions: Schema.Array(Permission),
  seen_at: DbNullOr(DbTimestamp),
  last_used: DbNullOr(DbSqlDateTime),
  created_at: DbTimestamp
})

const instant = fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
/** timestamptz as Wasl's driver codec gives it (microseconds), or as the default one (a Date). */
const timestamp = fc.oneof(
  fc.tuple(instant, fc.integer({ min: 0, max: 999 })).map(([d, us]) =>
    d.toISOString().replace("Z", `${String(us).padStart(3, "0")}Z`)
  ),
  instant
)
const junk = fc.oneof(fc.constant(null), fc.constant(undefined), fc.string(), fc.double(), fc.boolean(), fc.object())
const int = fc.oneof(fc.integer(), fc.integer().map(BigInt), fc.integer().map(String))
/** A column: mostly valid, sometimes anything at all. */
const column = <A>(valid: fc.Arbitrary<A>) => fc.oneof({ weight: 9, arbitrary: valid }, { weight: 1, arbitrary: junk })
const row = fc.record({
  id: column(int),
  name: column(fc.string()),
  description: column(fc.option(fc.string(), { nil: null })),
  made_by: column(fc.option(int, { nil: null })),
  status: column(fc.constantFrom(...MembershipStatus.literals)),
  hour12: column(fc.boolean()),
  permissions: column(fc.array(fc.constantFrom(...Permission.literals), { maxLength: 4 })),
  seen_at: column(fc.option(timestamp, { nil: null })),
  last_used: column(fc.option(timestamp, { nil: null })),
  created_at: column(timestamp)
})

/** A run's outcome, comparable: the value, or the defect's message. */
const outcome = (exit: Exit.Exit<unknown>): unknown =>
  Exit.isSuccess(exit) ? { value: exit.value } : { defect: String(Cause.squash(exit.cause)) }

describe("decodeRows and decodeFirst", () => {
  it("decode through generated code, to the same values and defects as the interpreter", () => {
    const rows = fc.sample(row, { numRuns: 400, seed: 20261127 })
    const interpret = Schema.decodeUnknownEffect(Schema.Array(Row))
    const interpretOne = Schema.decodeUnknownEffect(Row)
    const interpreted = functionCalls(() => ({
      each: rows.map((r) => outcome(Effect.runSyncExit(Effect.orDie(interpretOne(r))))),
      all: outcome(Effect.runSyncExit(Effect.orDie(interpret(rows.slice(0, 50)))))
    }))
    expect(interpreted.calls).toBe(0)

    const compiled = functionCalls(() => {
      const first = decodeFirst(Row)
      const all = decodeRows(Row)
      return {
        each: rows.map((r) => outcome(Effect.runSyncExit(Effect.map(first([r]), (o) => o._tag === "Some" ? o.value : o)))),
        all: outcome(Effect.runSyncExit(all(rows.slice(0, 50))))
      }
    })
    expect(compiled.calls).toBeGreaterThan(0)
    expect(compiled.result).toStrictEqual(interpreted.result)

    const outcomes = interpreted.result.each as ReadonlyArray<Record<string, unknown>>
    expect(outcomes.filter((o) => "value" in o).length).toBeGreaterThan(100)
    expect(outcomes.filter((o) => "defect" in o).length).toBeGreaterThan(100)
  })
})

describe("DbNullOr", () => {
  it("tries null before the codec (whose Date member would be tried, and fail, on every null)", () => {
    expect(DbNullOr(DbTimestamp).members[0]).toBe(Schema.Null)
  })

  it("decodes and reports as Schema.NullOr does", () => {
    for (const codec of [DbTimestamp, DbSqlDateTime]) {
      const nullFirst = Schema.decodeUnknownExit(Schema.Struct({ at: DbNullOr(codec) }))
      const nullLast = Schema.decodeUnknownExit(Schema.Struct({ at: Schema.NullOr(codec) }))
      fc.assert(
        fc.property(fc.oneof(timestamp, junk), (at) => {
          for (const options of [{}, { errors: "all" }] as const) {
            const [a, b] = [nullFirst({ at }, options), nullLast({ at }, options)]
            expect(Exit.isSuccess(a) ? a.value : String(Cause.squash(a.cause)))
              .toStrictEqual(Exit.isSuccess(b) ? b.value : String(Cause.squash(b.cause)))
          }
        }),
        { numRuns: 300, seed: 20261127 }
      )
    }
  })
})
