/**
 * The records benchmark (`npx node bench/records.ts`: Node 24, the `node` devDependency): the list
 * query (filter, search, order, page, exact total) at 1,000,000 deals in one account, on
 * PostgreSQL. See bench/README.md.
 *
 * 1. Creates a database `wasl_bench_<random>` on `BENCH_DATABASE_URL` (default
 *    `postgres://postgres@127.0.0.1:5432/postgres`), migrates it, creates the big account with its
 *    owner and token with the CLI (`wasl bootstrap`), and seeds with set-based
 *    `INSERT … SELECT generate_series`: 1,000,000 deals in that account and 20,000 in each of 10
 *    others, built-in values and two custom properties (`score`, a number, 90 % filled; `region`,
 *    a single_select, 80 % filled) defined in `properties` and valued in `custom` and in
 *    `record_values`; then `VACUUM ANALYZE`.
 * 2. Runs each query `BENCH_RUNS` times (200) after `BENCH_WARMUP` (20), one at a time, through
 *    `RecordRepositoryPg`'s list (compile the AST, run, decode the page), and the same SQL text with the
 *    same parameters sent raw through the `PgClient` (compiled once, before timing): the baseline.
 * 3. Over HTTP: starts the Wasl HTTP service (`apps/server`) and a bare `node:http` baseline
 *    (bench/records-baseline.ts) sending the same SQL raw, both child processes on this database;
 *    checks that each target scenario's pages carry the same `_id`s in the same order on both,
 *    then sends each the same closed-loop load (`BENCH_HTTP_WARMUP` 500, `BENCH_HTTP_REQUESTS`
 *    2,000 over `BENCH_HTTP_CONCURRENCY` 10 keep-alive connections, in `BENCH_ROUNDS` 4 rounds
 *    alternating between the servers) and compares the throughput.
 * 4. Prints p50 / p95 / max per query and the ratios, then the HTTP table; drops the database and
 *    stops the children (also on failure, Ctrl-C or the time limit `BENCH_TIMEOUT_MS`, 30 minutes).
 *
 * `BENCH_DEALS` changes the size of the big account; `BENCH_EXPLAIN=1` prints each query's plan.
 *
 * @module
 */
import { PgClient } from "@effect/sql-pg"
import { PropertyRepository, RecordRepository } from "@wasl/core/Records"
import { pgClientOptions, PropertyRepositoryPg, RecordRepositoryPg, runMigrations } from "@wasl/adapters/Postgres"
import { Duration, Effect, Exit, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { type BenchResult, cpuResults, figureResult, floorResults, ratioResult, writeResults } from "./support/results.ts"
import { sampleRss } from "./support/rss.ts"
import { bootstrapAccount, type Child, startBaseline, startWaslServer, stopAllChildren, stopChild } from "./support/children.ts"
import { compileListQuery, type Custom, listPath, paramsOf, type Scenario, scenarios } from "./support/deal-scenarios.ts"
import { customFor, defineCustom, seedDeals, seedValues } from "./support/deal-seed.ts"
import { intFromEnv } from "./support/env.ts"
import { cpuCell, cpuRatioCell, type Figures as LoadFigures, measureAlternating, roundsFromEnv } from "./support/load.ts"
import { ms, table } from "./support/table.ts"

const baselineMain = fileURLToPath(new URL("records-baseline.ts", import.meta.url))

const settings = {
  url: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  deals: intFromEnv("BENCH_DEALS", 1_000_000, 1_000),
  noiseAccounts: 10,
  noiseDeals: 20_000,
  runs: intFromEnv("BENCH_RUNS", 200, 1),
  warmup: intFromEnv("BENCH_WARMUP", 20, 0),
  timeoutMs: intFromEnv("BENCH_TIMEOUT_MS", 30 * 60_000, 1_000),
  explain: process.env.BENCH_EXPLAIN === "1",
  http: {
    requests: intFromEnv("BENCH_HTTP_REQUESTS", 2000, 1),
    warmup: intFromEnv("BENCH_HTTP_WARMUP", 500, 0),
    concurrency: intFromEnv("BENCH_HTTP_CONCURRENCY", 10, 1),
    rounds: roundsFromEnv()
  }
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

/**
 * The big account, its owner, the Administrators team (every permission) and an owner token, made
 * by the CLI (`wasl bootstrap`, the supported way) so that the account is usable over HTTP.
 */
const bootstrapOwner = (env: NodeJS.ProcessEnv) =>
  Effect.tryPromise(async () => {
    return await bootstrapAccount(env, "bench")
  })

/** Seeds the big account `main` (made by the CLI) and the noise accounts, then analyses the tables. */
const seed = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, main: number) {
  const newAccount = (name: string) =>
    sql<{ readonly id: number }>`
      INSERT INTO accounts (name, plan, created_at, updated_at) VALUES (${name}, 'business', now(), now()) RETURNING id
    `.pipe(Effect.map((rows) => rows[0]!.id))
  const chunk = 100_000
  const started = performance.now()

  const mainCustom = customFor()
  yield* defineCustom(sql, main, mainCustom)
  for (let from = 1; from <= settings.deals; from += chunk) {
    const to = Math.min(from + chunk - 1, settings.deals)
    yield* seedDeals(sql, main, from, to, mainCustom)
    yield* log(`seeded ${to.toLocaleString("en")} deals in account ${main} (${((performance.now() - started) / 1000).toFixed(0)} s)`)
  }
  yield* seedValues(sql, main, mainCustom)
  for (let i = 0; i < settings.noiseAccounts; i++) {
    const account = yield* newAccount(`noise ${i}`)
    const custom = customFor()
    yield* defineCustom(sql, account, custom)
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

interface Row {
  readonly name: string
  readonly target: boolean
  readonly list: Figures
  readonly raw: Figures
  readonly rows: number
  readonly total: string
}

/** Each scenario through `RecordRepositoryPg`'s list, then its SQL raw; also the plans with BENCH_EXPLAIN=1. */
const measure = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, accountId: number, custom: Custom) {
  const records = yield* RecordRepository
  // The account's definitions, as a list request reads them.
  const definitions = yield* PropertyRepository.use((properties) => properties.list(accountId, "deal"))
  const list = (request: Parameters<typeof paramsOf>[0]) =>
    records.list({ ...paramsOf(request), kind: "deal", custom: definitions })
  const results: Array<Row> = []
  for (const scenario of scenarios(accountId)) {
    // The baseline's statements: the same SQL text and parameters, compiled before timing.
    const compiled = Array.from(
      { length: Math.max(settings.runs, settings.warmup) },
      (_, i) => compileListQuery(sql, custom, scenario.input(i))
    )
    const sample = yield* list(scenario.input(0))
    if (settings.explain) {
      const [text, params] = compiled[0]!
      const plan = yield* sql.unsafe<{ readonly "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params).unprepared
      console.error(`\n-- ${scenario.name}\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}`)
    }
    yield* log(`${scenario.name}: ${settings.warmup} + ${settings.runs} runs each`)
    const listed = yield* time((i) => list(scenario.input(i)))
    const raw = yield* time((i) => {
      const [text, params] = compiled[i]!
      return sql.unsafe(text, params).unprepared
    })
    const totals = new Set<number>()
    for (let i = 0; i < Math.min(compiled.length, 10); i++) totals.add((yield* list(scenario.input(i))).total)
    const spread = [...totals].sort((a, b) => a - b)
    results.push({
      name: scenario.name,
      target: scenario.target,
      list: listed,
      raw,
      rows: sample.rows.length,
      total: spread.length === 1 ? spread[0]!.toLocaleString("en") : `${spread[0]!.toLocaleString("en")}–${spread[spread.length - 1]!.toLocaleString("en")}`
    })
  }
  return results
})

// -----------------------------------------------------------------------------------------------
// Over HTTP: Wasl against a bare node:http server sending the same SQL
// -----------------------------------------------------------------------------------------------

interface HttpRow {
  readonly name: string
  readonly client: string
  readonly wasl: LoadFigures
  readonly baseline: LoadFigures
  /** The baseline served through Effect's HTTP platform (`BASELINE_HTTP=effect`). */
  readonly floor: LoadFigures
  /**
   * The baseline's pages through an HttpApi endpoint, its bearer token checked (and kept) by a
   * security middleware, with the request frame every Wasl request has (`BASELINE_HTTP=httpapi`,
   * `BASELINE_RULES=1`).
   */
  readonly apiFloor: LoadFigures
}

interface HttpRun {
  readonly rows: ReadonlyArray<HttpRow>
  /** apps/server's resident memory over its list load (MiB), if it could be read. */
  readonly rss: { readonly first: number; readonly peak: number; readonly last: number } | undefined
}

/** A child process for the scope: stopped on release, whatever happened. */
const scopedChild = <A extends { readonly child: Child }>(start: () => Promise<A>) =>
  Effect.acquireRelease(Effect.tryPromise(start), (started) => Effect.promise(() => stopChild(started.child)))

const getJson = (origin: string, path: string, headers: Record<string, string>) =>
  Effect.tryPromise(async () => {
    const response = await fetch(`${origin}${path}`, { headers })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`GET ${origin}${path} answered ${response.status}: ${text.slice(0, 500)}`)
    return JSON.parse(text) as unknown
  })

/** The `_id`s of Wasl's page (`{ data: [{ properties: { _id } }] }`) and its `meta.total`. */
const waslPage = (body: unknown) => {
  const page = body as { readonly data: ReadonlyArray<{ readonly properties: { readonly _id: string } }>; readonly meta: { readonly total: number } }
  return { ids: page.data.map((d) => d.properties._id), total: page.meta.total }
}

/** The `id`s of the baseline's rows (a page past the end is one row with a NULL id) and their `total`. */
const baselinePage = (body: unknown) => {
  const rows = body as ReadonlyArray<{ readonly id: string | null; readonly total: number }>
  return { ids: rows.filter((r) => r.id !== null).map((r) => r.id!), total: rows.length === 0 ? 0 : Number(rows[0]!.total) }
}

/**
 * Both servers must answer each variant of the scenario with the same records in the same order
 * and the same total, else the comparison is void and the run fails.
 */
const checkSamePages = (scenario: Scenario, paths: ReadonlyArray<string>, wasl: string, baseline: string, headers: Record<string, string>) =>
  Effect.forEach(paths, (path) =>
    Effect.gen(function*() {
      const w = waslPage(yield* getJson(wasl, path, headers))
      const b = baselinePage(yield* getJson(baseline, path, headers))
      if (w.ids.length === 0 || w.ids.join() !== b.ids.join() || w.total !== b.total) {
        return yield* Effect.fail(
          new Error(`${scenario.name}: GET ${path}: Wasl answered ${w.ids.length} records (total ${w.total}) [${w.ids.join(", ")}], ` +
            `the baseline ${b.ids.length} (total ${b.total}) [${b.ids.join(", ")}]`)
        )
      }
    }), { discard: true })

/** Each target scenario's requests to Wasl, then to the baseline, under the same closed-loop load. */
const measureHttp = Effect.fnUntraced(function*(env: NodeJS.ProcessEnv, accountId: number, custom: Custom, token: string) {
  yield* log("starting apps/server and the baseline")
  // No request rate limit: the load is far above the default (the baseline has none either).
  const wasl = yield* scopedChild(() => startWaslServer({ ...env, WASL_RATE_LIMIT: "0" }))
  const baselineEnv = { ...env, BASELINE_ACCOUNT: String(accountId), BASELINE_CUSTOM: JSON.stringify(custom) }
  const baseline = yield* scopedChild(() => startBaseline(baselineMain, [], { ...baselineEnv, BASELINE_HTTP: "node" }))
  const floor = yield* scopedChild(() => startBaseline(baselineMain, [], { ...baselineEnv, BASELINE_HTTP: "effect" }))
  const apiFloor = yield* scopedChild(() =>
    startBaseline(baselineMain, [], { ...baselineEnv, BASELINE_HTTP: "httpapi", BASELINE_RULES: "1" })
  )
  const headers = { accept: "application/json", authorization: `Bearer ${token}` }
  const { concurrency, requests, warmup } = settings.http
  const rows: Array<HttpRow> = []
  const rss = sampleRss(wasl.child.child.pid)
  for (const scenario of scenarios(accountId).filter((s) => s.target)) {
    const paths = Array.from({ length: scenario.variants }, (_, i) => listPath(scenario.input(i)))
    yield* checkSamePages(scenario, paths, wasl.origin, baseline.origin, headers)
    yield* log(`HTTP ${scenario.name}: ${warmup} + ${requests} requests each, ${concurrency} connections, ${settings.http.rounds} rounds`)
    const pathOf = (i: number) => paths[i % paths.length]!
    const [w, b, f, a] = yield* Effect.tryPromise(() =>
      measureAlternating(
        [wasl, baseline, floor, apiFloor].map((server) => ({ origin: server.origin, pid: server.child.child.pid })),
        headers,
        settings.http,
        pathOf
      )
    )
    rows.push({ name: scenario.name, client: w!.client, wasl: w!.figures, baseline: b!.figures, floor: f!.figures, apiFloor: a!.figures })
  }
  return { rows, rss: rss.stop() } satisfies HttpRun
}, Effect.scoped)

/** The HTTP figures for `BENCH_JSON`: each query's throughput against the baseline's, and the server's memory. */
const httpResults = ({ rows, rss }: HttpRun): ReadonlyArray<BenchResult> => [
  ...rows.map((r) => ratioResult(`GET /api/deals ${r.name}: req/s`, r.wasl.perSecond, r.baseline.perSecond, 0.9)),
  ...rows.flatMap((r) => floorResults(`GET /api/deals ${r.name}: req/s`, r.wasl.perSecond, r.floor.perSecond, r.baseline.perSecond)),
  ...rows.flatMap((r) => cpuResults(`GET /api/deals ${r.name}`, r.wasl, r.baseline)),
  ...rows.map((r) =>
    ratioResult(
      `GET /api/deals ${r.name}: req/s, HttpApi floor with the request frame against the bare server`,
      r.apiFloor.perSecond,
      r.baseline.perSecond,
      null
    )
  ),
  ...(rss === undefined ? [] : [figureResult("apps/server RSS peak under list load (MiB)", rss.peak)])
]

const httpReport = ({ rows, rss }: HttpRun): ReadonlyArray<string> => {
  const { concurrency, requests, warmup } = settings.http
  const misses = rows.filter((r) => r.wasl.perSecond / r.baseline.perSecond < 0.9)
  return [
    `HTTP: GET /api/deals?… on apps/server (bearer token) against a bare node:http server running the same SQL raw`,
    `  (PgClient, pool of 10, rows as JSON), and the same served through Effect's HTTP platform (the floor) and as an HttpApi endpoint`,
    `  with a bearer security middleware and the request frame every Wasl request has (api+frame); ${requests} requests after ${warmup} warm-up per server and query`,
    `  in ${settings.http.rounds} rounds alternating between the servers,`,
    `  ${concurrency} keep-alive connections with one request in flight each (${rows[0]?.client ?? "-"}), loopback`,
    "",
    table([
      ["query", "Wasl req/s", "p50", "p99", "base req/s", "p50", "p99", "Wasl/base req/s", "p50", "p99", "floor req/s", "floor/base", "api+frame/base", "CPU µs/req Wasl", "base", "Wasl/base", "body B", "base B"],
      ...rows.map((r) => [
        r.name,
        r.wasl.perSecond.toFixed(0),
        ms(r.wasl.p50),
        ms(r.wasl.p99),
        r.baseline.perSecond.toFixed(0),
        ms(r.baseline.p50),
        ms(r.baseline.p99),
        `${(r.wasl.perSecond / r.baseline.perSecond).toFixed(2)}x`,
        `${(r.wasl.p50 / r.baseline.p50).toFixed(1)}x`,
        `${(r.wasl.p99 / r.baseline.p99).toFixed(1)}x`,
        r.floor.perSecond.toFixed(0),
        `${(r.floor.perSecond / r.baseline.perSecond).toFixed(2)}x`,
        `${(r.apiFloor.perSecond / r.baseline.perSecond).toFixed(2)}x`,
        cpuCell(r.wasl),
        cpuCell(r.baseline),
        cpuRatioCell(r.wasl, r.baseline),
        String(r.wasl.bytes),
        String(r.baseline.bytes)
      ])
    ], "  "),
    "",
    misses.length === 0
      ? "target: Wasl/baseline throughput >= 0.9x met by every query"
      : `target MISSED (Wasl/baseline throughput < 0.9x): ${misses.map((m) => m.name).join("; ")}`,
    rss === undefined
      ? "apps/server RSS: not readable here"
      : `apps/server RSS over the list load: ${rss.first.toFixed(0)} MiB at start, ${rss.peak.toFixed(0)} MiB at most, ${
        rss.last.toFixed(0)
      } MiB at the end`
  ]
}

const report = (
  startedAt: Date,
  database: { readonly name: string },
  version: string,
  seeded: { readonly seconds: number; readonly main: number },
  results: ReadonlyArray<Row>,
  http: HttpRun
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
    `  list = RecordRepositoryPg's list (compile the filter AST, run, decode the page); raw = the same SQL and parameters sent`,
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
      : `targets MISSED (p95 > 50 ms): ${misses.map((m) => m.name).join("; ")}`,
    "",
    ...httpReport(http)
  ].join("\n")
}

const program = Effect.gen(function*() {
  const startedAt = new Date()
  const database = yield* benchDatabase
  yield* log(`created ${database.name}`)
  const sql = yield* PgClient.make({ ...pgClientOptions, url: Redacted.make(database.url), maxConnections: 4 })
  const [{ version }] = yield* sql<{ readonly version: string }>`SELECT version() AS version`
  yield* runMigrations.pipe(Effect.provideService(SqlClient.SqlClient, sql))
  // The environment of the children (CLI, apps/server, baseline): this database, a temporary data directory.
  const tmp = yield* Effect.acquireRelease(
    Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-bench-records-"))),
    (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
  )
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, WASL_DATA_DIR: Path.join(tmp, "data") }
  const owner = yield* bootstrapOwner(env)
  yield* log(`account ${owner.account_id} made with the CLI, with its owner, the Administrators team and a token`)
  const seeded = yield* seed(sql, owner.account_id)
  const results = yield* measure(sql, seeded.main, seeded.custom).pipe(
    Effect.provide(Layer.mergeAll(RecordRepositoryPg, PropertyRepositoryPg)),
    Effect.provideService(SqlClient.SqlClient, sql)
  )
  const http = yield* measureHttp(env, seeded.main, seeded.custom, owner.token)
  console.log(report(startedAt, database, version!, seeded, results, http))
  writeResults([
    ...results.filter((r) => r.target).map((r) => figureResult(`RecordRepositoryPg list ${r.name}: p95 ms`, r.list.p95, 50)),
    ...httpResults(http)
  ])
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
// The scope stops the children it started; this stops any whose start was cut short.
await stopAllChildren()
if (Exit.isFailure(exit)) console.error(`bench:records: failed\n${String(exit.cause)}`)
process.exit(Exit.isSuccess(exit) ? 0 : 1)
