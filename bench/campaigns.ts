/**
 * The campaign benchmark (`npx node bench/campaigns.ts`: Node 24, the `node` devDependency): one
 * worker process (`apps/worker`) sending a campaign of `BENCH_RECIPIENTS` (100,000) contacts
 * through a fake WhatsApp Cloud API that answers each message after `BENCH_LATENCY_MS` (50 ms),
 * on PostgreSQL. See bench/README.md ("The campaign benchmark").
 *
 * 1. Creates a database `wasl_bench_<random>` on `BENCH_DATABASE_URL` (default
 *    `postgres://postgres@127.0.0.1:5432/postgres`); starts `apps/server` (it migrates), creates
 *    an account with the CLI, gives it a `custom` plan whose monthly allowance is the campaign's
 *    size, and through the API a `whatsapp_cloud` sending number and a MARKETING broadcast (the
 *    fake approves it at once). Seeds the contacts with one statement.
 * 2. Asks for a campaign to every contact (`audience: { complex_filters: [] }`), then starts one
 *    `apps/worker` with `WASL_WHATSAPP_SEND_RATE` = `BENCH_RATE` (1,000 a second).
 * 3. Measures, at the fake Cloud API: the achieved rate (messages from the first to the last
 *    arrival), the most requests in flight at once, and duplicates (a number sent to twice).
 *    Target: the achieved rate ≥ 0.95 of the pace (the worker is never the bottleneck). The
 *    worker's resident memory is sampled over the campaign, its CPU time divided by the messages.
 * 4. Once the campaign is `completed`, counts the rows written per recipient (messages, campaign
 *    recipients, contact channels, outbox events; the campaign row and the allowance's counter
 *    are one each), prints the figures (and adds them to `BENCH_JSON`, if set), stops the
 *    children and drops the database (also on failure, Ctrl-C or `BENCH_TIMEOUT_MS`, 10 minutes).
 *
 * | variable           | default | meaning                                      |
 * |--------------------|---------|----------------------------------------------|
 * | `BENCH_RECIPIENTS` | 100000  | contacts in the campaign                     |
 * | `BENCH_RATE`       | 1000    | the pace: `WASL_WHATSAPP_SEND_RATE`          |
 * | `BENCH_LATENCY_MS` | 50      | how long the fake Cloud API takes to answer  |
 * | `BENCH_JSON`       | unset   | a file the figures are added to, as JSON     |
 *
 * @module
 */
import { PgClient } from "@effect/sql-pg"
import { pgClientOptions } from "@wasl/adapters/Postgres"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Os from "node:os"
import * as Path from "node:path"
import { performance } from "node:perf_hooks"
import { benchApi, bootstrapAccount, root, startChild, startWaslServer } from "./support/children.ts"
import { cpuSeconds } from "./support/cpu.ts"
import { createBenchDatabase } from "./support/database.ts"
import { intFromEnv, nodeFlagsFromEnv } from "./support/env.ts"
import { atCleanup, runBenchmark } from "./support/harness.ts"
import { figureResult, ratioResult, writeResults } from "./support/results.ts"
import { sampleRss } from "./support/rss.ts"
import { table } from "./support/table.ts"

const settings = {
  url: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  recipients: intFromEnv("BENCH_RECIPIENTS", 100_000, 10),
  rate: intFromEnv("BENCH_RATE", 1_000, 1),
  latencyMs: intFromEnv("BENCH_LATENCY_MS", 50, 0)
}

const log = (message: string) => console.error(`bench:campaigns: ${message}`)
const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, millis)))

/** The achieved rate must be at least this fraction of the pace. */
const PACE_TARGET = 0.95

/** The node flags `npm run worker` starts the worker with (the root package.json's `worker` script). */
const npmWorkerFlags = (): ReadonlyArray<string> => {
  const manifest = JSON.parse(Fs.readFileSync(Path.join(root, "package.json"), "utf8"))
  return String(manifest.scripts.worker).split(/\s+/).filter((word) => word.startsWith("--"))
}

const PHONE_ID = "106540352242900"
const WABA_ID = "102290129340300"
const ACCESS_TOKEN = "EAAG-bench-campaigns"

/**
 * A stand-in for the Cloud API's two endpoints the campaign needs: template creation (approved at
 * once) and messages (accepted after `latencyMs`). It records each message's arrival.
 */
const startFakeCloudApi = async (latencyMs: number) => {
  const arrivals: Array<number> = []
  const seen = new Set<string>()
  let duplicates = 0
  let inFlight = 0
  let maxInFlight = 0
  let seq = 0
  const server = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" })
        response.end(JSON.stringify(body))
      }
      const path = request.url ?? ""
      if (request.method === "POST" && path.endsWith("/message_templates")) {
        return send(200, { id: "9000000001", status: "APPROVED", category: "MARKETING" })
      }
      if (request.method === "POST" && path.endsWith(`/${PHONE_ID}/messages`)) {
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        const to = String(JSON.parse(Buffer.concat(chunks).toString("utf8")).to)
        arrivals.push(performance.now())
        if (seen.has(to)) duplicates++
        seen.add(to)
        return setTimeout(() => {
          inFlight--
          send(200, {
            messaging_product: "whatsapp",
            contacts: [{ input: to, wa_id: to }],
            messages: [{ id: `wamid.BENCH${++seq}`, message_status: "accepted" }]
          })
        }, latencyMs)
      }
      send(404, { error: { message: "Unknown path", type: "OAuthException", code: 803 } })
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${address.port}/v21.0`,
    arrivals,
    stats: () => ({ duplicates, maxInFlight, distinct: seen.size }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const run = async () => {
  const startedAt = new Date()
  const tmp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-bench-campaigns-"))
  atCleanup(() => Fs.rmSync(tmp, { recursive: true, force: true }))
  const database = await createBenchDatabase(settings.url)
  atCleanup(database.drop)
  const meta = await startFakeCloudApi(settings.latencyMs)
  atCleanup(meta.close)

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    WASL_DATA_DIR: Path.join(tmp, "data"),
    WASL_SECRET_KEY: randomBytes(32).toString("hex"),
    WASL_MAIL_OUTBOX: Path.join(tmp, "mail.jsonl"),
    WASL_WHATSAPP_GRAPH_URL: meta.url,
    WASL_WHATSAPP_SEND_RATE: String(settings.rate)
  }

  log("starting apps/server and bootstrapping an account...")
  const server = await startWaslServer(env)
  const bootstrap = await bootstrapAccount(env)
  const api = benchApi(server.origin, bootstrap.token)

  const runtime = ManagedRuntime.make(
    Layer.effectDiscard(Effect.void).pipe(
      Layer.provideMerge(PgClient.layer({ ...pgClientOptions, url: Redacted.make(database.url), maxConnections: 2 }))
    )
  )
  atCleanup(() => runtime.dispose())
  const query = (text: string, params: ReadonlyArray<unknown> = []) =>
    runtime.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe<{ readonly n: number }>(text, params)))
  const count = async (table: string) =>
    Number((await query(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [bootstrap.account_id]))[0]!.n)

  await query("UPDATE accounts SET plan = 'custom', message_limit = $2 WHERE id = $1", [bootstrap.account_id, settings.recipients])
  const platform = (await api("POST", "/api/platforms", {
    name: "Bench number",
    display_phone_number: "+1 555 000 9999",
    provider: "whatsapp_cloud",
    phone_id: PHONE_ID,
    waba_id: WABA_ID,
    access_token: ACCESS_TOKEN
  })).data
  const broadcast = (await api("POST", "/api/broadcasts", {
    name: "Spring sale",
    language: "en",
    platform_id: platform.id,
    template: { name: "spring_sale", category: "MARKETING", body: "The spring sale has started." }
  })).data
  if (broadcast.status !== "APPROVED") throw new Error(`the broadcast is ${broadcast.status}`)

  log(`seeding ${settings.recipients} contacts...`)
  await query(
    `INSERT INTO contacts (account_id, id, firstname, whatsapp_number, created_at, updated_at)
     SELECT $1::int8, lpad(to_hex(g), 24, '0'), 'Contact ' || g, '+9665' || lpad(g::text, 8, '0'), now(), now()
     FROM generate_series(1, $2::int) g`,
    [bootstrap.account_id, settings.recipients]
  )
  await query("VACUUM ANALYZE contacts")

  const campaign = (await api("POST", `/api/broadcasts/${broadcast.id}/campaigns`, {
    name: "Bench",
    audience: { complex_filters: [] }
  })).data

  log(`starting one apps/worker at ${settings.rate} messages/s...`)
  // The worker runs as `npm run worker` starts it (its node flags: the heap cap), then
  // BENCH_WORKER_NODE_ARGS: extra node flags (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const workerFlags = [...npmWorkerFlags(), ...nodeFlagsFromEnv("BENCH_WORKER_NODE_ARGS")]
  const worker = startChild("apps/worker", [...workerFlags, Path.join(root, "apps", "worker", "src", "main.ts")], env)
  await worker.waitFor(/Wasl delivery worker started/, 60_000)
  const rss = sampleRss(worker.child.pid)
  const cpuBefore = cpuSeconds(worker.child.pid)

  const deadline = Date.now() + (settings.recipients / settings.rate) * 1000 * 10 + 60_000
  // The campaign's status read from its row (the API's answer counts every recipient: read once,
  // at the end). The database behind the tests runs without autovacuum: this stands in for it,
  // so the planner knows the recipients and messages as they grow.
  let status = "queued"
  let analyzed = Date.now()
  while (status !== "completed") {
    if (Date.now() > deadline) {
      throw new Error(`the campaign is ${status} after ${meta.arrivals.length} messages\n${worker.output().slice(-3000)}`)
    }
    await sleep(500)
    if (Date.now() - analyzed > 5_000) {
      await query("VACUUM ANALYZE campaign_recipients, messages, contact_channels")
      analyzed = Date.now()
    }
    status = String((await query("SELECT status AS n FROM campaigns WHERE account_id = $1", [bootstrap.account_id]))[0]!.n)
  }
  if (process.env.BENCH_WORKER_OUTPUT) Fs.writeFileSync(process.env.BENCH_WORKER_OUTPUT, worker.output())
  const cpuAfter = cpuSeconds(worker.child.pid)
  const memory = rss.stop()
  const done = (await api("GET", `/api/campaigns/${campaign._id}`)).data
  const { duplicates, maxInFlight, distinct } = meta.stats()
  const seconds = (meta.arrivals.at(-1)! - meta.arrivals[0]!) / 1000
  const achieved = (meta.arrivals.length - 1) / seconds
  const cpuPerMessage = cpuBefore === undefined || cpuAfter === undefined
    ? undefined
    : ((cpuAfter - cpuBefore) * 1e6) / settings.recipients

  const rows = {
    messages: await count("messages"),
    campaign_recipients: await count("campaign_recipients"),
    contact_channels: await count("contact_channels"),
    outbox_events: await count("outbox_events")
  }
  const perRecipient = Object.values(rows).reduce((a, b) => a + b, 0) / settings.recipients

  const cpus = Os.cpus()
  console.log([
    `Wasl campaign benchmark, ${startedAt.toISOString()}`,
    `  one apps/worker process -> a fake Cloud API answering in ${settings.latencyMs} ms; PostgreSQL ${new URL(database.url).host}`,
    `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
    "",
    table([
      ["campaign", "value"],
      ["recipients", String(done.counts.recipients)],
      ["sent (counted by Wasl)", String(done.counts.sent)],
      ["messages at the fake Cloud API", `${meta.arrivals.length} (${distinct} numbers, ${duplicates} twice)`],
      ["pace (WASL_WHATSAPP_SEND_RATE)", `${settings.rate}/s`],
      ["achieved, first to last message", `${achieved.toFixed(0)}/s (${(achieved / settings.rate).toFixed(3)} of the pace)`],
      ["most requests in flight", String(maxInFlight)]
    ]),
    cpuPerMessage === undefined ? "apps/worker CPU: not readable here" : `apps/worker CPU: ${cpuPerMessage.toFixed(0)} µs per message (user + system)`,
    memory === undefined
      ? "apps/worker RSS: not readable here"
      : `apps/worker RSS over the campaign: ${memory.first.toFixed(0)} MiB at start, ${memory.peak.toFixed(0)} MiB at most, ${
        memory.last.toFixed(0)
      } MiB at the end; ${memory.laterHalf.min.toFixed(0)} to ${memory.laterHalf.max.toFixed(0)} MiB over its later half (flags: ${
        workerFlags.join(" ") || "none"
      })`,
    `rows written per recipient: ${perRecipient.toFixed(2)} (${Object.entries(rows).map(([t, n]) => `${t} ${n}`).join(", ")}; plus the campaign row and the allowance counter)`
  ].join("\n"))
  writeResults([
    ratioResult("campaign sends: achieved rate / pace", achieved, settings.rate, PACE_TARGET),
    figureResult("campaign rows written per recipient", perRecipient),
    ...(cpuPerMessage === undefined ? [] : [figureResult("apps/worker CPU per campaign message (µs)", cpuPerMessage)]),
    ...(memory === undefined ? [] : [figureResult("apps/worker RSS peak over a campaign (MiB)", memory.peak)])
  ])
  if (duplicates > 0) throw new Error(`${duplicates} numbers were sent to twice`)
  if (done.counts.sent !== settings.recipients) throw new Error(`${done.counts.sent} of ${settings.recipients} sent`)
}

await runBenchmark(run, { defaultTimeoutMs: 10 * 60_000, log })
