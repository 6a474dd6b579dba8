/**
 * The writes benchmark (`npx node bench/writes.ts`): `POST /api/deals` and `PUT /api/deals/{_id}`
 * on the real Wasl HTTP server (`apps/server`, a child process) against a bare `node:http` server
 * (`node bench/writes.ts --baseline`, also a child) doing the same write in one transaction with
 * raw SQL: the deal row, then its event in the outbox. PostgreSQL only (`BENCH_DATABASE_URL`,
 * default `postgres://postgres@127.0.0.1:5432/postgres`; the run creates and drops its own
 * database). A second apps/server without property history (bench/support/server-without-history.ts)
 * prices what keeping the history costs a write. See bench/README.md ("The writes benchmark").
 *
 * | variable            | default | meaning                                                        |
 * |---------------------|---------|----------------------------------------------------------------|
 * | `BENCH_REQUESTS`    | 2000    | measured requests per server and endpoint                      |
 * | `BENCH_WARMUP`      | 1000    | warm-up requests per server and endpoint (not measured)        |
 * | `BENCH_CONCURRENCY` | 10      | concurrent keep-alive connections (one request in flight each) |
 * | `BENCH_ROUNDS`      | 4       | the measured requests in this many rounds, alternating servers |
 * | `BENCH_JSON`        | unset   | a file the figures are added to, as JSON                       |
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import * as Os from "node:os"
import { fileURLToPath } from "node:url"
import { pgClientOptions } from "@wasl/adapters/Postgres"
import { Effect } from "effect"
import { notFound, openPgClient, type Reply, serveBaseline } from "./support/baseline-server.ts"
import { startBaseline, startWaslServer, stopChild } from "./support/children.ts"
import { benchDeployment } from "./support/deployment.ts"
import { intFromEnv } from "./support/env.ts"
import { runBenchmark } from "./support/harness.ts"
import { serveHttpApiFloor } from "./support/httpapi-floor.ts"
import {
  alternate,
  combineFigures,
  FIGURES_HEADER,
  type Figures,
  figuresRow,
  type LoadRequest,
  loadRequests,
  makeSender,
  ratioRow,
  roundShare,
  roundsFromEnv,
  withServerCpu
} from "./support/load.ts"
import { apiFloorResults, cpuResults, figureResult, floorResults, ratioResult, writeResults } from "./support/results.ts"
import { sampleRss } from "./support/rss.ts"
import { table } from "./support/table.ts"
import { keptTokenOwner } from "./support/token-owner.ts"

const self = fileURLToPath(import.meta.url)
const log = (message: string) => console.error(`bench:writes: ${message}`)

/** Target: Wasl's writes per second at least this fraction of the baseline's. */
const TARGET = 0.8

/** Target: with property history, Wasl's writes per second at least this fraction of its own without (a loss of at most 15 %). */
const HISTORY_TARGET = 0.85

const withoutHistoryMain = fileURLToPath(new URL("./support/server-without-history.ts", import.meta.url))

const STAGES = ["appointment_scheduled", "qualified_to_buy", "presentation_scheduled", "contract_sent"]

/** The i-th create's body, and the i-th update's: the same built-in properties on both servers. */
const createBody = (i: number) => JSON.stringify({ deal_name: `Deal ${i}`, amount: 1000 + i, deal_stage: STAGES[i % STAGES.length] })
const updateBody = (i: number) => JSON.stringify({ amount: 5000 + i, deal_stage: STAGES[(i + 1) % STAGES.length] })

// -----------------------------------------------------------------------------
// the baseline server (`node bench/writes.ts --baseline`)
// -----------------------------------------------------------------------------

const DEAL_COLUMNS = "id, deal_name, amount, deal_stage, close_date, forecast_amount, next_steps, custom, created_at, updated_at"

/** A record id as Wasl makes them: 4 bytes of seconds and 8 random bytes, in hex. */
const recordId = () => Math.floor(Date.now() / 1000).toString(16).padStart(8, "0") + randomBytes(8).toString("hex")

const runBaselineServer = async () => {
  const { close, sql } = await openPgClient(process.env.DATABASE_URL!, {
    ...pgClientOptions,
    applicationName: "wasl-bench-writes-baseline",
    maxConnections: 10
  })
  const columns = sql.literal(DEAL_COLUMNS)
  /** The deal's row and its event, in one transaction; the answer is the row. */
  const write = (
    accountId: number,
    event: "deal-created" | "deal-updated",
    statement: Effect.Effect<ReadonlyArray<any>, unknown>,
    status: number
  ) =>
    sql.withTransaction(Effect.gen(function*() {
      const rows = yield* statement
      if (rows.length === 0) return notFound
      const now = new Date()
      yield* sql`
        INSERT INTO outbox_events (account_id, name, payload, occurred_at)
        VALUES (${accountId}, ${event}, ${JSON.stringify({ properties: rows[0] })}, ${now})
      `
      return { status, body: JSON.stringify({ data: { properties: rows[0] } }) } satisfies Reply
    })).pipe(Effect.orDie)
  /** The answer to a write of the account's, `body` its JSON body. */
  const answer = (accountId: number, method: string, path: string, body: any): Effect.Effect<Reply> => {
    if (method === "POST" && path === "/api/deals") {
      const now = new Date()
      return write(
        accountId,
        "deal-created",
        sql`
          INSERT INTO deals (account_id, id, deal_name, amount, deal_stage, created_at, updated_at)
          VALUES (${accountId}, ${recordId()}, ${body.deal_name}, ${body.amount}, ${body.deal_stage}, ${now}, ${now})
          RETURNING ${columns}
        `,
        201
      )
    }
    const update = /^\/api\/deals\/([0-9a-f]{24})$/.exec(path)
    if (method === "PUT" && update !== null) {
      return write(
        accountId,
        "deal-updated",
        sql`
          UPDATE deals SET amount = ${body.amount}, deal_stage = ${body.deal_stage}, updated_at = ${new Date()}
          WHERE account_id = ${accountId} AND id = ${update[1]!}
          RETURNING ${columns}
        `,
        200
      )
    }
    return Effect.succeed(notFound)
  }
  if (process.env.BASELINE_HTTP === "httpapi") {
    return serveHttpApiFloor(
      {
        authenticate: keptTokenOwner(sql),
        answer: (caller, request) => answer(Number(caller.accountId), request.method, request.url, request.body)
      },
      close,
      intFromEnv("BASELINE_PORT", 0, 0),
      process.env.BASELINE_RULES === "1"
    )
  }
  const accountId = Number(process.env.BASELINE_ACCOUNT)
  serveBaseline(
    (request, text) => Effect.runPromise(answer(accountId, request.method ?? "", request.url ?? "", text === "" ? {} : JSON.parse(text))),
    close
  )
}

// -----------------------------------------------------------------------------
// the run
// -----------------------------------------------------------------------------

interface Phase {
  readonly create: Figures
  readonly update: Figures
  readonly client: string
}

/**
 * One server's writes: creates, then updates of the deals created, each under the same closed loop;
 * the figures of every measured round kept and put together by `phase`.
 */
const makeWriter = async (origin: string, headers: Record<string, string>, concurrency: number, pid: number | undefined) => {
  const sender = await makeSender(origin, headers, concurrency)
  const ids: Array<string> = []
  // Wasl's record shape names the id `_id`, the baseline's row `id`.
  const keepId = (_: number, text: () => string) => {
    const { properties } = JSON.parse(text()).data
    ids.push(properties._id ?? properties.id)
  }
  const post = (i: number): LoadRequest => ({ method: "POST", path: "/api/deals", body: createBody(i) })
  const put = (i: number): LoadRequest => ({ method: "PUT", path: `/api/deals/${ids[i % ids.length]}`, body: updateBody(i) })
  const creates: Array<Figures> = []
  const updates: Array<Figures> = []
  return {
    sender,
    warmUp: async (requests: number) => {
      if (requests === 0) return
      await loadRequests(sender, requests, concurrency, post, 201, keepId)
      await loadRequests(sender, requests, concurrency, put, 200)
    },
    round: async (requests: number) => {
      creates.push(await withServerCpu(pid, () => loadRequests(sender, requests, concurrency, post, 201, keepId)))
      updates.push(await withServerCpu(pid, () => loadRequests(sender, requests, concurrency, put, 200)))
    },
    phase: (): Phase => ({ create: combineFigures(creates), update: combineFigures(updates), client: sender.name })
  }
}

const run = async () => {
  const settings = {
    requests: intFromEnv("BENCH_REQUESTS", 2000, 1),
    warmup: intFromEnv("BENCH_WARMUP", 1000, 0),
    concurrency: intFromEnv("BENCH_CONCURRENCY", 10, 1),
    rounds: roundsFromEnv()
  }
  process.env.BENCH_DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/postgres"
  const startedAt = new Date()
  const { databaseLabel, env, token } = await benchDeployment(log)
  const headers = { accept: "application/json", authorization: `Bearer ${token}` }

  log("starting apps/server...")
  const wasl = await startWaslServer({ ...env, WASL_RATE_LIMIT: "0" })
  const me = await fetch(`${wasl.origin}/api/me`, { headers }).then((r) => r.json()) as { readonly account: { readonly id: number } }
  const startBare = (label: string, http: "node" | "effect" | "httpapi", rules = false) => {
    log(`starting the ${label}...`)
    return startBaseline(self, ["--baseline"], {
      ...env,
      BASELINE_ACCOUNT: String(me.account.id),
      BASELINE_HTTP: http,
      BASELINE_RULES: rules ? "1" : "0"
    })
  }
  log("starting apps/server without property history...")
  const bare = await startWaslServer({ ...env, WASL_RATE_LIMIT: "0" }, withoutHistoryMain)
  const servers = [
    wasl,
    bare,
    await startBare("baseline", "node"),
    await startBare("Effect HTTP floor", "effect"),
    await startBare("HttpApi floor", "httpapi"),
    await startBare("HttpApi floor with the request frame", "httpapi", true)
  ]
  const writers = await Promise.all(
    servers.map((server) => makeWriter(server.origin, headers, settings.concurrency, server.child.child.pid))
  )
  log(
    `each server: ${settings.warmup} warm-up creates and updates, then ${settings.requests} of each in ${settings.rounds} alternating rounds...`
  )
  const rss = sampleRss(wasl.child.child.pid)
  for (const writer of writers) await writer.warmUp(settings.warmup)
  await alternate(writers, settings.rounds, (writer, round) => writer.round(roundShare(settings.requests, settings.rounds, round)))
  const memory = rss.stop()
  for (const writer of writers) await writer.sender.close()
  for (const server of servers) await stopChild(server.child)
  const [w, n, b, f, a, af] = writers.map((writer) => writer.phase()) as [Phase, Phase, Phase, Phase, Phase, Phase]

  const results = [
    ratioResult("POST /api/deals: req/s", w.create.perSecond, b.create.perSecond, TARGET),
    ratioResult("PUT /api/deals/{_id}: req/s", w.update.perSecond, b.update.perSecond, TARGET),
    ratioResult("POST /api/deals with history vs without: req/s", w.create.perSecond, n.create.perSecond, HISTORY_TARGET),
    ratioResult("PUT /api/deals/{_id} with history vs without: req/s", w.update.perSecond, n.update.perSecond, HISTORY_TARGET),
    ...floorResults("POST /api/deals: req/s", w.create.perSecond, f.create.perSecond, b.create.perSecond),
    ...floorResults("PUT /api/deals/{_id}: req/s", w.update.perSecond, f.update.perSecond, b.update.perSecond),
    ...apiFloorResults("POST /api/deals: req/s", a.create, af.create, b.create),
    ...apiFloorResults("PUT /api/deals/{_id}: req/s", a.update, af.update, b.update),
    ...cpuResults("POST /api/deals", w.create, b.create),
    ...cpuResults("PUT /api/deals/{_id}", w.update, b.update),
    ...(memory === undefined ? [] : [figureResult("apps/server RSS peak under writes (MiB)", memory.peak)])
  ]
  const cpus = Os.cpus()
  console.log([
    `Wasl writes benchmark, ${startedAt.toISOString()}`,
    `  POST /api/deals then PUT /api/deals/{_id} (the deals just created): ${settings.requests} requests each after ${settings.warmup} warm-up,`,
    `  in ${settings.rounds} rounds alternating between the servers,`,
    `  ${settings.concurrency} concurrent keep-alive connections (${w.client}), loopback`,
    `  database: ${databaseLabel}`,
    `  Wasl without history: the same apps/server with the property history off (the history's cost);`,
    `  baseline: node:http + raw SQL, one transaction per write (the deal row, its outbox event), no authentication;`,
    `  Effect HTTP floor: the same baseline served through Effect's HTTP platform (NodeHttpServer, HttpRouter);`,
    `  HttpApi floor: the same transaction as an effect/http-api endpoint, the bearer token checked once and kept;`,
    `  + frame: also the request id, the access line and the request metrics`,
    `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
    "",
    table([
      FIGURES_HEADER,
      figuresRow("POST Wasl", w.create),
      figuresRow("POST Wasl without history", n.create),
      figuresRow("POST baseline", b.create),
      figuresRow("POST Effect HTTP floor", f.create),
      figuresRow("POST HttpApi floor", a.create),
      figuresRow("POST HttpApi floor + frame", af.create),
      ratioRow("POST Wasl / baseline", w.create, b.create),
      ratioRow("POST Wasl / without history", w.create, n.create),
      ratioRow("POST floor / baseline", f.create, b.create),
      ratioRow("POST HttpApi floor / baseline", a.create, b.create),
      ratioRow("POST + frame / baseline", af.create, b.create),
      ratioRow("POST Wasl / floor", w.create, f.create),
      figuresRow("PUT Wasl", w.update),
      figuresRow("PUT Wasl without history", n.update),
      figuresRow("PUT baseline", b.update),
      figuresRow("PUT Effect HTTP floor", f.update),
      figuresRow("PUT HttpApi floor", a.update),
      figuresRow("PUT HttpApi floor + frame", af.update),
      ratioRow("PUT Wasl / baseline", w.update, b.update),
      ratioRow("PUT Wasl / without history", w.update, n.update),
      ratioRow("PUT floor / baseline", f.update, b.update),
      ratioRow("PUT HttpApi floor / baseline", a.update, b.update),
      ratioRow("PUT + frame / baseline", af.update, b.update),
      ratioRow("PUT Wasl / floor", w.update, f.update)
    ]),
    "",
    ...results.filter((r) => r.target !== null).map((r) =>
      `${r.name}: ${r.ratio!.toFixed(2)}x of ${r.name.includes("without") ? "Wasl without history" : "the baseline"}, target >= ${r.target}x ${r.met ? "met" : "MISSED"}`
    ),
    memory === undefined
      ? "apps/server RSS: not readable here"
      : `apps/server RSS over the writes: ${memory.first.toFixed(0)} MiB at start, ${memory.peak.toFixed(0)} MiB at most, ${
        memory.last.toFixed(0)
      } MiB at the end`
  ].join("\n"))
  writeResults(results)
}

if (process.argv.includes("--baseline")) await runBaselineServer()
else await runBenchmark(run, { defaultTimeoutMs: 600_000, log })
