/**
 * The records benchmark (`npx node bench/records.ts`: Node 24, the `node` devDependency): the list
 * query of decisions §4 at 1,000,000 deals in one account, on PostgreSQL. See bench/README.md.
 *
 * 1. Creates a database `wasl_bench_<random>` on `BENCH_DATABASE_URL` (default
 *    `postgres://postgres@127.0.0.1:5432/postgres`), migrates it, and seeds with set-based
 *    `INSERT … SELECT generate_series`: 1,000,000 deals in one account and 20,000 in each of 10
 *    others, built-in values and two custom properties (`score`, a number, 90 % filled; `region`,
 *    a single_select, 80 % filled) in `custom` and in `record_values`; then `VACUUM ANALYZE`.
 * 2. Runs each query `BENCH_RUNS` times (200) after `BENCH_WARMUP` (20), one at a time, through
 *    `RecordStorePg.list` (compile the AST, run, decode the page), and the same SQL text with the
 *    same parameters sent raw through the `PgClient` (compiled once, before timing): the baseline.
 * 3. Prints p50 / p95 / max per query and the ratios, drops the database (also on failure,
 *    Ctrl-C or the time limit `BENCH_TIMEOUT_MS`, 30 minutes).
 *
 * `BENCH_DEALS` changes the size of the big account; `BENCH_EXPLAIN=1` prints each query's plan.
 *
 * @module
 */
import { PgClient } from "@effect/sql-pg"
import { type Condition, type ComplexFilters } from "@wasl/core"
import {
  compileList,
  type CustomProperty,
  type RecordListQuery,
  pgClientOptions,
  recordMapping,
  RecordStorePg,
  runMigrations
} from "@wasl/adapters"
import { Duration, Effect, Exit, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import * as Os from "node:os"
import { performance } from "node:perf_hooks"

const intFromEnv = (name: string, fallback: number, min: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${raw}`)
  return value
}

const settings = {
  url: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  deals: intFromEnv("BENCH_DEALS", 1_000_000, 1_000),
  noiseAccounts: 10,
  noiseDeals: 20_000,
  runs: intFromEnv("BENCH_RUNS", 200, 1),
  warmup: intFromEnv("BENCH_WARMUP", 20, 0),
  timeoutMs: intFromEnv("BENCH_TIMEOUT_MS", 30 * 60_000, 1_000),
  explain: process.env.BENCH_EXPLAIN === "1"
}

const log = (message: string) => Effect.sync(() => console.error(`bench:records: ${message}`))

// -----------------------------------------------------------------------------------------------
// The database
// -----------------------------------------------------------------------------------------------

const withMaintenance = <A, E>(f: (sql: PgClient.PgClient) => Effect.Effect<A, E>) =>
  PgClient.make({ ...pgClientOptions, url: Redacted.make(settings.url), maxConnections: 1 }).pipe(
    Effect.flatMap(f),
    Effect.scoped
  )

/** `wasl_bench_<random>` for the scope (dropped on release, whatever happened). */
const benchDatabase = Effect.gen(function*() {
  const name = `wasl_bench_${randomBytes(6).toString("hex")}`
  yield* Effect.acquireRelease(
    withMaintenance((sql) => sql`CREATE DATABASE ${sql(name)}`.raw),
    () =>
      withMaintenance((sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`.raw).pipe(
        Effect.tap(() => log(`dropped ${name}`)),
        Effect.catchCause((cause) => log(`could not drop ${name}: ${String(cause)}`))
      )
  )
  const url = new URL(settings.url)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
})

// -----------------------------------------------------------------------------------------------
// Seeding
// -----------------------------------------------------------------------------------------------

const SYLLABLES = ["ka", "lo", "mi", "ra", "su", "te", "no", "vi", "da", "pe", "zu", "ho", "ba", "ri", "mo", "la", "ne", "to", "gi", "fa"]
const STAGES = [
  "appointment_scheduled",
  "qualified_to_buy",
  "presentation_scheduled",
  "decision_maker_bought_in",
  "contract_sent",
  "closed_won",
  "closed_lost"
]
const REGIONS = ["North", "South", "East", "West", "Central", "Gulf", "Levant", "Maghreb", "Europe", "Asia", "Americas", "Africa"]

/** A word of three syllables from a number (8,000 of them), in SQL and in JS alike. */
const wordSql = (h: string) =>
  `(s.syl)[1 + (${h} % 20)] || (s.syl)[1 + ((${h} / 20) % 20)] || (s.syl)[1 + ((${h} / 400) % 20)]`
const wordOf = (h: number) => SYLLABLES[h % 20]! + SYLLABLES[Math.floor(h / 20) % 20]! + SYLLABLES[Math.floor(h / 400) % 20]!

const seedDeals = (sql: SqlClient.SqlClient, accountId: number, from: number, to: number, custom: Custom) =>
  sql.unsafe(
    `
    INSERT INTO deals (account_id, id, deal_name, amount, deal_stage, close_date, forecast_amount, next_steps, custom,
                       created_at, updated_at)
    SELECT $1::int8,
           lpad(to_hex(1672531200 + (g * 47) % 94608000), 8, '0') || substr(md5($1::text || ':' || g), 1, 16),
           initcap(${wordSql("s.h1")}) || ' ' || initcap(${wordSql("s.h2")}) || ' #' || g,
           s.amount,
           CASE WHEN s.r1 < 0.05 THEN NULL ELSE (s.stages)[1 + floor(s.r2 * 7)::int] END,
           CASE WHEN s.r3 < 0.1 THEN NULL ELSE s.created + (s.r4 * interval '120 days') END,
           CASE WHEN s.r5 < 0.3 THEN NULL ELSE round((s.amount * 0.8)::numeric, 2)::float8 END,
           CASE WHEN s.r6 < 0.5 THEN NULL ELSE 'Call back on ' || to_char(s.created, 'YYYY-MM-DD') END,
           jsonb_strip_nulls(jsonb_build_object(
             $4::text, CASE WHEN s.r7 < 0.1 THEN NULL ELSE round((s.r8 * 1000)::numeric, 1)::float8 END,
             $5::text, CASE WHEN s.r9 < 0.2 THEN NULL ELSE (s.regions)[1 + floor(s.r10 * 12)::int] END
           )),
           s.created, s.created
    FROM (
      SELECT g, ARRAY[${SYLLABLES.map((x) => `'${x}'`).join(",")}] AS syl,
             ARRAY[${STAGES.map((x) => `'${x}'`).join(",")}] AS stages,
             ARRAY[${REGIONS.map((x) => `'${x}'`).join(",")}] AS regions,
             abs(hashtext($1::text || 'a' || g)) % 8000 AS h1, abs(hashtext($1::text || 'b' || g)) % 8000 AS h2,
             round((random() * 100000)::numeric, 2)::float8 AS amount,
             date_trunc('milliseconds', timestamptz '2023-01-01' + random() * interval '1000 days') AS created,
             random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6,
             random() AS r7, random() AS r8, random() AS r9, random() AS r10
      FROM generate_series($2::int, $3::int) g
    ) s
  `,
    [accountId, from, to, custom.score.id, custom.region.id]
  ).raw

/** The custom values' side rows, from `custom` (what RecordStorePg writes row by row). */
const seedValues = (sql: SqlClient.SqlClient, accountId: number, custom: Custom) =>
  Effect.all([
    sql`
      INSERT INTO record_values (account_id, kind, record_id, property_id, num)
      SELECT account_id, 'deal', id, ${custom.score.id}, (custom ->> ${custom.score.id}::text)::float8
      FROM deals WHERE account_id = ${accountId}::int8 AND custom ? ${custom.score.id}::text
    `.raw,
    sql`
      INSERT INTO record_values (account_id, kind, record_id, property_id, txt)
      SELECT account_id, 'deal', id, ${custom.region.id}, left(lower(custom ->> ${custom.region.id}::text), 255)
      FROM deals WHERE account_id = ${accountId}::int8 AND custom ? ${custom.region.id}::text
    `.raw
  ], { discard: true })

interface Custom {
  readonly score: CustomProperty
  readonly region: CustomProperty
  readonly list: ReadonlyArray<CustomProperty>
}

const customFor = (): Custom => {
  const score: CustomProperty = { id: randomBytes(12).toString("hex"), internal_name: "score", type: "number" }
  const region: CustomProperty = { id: randomBytes(12).toString("hex"), internal_name: "region", type: "single_select" }
  return { score, region, list: [score, region] }
}

const seed = Effect.fnUntraced(function*(sql: SqlClient.SqlClient) {
  const newAccount = (name: string) =>
    sql<{ readonly id: number }>`
      INSERT INTO accounts (name, plan, created_at, updated_at) VALUES (${name}, 'business', now(), now()) RETURNING id
    `.pipe(Effect.map((rows) => rows[0]!.id))
  const chunk = 100_000
  const started = performance.now()

  const main = yield* newAccount("bench")
  const mainCustom = customFor()
  for (let from = 1; from <= settings.deals; from += chunk) {
    const to = Math.min(from + chunk - 1, settings.deals)
    yield* seedDeals(sql, main, from, to, mainCustom)
    yield* log(`seeded ${to.toLocaleString("en")} deals in account ${main} (${((performance.now() - started) / 1000).toFixed(0)} s)`)
  }
  yield* seedValues(sql, main, mainCustom)
  for (let i = 0; i < settings.noiseAccounts; i++) {
    const account = yield* newAccount(`noise ${i}`)
    const custom = customFor()
    yield* seedDeals(sql, account, 1, settings.noiseDeals, custom)
    yield* seedValues(sql, account, custom)
  }
  yield* log(`seeded ${settings.noiseAccounts} other accounts of ${settings.noiseDeals.toLocaleString("en")} deals`)
  yield* sql`VACUUM ANALYZE deals`.raw
  yield* sql`VACUUM ANALYZE record_values`.raw
  yield* sql`VACUUM ANALYZE record_counts`.raw
  const seconds = (performance.now() - started) / 1000
  yield* log(`seeded and analysed in ${seconds.toFixed(0)} s`)
  return { main, custom: mainCustom, seconds }
})

// -----------------------------------------------------------------------------------------------
// Measuring
// -----------------------------------------------------------------------------------------------

interface Figures {
  readonly p50: number
  readonly p95: number
  readonly max: number
}

const figuresOf = (samples: ReadonlyArray<number>): Figures => {
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
  return { p50: rank(50), p95: rank(95), max: sorted[sorted.length - 1]! }
}

/** Times `run(i)` for i in warm-up then measured runs; milliseconds. */
const time = <E>(run: (i: number) => Effect.Effect<unknown, E>) =>
  Effect.gen(function*() {
    for (let i = 0; i < settings.warmup; i++) yield* run(i)
    const samples: Array<number> = []
    for (let i = 0; i < settings.runs; i++) {
      const started = performance.now()
      yield* run(i)
      samples.push(performance.now() - started)
    }
    return figuresOf(samples)
  })

interface Scenario {
  readonly name: string
  /** Whether p95 ≤ 50 ms is a target (else shown for information). */
  readonly target: boolean
  /** The i-th run's list request. */
  readonly input: (i: number) => RecordListQuery
}

const cond = (property: string, type: Condition["type"], operator: Condition["operator"], value: unknown): Condition =>
  ({ _tag: "Condition", property, type, operator, value }) as Condition

const scenarios = (accountId: number, custom: Custom): ReadonlyArray<Scenario> => {
  const base = { accountId, kind: "deal" as const, custom: custom.list }
  /** Search terms: 20 of the 8,000 words (each in ≈ 250 deal names of 1,000,000). */
  const terms = Array.from({ length: 20 }, (_, i) => wordOf((i * 3989 + 17) % 8000))
  const filter = (i: number): ComplexFilters => [
    cond("amount", "number", "gt", 50_000 + (i % 5) * 10_000),
    cond("deal_stage", "single_select", "eq", STAGES[i % 7]!)
  ]
  return [
    { name: "default page (created_at desc) + total", target: true, input: () => ({ ...base }) },
    { name: "search deal_name (a word) + total", target: true, input: (i) => ({ ...base, search: terms[i % terms.length]! }) },
    { name: "filter amount > x AND deal_stage = y", target: true, input: (i) => ({ ...base, filters: filter(i) }) },
    {
      name: "order by custom score (pages 1-3, asc/desc)",
      target: true,
      input: (i) => ({ ...base, order: "score", direction: i % 2 === 0 ? "desc" : "asc", page: 1 + (i % 3) })
    },
    // For information: the cost of an exact count over many rows, and of a deep page.
    {
      name: "(info) filter deal_stage = y (1/7 of the rows)",
      target: false,
      input: (i) => ({ ...base, filters: [cond("deal_stage", "single_select", "eq", STAGES[i % 7]!)] })
    },
    {
      name: "(info) filter custom region = y (1/15 of the rows)",
      target: false,
      input: (i) => ({ ...base, filters: [cond("region", "single_select", "eq", REGIONS[i % 12]!)] })
    },
    {
      name: "(info) order by amount asc, page 100",
      target: false,
      input: () => ({ ...base, order: "amount", direction: "asc", page: 100 })
    }
  ]
}

const ms = (n: number) => n.toFixed(2)
const pad = (s: string, n: number) => s.padStart(n)

const table = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : pad(c, widths[i]!))).join("  ")).join("\n")
}

interface Row {
  readonly name: string
  readonly target: boolean
  readonly list: Figures
  readonly raw: Figures
  readonly rows: number
  readonly total: string
}

/** Each scenario through `RecordStorePg.list`, then its SQL raw; also the plans with BENCH_EXPLAIN=1. */
const measure = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, accountId: number, custom: Custom) {
  const store = yield* RecordStorePg
  const results: Array<Row> = []
  for (const scenario of scenarios(accountId, custom)) {
    // The baseline's statements: the same SQL text and parameters, compiled before timing.
    const compiled = Array.from({ length: Math.max(settings.runs, settings.warmup) }, (_, i) => {
      const input = scenario.input(i)
      return compileList(sql, recordMapping("deal", input.custom), {
        accountId: input.accountId,
        filters: input.filters ?? [],
        search: input.search,
        order: input.order ?? "created_at",
        direction: input.direction ?? "desc",
        page: input.page ?? 1,
        perPage: input.perPage ?? 15
      }).compile()
    })
    const sample = yield* store.list(scenario.input(0))
    if (settings.explain) {
      const [text, params] = compiled[0]!
      const plan = yield* sql.unsafe<{ readonly "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params).unprepared
      console.error(`\n-- ${scenario.name}\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}`)
    }
    yield* log(`${scenario.name}: ${settings.warmup} + ${settings.runs} runs each`)
    const list = yield* time((i) => store.list(scenario.input(i)))
    const raw = yield* time((i) => {
      const [text, params] = compiled[i]!
      return sql.unsafe(text, params).unprepared
    })
    const totals = new Set<number>()
    for (let i = 0; i < Math.min(compiled.length, 10); i++) totals.add((yield* store.list(scenario.input(i))).total)
    const spread = [...totals].sort((a, b) => a - b)
    results.push({
      name: scenario.name,
      target: scenario.target,
      list,
      raw,
      rows: sample.rows.length,
      total: spread.length === 1 ? spread[0]!.toLocaleString("en") : `${spread[0]!.toLocaleString("en")}–${spread[spread.length - 1]!.toLocaleString("en")}`
    })
  }
  return results
})

const report = (
  startedAt: Date,
  database: { readonly name: string },
  version: string,
  seeded: { readonly seconds: number; readonly main: number },
  results: ReadonlyArray<Row>
): string => {
  const cpus = Os.cpus()
  const misses = results.filter((r) => r.target && r.list.p95 > 50)
  return [
    `Wasl records benchmark, ${startedAt.toISOString()}`,
    `  ${settings.deals.toLocaleString("en")} deals in account ${seeded.main}, ${settings.noiseAccounts} other accounts of ${
      settings.noiseDeals.toLocaleString("en")
    } deals; custom score (number, 90 % filled) and region (single_select, 80 %)`,
    `  seeded in ${seeded.seconds.toFixed(0)} s; ${settings.runs} measured runs per query after ${settings.warmup} warm-up, one at a time`,
    `  database: ${version.split(" on ")[0]}, ${database.name} (created for this run, dropped after)`,
    `  list = RecordStorePg.list (compile the filter AST, run, decode the page); raw = the same SQL and parameters sent`,
    `  through the PgClient as compiled before timing`,
    `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
    "",
    table([
      ["query (15 per page)", "list p50", "p95", "max", "raw p50", "p95", "list/raw p50", "p95", "rows", "total"],
      ...results.map((r) => [
        r.name,
        ms(r.list.p50),
        ms(r.list.p95),
        ms(r.list.max),
        ms(r.raw.p50),
        ms(r.raw.p95),
        `${(r.list.p50 / r.raw.p50).toFixed(2)}x`,
        `${(r.list.p95 / r.raw.p95).toFixed(2)}x`,
        String(r.rows),
        r.total
      ])
    ]),
    "",
    misses.length === 0
      ? "targets: p95 <= 50 ms met by every target query"
      : `targets MISSED (p95 > 50 ms): ${misses.map((m) => m.name).join("; ")}`
  ].join("\n")
}

const program = Effect.gen(function*() {
  const startedAt = new Date()
  const database = yield* benchDatabase
  yield* log(`created ${database.name}`)
  const sql = yield* PgClient.make({ ...pgClientOptions, url: Redacted.make(database.url), maxConnections: 4 })
  const [{ version }] = yield* sql<{ readonly version: string }>`SELECT version() AS version`
  yield* runMigrations.pipe(Effect.provideService(SqlClient.SqlClient, sql))
  const seeded = yield* seed(sql)
  const results = yield* measure(sql, seeded.main, seeded.custom).pipe(
    Effect.provide(RecordStorePg.layer),
    Effect.provideService(SqlClient.SqlClient, sql)
  )
  console.log(report(startedAt, database, version!, seeded, results))
}).pipe(Effect.scoped, Effect.provide(Reactivity.layer))

const controller = new AbortController()
const stop = (reason: string) => {
  console.error(`bench:records: ${reason}; cleaning up.`)
  controller.abort()
}
process.once("SIGINT", () => stop("interrupted"))
process.once("SIGTERM", () => stop("terminated"))
const deadline = setTimeout(() => stop(`time limit of ${Duration.format(Duration.millis(settings.timeoutMs))} reached`), settings.timeoutMs)
const exit = await Effect.runPromiseExit(program, { signal: controller.signal })
clearTimeout(deadline)
if (Exit.isFailure(exit)) console.error(`bench:records: failed\n${String(exit.cause)}`)
process.exit(Exit.isSuccess(exit) ? 0 : 1)
