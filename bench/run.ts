/**
 * The foundation benchmark (`npm run bench`): authenticated `GET /api/me` on the real Wasl HTTP
 * server (`apps/server`, a child process), without and with a request rate limit, against a
 * baseline from the same run, with N concurrent
 * keep-alive connections on loopback. See bench/README.md for what is measured and how to read it.
 *
 * Environment (all optional):
 *
 * | variable              | default | meaning                                                        |
 * |-----------------------|---------|----------------------------------------------------------------|
 * | `BENCH_REQUESTS`      | 3000    | measured requests per server                                   |
 * | `BENCH_WARMUP`        | 5000    | warm-up requests per server (not measured)                     |
 * | `BENCH_CONCURRENCY`   | 10      | concurrent keep-alive connections (one request in flight each) |
 * | `BENCH_ROUNDS`        | 4       | the measured requests in this many rounds, alternating servers |
 * | `BENCH_DATABASE_URL`  | unset   | a PostgreSQL server: the run creates and drops its own database |
 * | `BENCH_TIMEOUT_MS`    | 300000  | the whole run stops (exit 1) after this long                   |
 * | `BENCH_JSON`          | unset   | a file the figures are added to, as JSON                       |
 *
 * Without `BENCH_DATABASE_URL` Wasl runs on the embedded database (a temporary `WASL_DATA_DIR`) and
 * the baseline is a bare `node:http` server answering a fixed body of the same size; with it, the
 * baseline is a bare `node:http` server doing the authentication and loading work with raw SQL over
 * the same database. `node bench/run.ts --baseline` is that baseline server (started by the run);
 * with `BASELINE_HTTP=effect` it serves the same handler through Effect's HTTP platform (the Effect
 * HTTP floor), with `BASELINE_HTTP=httpapi` the same work as an `effect/http-api` API, with
 * `BASELINE_RULES=1` also the request frame every Wasl request has (bench/support/httpapi-floor.ts).
 *
 * @module
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import { live, notFound, openPgClient, type Reply, serveBaseline, unauthenticated } from "./support/baseline-server.ts"
import { startBaseline, startWaslServer, stopChild } from "./support/children.ts"
import { benchDeployment } from "./support/deployment.ts"
import { intFromEnv } from "./support/env.ts"
import { runBenchmark } from "./support/harness.ts"
import { type Caller, type FloorRequest, serveHttpApiFloor } from "./support/httpapi-floor.ts"
import { tokenOwner } from "./support/token-owner.ts"
import { FIGURES_HEADER, type Figures, figuresRow, measureAlternating, ratioRow, roundsFromEnv } from "./support/load.ts"
import { apiFloorResults, cpuResults, floorResults, ratioResult, writeResults } from "./support/results.ts"
import { table } from "./support/table.ts"

const self = fileURLToPath(import.meta.url)

// -----------------------------------------------------------------------------
// the baseline server (`node bench/run.ts --baseline`)
// -----------------------------------------------------------------------------


const BEARER = /^Bearer (.*)$/

/**
 * What an authenticated `GET /api/me` minimally has to do, in raw SQL, in two steps (the HttpApi
 * floor runs the first in its security middleware): the token's owner (bench/support/token-owner.ts),
 * then the owner's user and account.
 */
const meOf = (sql: PgClient.PgClient, { accountId, userId }: Caller) =>
  Effect.gen(function*() {
    const users = yield* sql`
      SELECT id::int4 AS id, email, email_verified_at, firstname, lastname, image, locale,
             contacts_view_id, deals_view_id, tickets_view_id, created_at, updated_at
      FROM users WHERE id = ${userId}::bigint
    `
    const accounts = yield* sql`
      SELECT id::int4 AS id, name, plan, otp_credits::int4 AS otp_credits, industry, logo, address,
             time_zone AS "timeZone", calendar, hour12, locale, currency, created_at, updated_at
      FROM accounts WHERE id = ${accountId}::bigint
    `
    if (users.length === 0 || accounts.length === 0) return unauthenticated
    return { status: 200, body: JSON.stringify({ ...users[0], account: accounts[0] }) } satisfies Reply
  }).pipe(Effect.orDie)

const meWithSql = (sql: PgClient.PgClient, authorization: string | undefined) =>
  Effect.flatMap(
    tokenOwner(sql, BEARER.exec(authorization ?? "")?.[1] ?? ""),
    (caller) => caller === undefined ? Effect.succeed(unauthenticated) : meOf(sql, caller)
  )

const ME_PATH = "/api/me"
/**
 * The frame: the least request there is, `GET /health/live` (no authentication, no database, a
 * 15-byte answer), which Wasl still serves through everything every request passes (its boundary
 * with the request id, the body checks and the access line, the metrics, HttpApi's routing and
 * encoding). The baselines answer it with the same bytes, so the comparison prices that frame.
 */
const LIVE_PATH = "/health/live"

const runBaselineServer = async () => {
  const databaseUrl = process.env.DATABASE_URL
  if (databaseUrl !== undefined && databaseUrl !== "") {
    const { close, sql } = await openPgClient(databaseUrl)
    if (process.env.BASELINE_HTTP === "httpapi") {
      const work = {
        authenticate: (token: string) => tokenOwner(sql, token),
        answer: (caller: Caller, { url }: FloorRequest) => url === ME_PATH ? meOf(sql, caller) : Effect.succeed(notFound)
      }
      return serveHttpApiFloor(work, close, intFromEnv("BASELINE_PORT", 0, 0), process.env.BASELINE_RULES === "1")
    }
    serveBaseline(
      (request) =>
        request.url === ME_PATH
          ? Effect.runPromise(meWithSql(sql, request.headers.authorization))
          : Promise.resolve(request.url === LIVE_PATH ? live : notFound),
      close
    )
  } else {
    const reply: Reply = { status: 200, body: Fs.readFileSync(process.env.BASELINE_BODY_FILE!, "utf8") }
    serveBaseline((request) => Promise.resolve(request.url === ME_PATH ? reply : request.url === LIVE_PATH ? live : notFound))
  }
}

// -----------------------------------------------------------------------------
// the run
// -----------------------------------------------------------------------------

/** The HttpApi floors' rows of a table (none on the embedded database, which has no such floor). */
const apiFloorRows = (api: Figures | undefined, framed: Figures | undefined) =>
  api === undefined || framed === undefined
    ? []
    : [figuresRow("HttpApi floor", api), figuresRow("HttpApi floor + frame", framed)]

const apiFloorRatios = (api: Figures | undefined, framed: Figures | undefined, bare: Figures) =>
  api === undefined || framed === undefined
    ? []
    : [ratioRow("HttpApi floor / baseline", api, bare), ratioRow("+ frame / baseline", framed, bare)]

/** The HttpApi floors' results (none on the embedded database, which has no such floor). */
const apiFloorResultsIfAny = (name: string, api: Figures | undefined, framed: Figures | undefined, bare: Figures) =>
  api === undefined || framed === undefined ? [] : apiFloorResults(name, api, framed, bare)

const run = async () => {
  const settings = {
    requests: intFromEnv("BENCH_REQUESTS", 3000, 1),
    // V8 keeps optimizing Wasl's path for thousands of requests (its CPU per request falls by a
    // third between the first and the tenth thousand); the servers are measured warm, as they run.
    warmup: intFromEnv("BENCH_WARMUP", 5000, 0),
    concurrency: intFromEnv("BENCH_CONCURRENCY", 10, 1),
    rounds: roundsFromEnv()
  }
  const startedAt = new Date()
  const { databaseLabel, dir: tmp, env, token } = await benchDeployment((message) => console.error(`bench: ${message}`))
  const headers = { accept: "application/json", authorization: `Bearer ${token}` }
  // The same token id with a wrong secret: a server that authenticates must refuse it.
  const wrongHeaders = { ...headers, authorization: `Bearer ${token.split("|")[0]}|${"x".repeat(40)}` }
  const expectStatus = async (origin: string, requestHeaders: Record<string, string>, status: number) => {
    const response = await fetch(`${origin}/api/me`, { headers: requestHeaders })
    const text = await response.text()
    if (response.status !== status) throw new Error(`${origin}/api/me answered ${response.status}, not ${status}: ${text}`)
    return text
  }

  // 2. The servers, all started before any is measured: Wasl twice, without the request rate
  // limit and with one too high to refuse anything (the difference is what counting costs: one
  // upsert on the token's row per request), then the baseline and the floor, in child processes.
  const startWasl = async (serverEnv: NodeJS.ProcessEnv, label: string, rateLimit: string) => {
    console.error(`bench: starting apps/server (${label})...`)
    const wasl = await startWaslServer({ ...serverEnv, WASL_RATE_LIMIT: rateLimit })
    const body = await expectStatus(wasl.origin, headers, 200)
    await expectStatus(wasl.origin, wrongHeaders, 401)
    return { ...wasl, body }
  }
  // The embedded database admits one process per data directory: the second server gets a copy,
  // made before either starts.
  const onPostgres = env.DATABASE_URL !== undefined
  const limitedEnv = onPostgres ? env : { ...env, WASL_DATA_DIR: Path.join(tmp, "data-rate-limited") }
  if (!onPostgres) Fs.cpSync(env.WASL_DATA_DIR!, limitedEnv.WASL_DATA_DIR!, { recursive: true })
  const wasl = await startWasl(env, "Wasl", "0")
  const limited = await startWasl(limitedEnv, "Wasl with a rate limit", "1000000000/1 minute")

  const bodyFile = Path.join(tmp, "me.json")
  Fs.writeFileSync(bodyFile, wasl.body)
  const baselineKind = onPostgres
    ? "node:http + raw SQL (token by id, SHA-256 compare, user, account)"
    : "node:http echo of a fixed body of the same size (no database)"
  const startBare = async (label: string, http: "node" | "effect" | "httpapi", rules = false) => {
    console.error(`bench: starting the ${label} (${baselineKind})...`)
    const baseline = await startBaseline(self, ["--baseline"], {
      ...env,
      BASELINE_BODY_FILE: bodyFile,
      BASELINE_HTTP: http,
      BASELINE_RULES: rules ? "1" : "0"
    })
    await expectStatus(baseline.origin, headers, 200)
    if (onPostgres) await expectStatus(baseline.origin, wrongHeaders, 401)
    return baseline
  }
  const baseline = await startBare("baseline", "node")
  const floor = await startBare("Effect HTTP floor", "effect")
  // On PostgreSQL, the baseline's work through HttpApi, without and with the frame every Wasl
  // request must have (request id, access line, metrics): bench/support/httpapi-floor.ts.
  const apiFloors = onPostgres
    ? [await startBare("HttpApi floor", "httpapi"), await startBare("HttpApi floor with the request frame", "httpapi", true)]
    : []

  // 3. The same load on all of them, in alternating rounds.
  const servers = [wasl, limited, baseline, floor, ...apiFloors]
  console.error(
    `bench: ${settings.warmup} warm-up + ${settings.requests} requests per server, in ${settings.rounds} alternating rounds...`
  )
  const [waslRun, limitedRun, baselineRun, floorRun, ...apiFloorRuns] = await measureAlternating(
    servers.map((server) => ({ origin: server.origin, pid: server.child.child.pid })),
    headers,
    settings,
    () => ME_PATH
  )
  // 4. The frame: the same three ways, `GET /health/live` (Wasl without the rate limit).
  console.error(`bench: the frame (${LIVE_PATH}): the same load on Wasl, the baselines and the floors...`)
  const [waslLive, baselineLive, floorLive, ...apiFloorLives] = await measureAlternating(
    [wasl, baseline, floor, ...apiFloors].map((server) => ({ origin: server.origin, pid: server.child.child.pid })),
    headers,
    settings,
    () => LIVE_PATH
  )
  for (const server of servers) await stopChild(server.child)

  // 5. The figures.
  const w = waslRun.figures
  const l = limitedRun.figures
  const b = baselineRun.figures
  const f = floorRun.figures
  const [api, apiFramed] = apiFloorRuns.map((run) => run.figures)
  const [apiLive, apiFramedLive] = apiFloorLives.map((run) => run.figures)
  const cpus = Os.cpus()
  console.log(
    [
      `Wasl foundation benchmark, ${startedAt.toISOString()}`,
      `  GET /api/me with a bearer token: ${settings.requests} requests after ${settings.warmup} warm-up per server,`,
      `  in ${settings.rounds} rounds alternating between the servers,`,
      `  ${settings.concurrency} concurrent keep-alive connections (${waslRun.client}), loopback`,
      `  database: ${databaseLabel}`,
      `  baseline: ${baselineKind}; Effect HTTP floor: the same served through Effect's HTTP platform`,
      ...(api === undefined ? [] : [
        "  HttpApi floor: the same work as an effect/http-api endpoint, the token checked in its bearer security middleware;",
        "  with the request frame: also a request id, the access line and the request metrics (what every Wasl request does)"
      ]),
      `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
      "",
      table([
        FIGURES_HEADER,
        figuresRow("Wasl", w),
        figuresRow("Wasl, rate-limited", l),
        figuresRow("baseline", b),
        figuresRow("Effect HTTP floor", f),
        ...apiFloorRows(api, apiFramed),
        ratioRow("Wasl / baseline", w, b),
        ratioRow("floor / baseline", f, b),
        ...apiFloorRatios(api, apiFramed, b),
        ratioRow("rate-limited / Wasl", l, w)
      ]),
      "",
      `The frame, ${LIVE_PATH} (no authentication, no database; Wasl without the rate limit), the same load:`,
      "",
      table([
        FIGURES_HEADER,
        figuresRow("Wasl", waslLive.figures),
        figuresRow("baseline", baselineLive.figures),
        figuresRow("Effect HTTP floor", floorLive.figures),
        ...apiFloorRows(apiLive, apiFramedLive),
        ratioRow("Wasl / baseline", waslLive.figures, baselineLive.figures),
        ratioRow("Wasl / floor", waslLive.figures, floorLive.figures),
        ...apiFloorRatios(apiLive, apiFramedLive, baselineLive.figures)
      ])
    ].join("\n")
  )
  // The target (≥ 0.6x) is against the PostgreSQL baseline, which does the request's work; the
  // embedded run's baseline is an echo of the body.
  writeResults([
    ratioResult(`GET /api/me (${onPostgres ? "PostgreSQL" : "embedded"}): req/s`, w.perSecond, b.perSecond, onPostgres ? 0.6 : null),
    ratioResult("GET /api/me rate-limited / not limited: req/s", l.perSecond, w.perSecond, null),
    ...(onPostgres ? floorResults("GET /api/me (PostgreSQL): req/s", w.perSecond, f.perSecond, b.perSecond) : []),
    ...(onPostgres ? cpuResults("GET /api/me (PostgreSQL)", w, b) : []),
    ...apiFloorResultsIfAny("GET /api/me (PostgreSQL): req/s", api, apiFramed, b),
    ratioResult(`GET ${LIVE_PATH} (the frame): req/s`, waslLive.figures.perSecond, baselineLive.figures.perSecond, null),
    ...floorResults(`GET ${LIVE_PATH} (the frame): req/s`, waslLive.figures.perSecond, floorLive.figures.perSecond, baselineLive.figures.perSecond),
    ...cpuResults(`GET ${LIVE_PATH} (the frame)`, waslLive.figures, baselineLive.figures),
    ...apiFloorResultsIfAny(`GET ${LIVE_PATH} (the frame): req/s`, apiLive, apiFramedLive, baselineLive.figures)
  ])
}

if (process.argv.includes("--baseline")) await runBaselineServer()
else await runBenchmark(run, { defaultTimeoutMs: 300_000, log: (message) => console.error(`bench: ${message}`) })
