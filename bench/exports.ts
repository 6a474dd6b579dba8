/**
 * The exports benchmark (`npx node bench/exports.ts`: Node 24, the `node` devDependency): a CSV
 * export of 100,000 and of 1,000,000 deals through the real processes on PostgreSQL, and whether
 * the worker's memory stays flat as the row count grows. See bench/README.md ("The exports
 * benchmark").
 *
 * 1. Creates a database `wasl_bench_<random>` on `BENCH_DATABASE_URL` (default
 *    `postgres://postgres@127.0.0.1:5432/postgres`), starts `apps/server`, bootstraps an account
 *    with the CLI, and seeds deals set-based (bench/support/deal-seed.ts, as the records benchmark).
 * 2. For each size (`BENCH_EXPORT_SIZES`, default `100000,1000000`; deals are added up to it):
 *    starts a fresh `apps/worker`, notes its resident memory idle, asks for the export over HTTP
 *    (`POST /api/deals/exports`, every property, newest first), and polls `GET /api/exports/{_id}`
 *    until it is completed, sampling the worker's resident memory (`/proc/<pid>/status`) as it
 *    goes and its peak (`VmHWM`) at the end; then downloads the file over HTTP and checks its size
 *    and line count. Stops the worker.
 * 3. Baseline, in the same run: the same rows read raw through a cursor (`DECLARE … FETCH 500`,
 *    the same driver, in-process, nothing encoded or stored): the floor of reading them.
 *    `BENCH_WORKER_NODE_ARGS` are node flags for the worker alone (`--max-old-space-size=96`).
 * 4. Prints the table; drops the database and stops the children (also on failure, Ctrl-C or the
 *    time limit `BENCH_TIMEOUT_MS`, 60 minutes).
 *
 * @module
 */
import { PgClient } from "@effect/sql-pg"
import { pgClientOptions } from "@wasl/adapters/Postgres"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { performance } from "node:perf_hooks"
import { bootstrapAccount, root, startChild, startWaslServer, stopChild } from "./support/children.ts"
import { createBenchDatabase } from "./support/database.ts"
import { customFor, defineCustom, seedDeals, seedValues } from "./support/deal-seed.ts"
import { intFromEnv, nodeFlagsFromEnv } from "./support/env.ts"
import { atCleanup, runBenchmark } from "./support/harness.ts"
import { table } from "./support/table.ts"

const settings = {
  url: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  sizes: (process.env.BENCH_EXPORT_SIZES ?? "100000,1000000").split(",").map((n) => Number(n.trim()))
    .filter((n) => Number.isSafeInteger(n) && n > 0).sort((a, b) => a - b),
  pollMs: intFromEnv("BENCH_POLL_MS", 100, 10),
  // Extra node flags for the worker alone, e.g. `--max-old-space-size=96` to show the export's live
  // memory stays under a small heap whatever the row count.
  workerFlags: nodeFlagsFromEnv("BENCH_WORKER_NODE_ARGS")
}

const log = (message: string) => console.error(`bench:exports: ${message}`)
const MiB = 1024 * 1024

/** A process's memory from `/proc/<pid>/status`, in bytes: resident now, and its peak. */
const memoryOf = (pid: number) => {
  const status = Fs.readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024
  return { rss: kb("VmRSS"), peak: kb("VmHWM") }
}

/** What one export measured. */
interface ExportFigures {
  readonly rows: number
  readonly bytes: number
  readonly seconds: number
  readonly idleRss: number
  readonly peakRss: number
  readonly downloadSeconds: number
  readonly baselineSeconds: number
}

const run = async () => {
  const database = await createBenchDatabase(settings.url)
  atCleanup(database.drop)
  const tmp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-bench-exports-"))
  atCleanup(() => Fs.rmSync(tmp, { recursive: true, force: true }))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    WASL_DATA_DIR: Path.join(tmp, "data"),
    WASL_SECRET_KEY: randomBytes(32).toString("hex"),
    WASL_MAIL_OUTBOX: Path.join(tmp, "mail.jsonl"),
    WASL_RATE_LIMIT: "0"
  }
  log("starting apps/server and bootstrapping an account...")
  const server = await startWaslServer(env)
  const owner = await bootstrapAccount(env)
  const api = async (path: string, body?: unknown) => {
    const response = await fetch(server.origin + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${owner.token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${text}`)
    return JSON.parse(text).data
  }

  const runtime = ManagedRuntime.make(PgClient.layer({ ...pgClientOptions, url: Redacted.make(database.url), maxConnections: 2 }))
  atCleanup(() => runtime.dispose())
  const sql = await runtime.runPromise(Effect.service(SqlClient.SqlClient))
  const custom = customFor()
  await runtime.runPromise(defineCustom(sql, owner.account_id, custom))

  /** The floor: the same rows, newest first, read raw through a cursor in one transaction. */
  const baseline = () =>
    runtime.runPromise(Effect.gen(function*() {
      const started = performance.now()
      yield* sql`DECLARE bench_scan NO SCROLL CURSOR FOR
        SELECT * FROM deals WHERE account_id = ${owner.account_id} ORDER BY created_at DESC, id DESC`
      let rows = 0
      while (true) {
        const batch = yield* sql`FETCH 500 FROM bench_scan`.unprepared
        rows += batch.length
        if (batch.length < 500) break
      }
      return { rows, seconds: (performance.now() - started) / 1000 }
    }).pipe(sql.withTransaction))

  const measure = async (rows: number): Promise<ExportFigures> => {
    const worker = startChild("apps/worker", [...settings.workerFlags, Path.join(root, "apps", "worker", "src", "main.ts")], env)
    await worker.waitFor(/Wasl delivery worker started/, 60_000)
    const pid = worker.child.pid!
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const idleRss = memoryOf(pid).rss
    const started = performance.now()
    const asked = await api("/api/deals/exports", {})
    let shown = asked
    let sampledPeak = idleRss
    while (shown.status === "queued" || shown.status === "running") {
      await new Promise((resolve) => setTimeout(resolve, settings.pollMs))
      sampledPeak = Math.max(sampledPeak, memoryOf(pid).rss)
      shown = await api(`/api/exports/${asked._id}`)
    }
    const seconds = (performance.now() - started) / 1000
    const peakRss = Math.max(sampledPeak, memoryOf(pid).peak)
    await stopChild(worker)
    if (shown.status !== "completed" || shown.row_count !== rows) throw new Error(`export ended ${JSON.stringify(shown)}`)

    const downloadStarted = performance.now()
    const file = await fetch(`${server.origin}/api/exports/${asked._id}/download`, { headers: { authorization: `Bearer ${owner.token}` } })
    let bytes = 0
    let lines = 0
    for await (const chunk of file.body!) {
      bytes += chunk.length
      for (const byte of chunk) if (byte === 10) lines++
    }
    const downloadSeconds = (performance.now() - downloadStarted) / 1000
    if (bytes !== shown.byte_size) throw new Error(`downloaded ${bytes} bytes of ${shown.byte_size}`)
    // Deal names hold no line break, so a line per record and the header.
    if (lines !== rows + 1) throw new Error(`downloaded ${lines} lines for ${rows} rows`)
    const floor = await baseline()
    if (floor.rows !== rows) throw new Error(`baseline read ${floor.rows} rows`)
    return { rows, bytes, seconds, idleRss, peakRss, downloadSeconds, baselineSeconds: floor.seconds }
  }

  const figures: Array<ExportFigures> = []
  let seeded = 0
  for (const size of settings.sizes) {
    const started = performance.now()
    for (let from = seeded + 1; from <= size; from += 100_000) {
      const to = Math.min(from + 99_999, size)
      await runtime.runPromise(seedDeals(sql, owner.account_id, from, to, custom))
    }
    await runtime.runPromise(Effect.andThen(
      sql`DELETE FROM record_values WHERE account_id = ${owner.account_id}`,
      seedValues(sql, owner.account_id, custom)
    ))
    await runtime.runPromise(sql`VACUUM ANALYZE deals`.raw)
    seeded = size
    log(`seeded ${size.toLocaleString("en")} deals in ${((performance.now() - started) / 1000).toFixed(0)} s; exporting...`)
    const measured = await measure(size)
    log(`exported ${size.toLocaleString("en")} deals in ${measured.seconds.toFixed(1)} s, worker peak ${(measured.peakRss / MiB).toFixed(0)} MiB`)
    figures.push(measured)
  }
  await stopChild(server.child)

  const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`
  console.log([
    `Exports benchmark, ${new Date().toISOString()}, ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}`,
    `  apps/server + one apps/worker${settings.workerFlags.length > 0 ? ` (node ${settings.workerFlags.join(" ")})` : ""} on PostgreSQL; ` +
      "every property of a deal (17 columns), newest first",
    "",
    table([
      ["deals", "file", "export (queued → completed)", "rows/s", "worker RSS idle", "worker RSS peak", "peak − idle", "download", "baseline: raw cursor read"],
      ...figures.map((f) => [
        f.rows.toLocaleString("en"),
        mib(f.bytes),
        `${f.seconds.toFixed(1)} s`,
        Math.round(f.rows / f.seconds).toLocaleString("en"),
        mib(f.idleRss),
        mib(f.peakRss),
        mib(f.peakRss - f.idleRss),
        `${f.downloadSeconds.toFixed(1)} s`,
        `${f.baselineSeconds.toFixed(1)} s`
      ])
    ])
  ].join("\n"))
}

await runBenchmark(run, { defaultTimeoutMs: 60 * 60_000, log })
