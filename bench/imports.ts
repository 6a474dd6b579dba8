/**
 * The CSV import benchmark (`npx node bench/imports.ts`: Node 24, the `node` devDependency):
 * 100,000 contacts imported through `POST /api/contacts/imports`, on PostgreSQL. See
 * bench/README.md ("The import benchmark").
 *
 * 1. Creates a database `wasl_bench_<random>` on `BENCH_DATABASE_URL` (default
 *    `postgres://postgres@127.0.0.1:5432/postgres`), starts `apps/server` (it migrates) and creates
 *    an account with the CLI.
 * 2. For each size — `BENCH_IMPORT_SMALL` (10,000) rows, the baseline of the same run, then
 *    `BENCH_IMPORT_ROWS` (100,000) — writes a CSV of that many contacts (firstname, lastname,
 *    email, phone) to a temporary file, starts a fresh `apps/server` and `apps/worker`, uploads
 *    the file (streamed from disk), and polls the import's status until it completes. Meanwhile
 *    it samples both processes' resident memory (VmRSS in /proc, every 50 ms).
 * 3. Then 100 contacts as one `POST /api/contacts/batch/create` beside 100 single `POST /api/contacts`
 *    (`BENCH_BATCH_ROUNDS` rounds, 20, after two to warm up): the median milliseconds of each.
 * 4. Prints, per size: the upload time (the file read, checked and staged: the 202), the import
 *    time (202 → completed, the worker's part), rows per second, and the peak RSS of the server
 *    and of the worker next to their RSS before the upload: peaks that do not follow the size show
 *    that neither process holds the file. `BENCH_WORKER_NODE_ARGS` and `BENCH_WASL_NODE_ARGS` give
 *    the worker's and the server's node flags (e.g. `--max-old-space-size=64`, a heap far smaller
 *    than the file's rows).
 * 5. Stops the children and drops the database (also on failure, Ctrl-C or the time limit
 *    `BENCH_TIMEOUT_MS`, 20 minutes).
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { performance } from "node:perf_hooks"
import { benchApi, bootstrapAccount, root, startChild, startWaslServer, stopChild } from "./support/children.ts"
import { createBenchDatabase } from "./support/database.ts"
import { intFromEnv, nodeFlagsFromEnv } from "./support/env.ts"
import { atCleanup, runBenchmark } from "./support/harness.ts"
import { table } from "./support/table.ts"

const settings = {
  url: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  small: intFromEnv("BENCH_IMPORT_SMALL", 10_000, 1),
  rows: intFromEnv("BENCH_IMPORT_ROWS", 100_000, 1),
  batches: intFromEnv("BENCH_BATCH_ROUNDS", 20, 1)
}

const log = (message: string) => console.error(`bench:imports: ${message}`)
// BENCH_WORKER_NODE_ARGS: node flags for the worker (startWaslServer reads BENCH_WASL_NODE_ARGS).
const workerFlags = nodeFlagsFromEnv("BENCH_WORKER_NODE_ARGS")
const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis))
const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`

/** A process's resident set size in KiB (Linux); 0 when it cannot be read. */
const rssOf = (pid: number | undefined): number => {
  if (pid === undefined) return 0
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(Fs.readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? 0 : Number(match[1])
  } catch {
    return 0
  }
}

/** Writes a CSV of `rows` contacts, in chunks (the benchmark does not hold the file either). */
const writeCsv = async (file: string, rows: number, tag: string) => {
  const out = Fs.createWriteStream(file)
  const write = (text: string) => new Promise<void>((resolve) => (out.write(text) ? resolve() : out.once("drain", resolve)))
  await write("firstname,lastname,email,phone\r\n")
  for (let start = 0; start < rows; start += 1000) {
    let chunk = ""
    for (let i = start; i < Math.min(rows, start + 1000); i++) {
      chunk += `Amal ${i},"Haddad, ${tag}",amal.${tag}.${i}@example.com,+96170${String(100000 + (i % 900000)).padStart(6, "0")}\r\n`
    }
    await write(chunk)
  }
  await new Promise<void>((resolve) => out.end(resolve))
}

interface Figures {
  readonly rows: number
  readonly megabytes: number
  readonly uploadMs: number
  readonly importMs: number
  readonly serverIdle: number
  readonly serverPeak: number
  readonly workerIdle: number
  readonly workerPeak: number
}

const run = async () => {
  const startedAt = new Date()
  const tmp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-bench-imports-"))
  atCleanup(() => Fs.rmSync(tmp, { recursive: true, force: true }))
  const database = await createBenchDatabase(settings.url)
  atCleanup(database.drop)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    WASL_DATA_DIR: Path.join(tmp, "data"),
    WASL_SECRET_KEY: randomBytes(32).toString("hex"),
    WASL_MAIL_OUTBOX: Path.join(tmp, "mail.jsonl")
  }
  log("starting apps/server once to migrate, and bootstrapping an account...")
  const first = await startWaslServer(env)
  const bootstrap = await bootstrapAccount(env)
  await stopChild(first.child)

  const measure = async (rows: number, tag: string): Promise<Figures> => {
    const file = Path.join(tmp, `${tag}.csv`)
    await writeCsv(file, rows, tag)
    const server = await startWaslServer(env)
    const worker = startChild("apps/worker", [...workerFlags, Path.join(root, "apps", "worker", "src", "main.ts")], env)
    await worker.waitFor(/Wasl delivery worker started/, 60_000)
    await sleep(1000)
    const serverIdle = rssOf(server.child.child.pid)
    const workerIdle = rssOf(worker.child.pid)
    let serverPeak = serverIdle
    let workerPeak = workerIdle
    const sampler = setInterval(() => {
      serverPeak = Math.max(serverPeak, rssOf(server.child.child.pid))
      workerPeak = Math.max(workerPeak, rssOf(worker.child.pid))
    }, 50)
    try {
      log(`${rows} rows: uploading ${(Fs.statSync(file).size / 1e6).toFixed(1)} MB...`)
      const form = new FormData()
      form.append("file", await Fs.openAsBlob(file, { type: "text/csv" }), `${tag}.csv`)
      const t0 = performance.now()
      const response = await fetch(`${server.origin}/api/contacts/imports`, {
        method: "POST",
        headers: { authorization: `Bearer ${bootstrap.token}`, accept: "application/json" },
        body: form
      })
      const started = await response.json() as { data: { _id: string } }
      if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${JSON.stringify(started)}`)
      const t1 = performance.now()
      log(`${rows} rows: staged in ${((t1 - t0) / 1000).toFixed(1)} s; waiting for the worker...`)
      while (true) {
        const status = await fetch(`${server.origin}/api/contacts/imports/${started.data._id}`, {
          headers: { authorization: `Bearer ${bootstrap.token}` }
        }).then((r) => r.json()) as { data: { status: string; created: number; failed: number } }
        if (status.data.status === "failed") throw new Error(`import failed: ${JSON.stringify(status.data)}`)
        if (status.data.status === "completed") {
          if (status.data.created !== rows) throw new Error(`created ${status.data.created} of ${rows}: ${JSON.stringify(status.data)}`)
          break
        }
        await sleep(100)
      }
      const t2 = performance.now()
      return {
        rows,
        megabytes: Fs.statSync(file).size / 1e6,
        uploadMs: t1 - t0,
        importMs: t2 - t1,
        serverIdle,
        serverPeak,
        workerIdle,
        workerPeak
      }
    } finally {
      clearInterval(sampler)
      await stopChild(worker)
      await stopChild(server.child)
      Fs.rmSync(file, { force: true })
    }
  }

  /**
   * 100 contacts as one `POST /api/contacts/batch/create` beside the same 100 as single
   * `POST /api/contacts`, one after another, `settings.batches` rounds alternating the two: the
   * milliseconds per 100 records of each (median of the rounds).
   */
  const measureBatches = async () => {
    const server = await startWaslServer({ ...env, WASL_RATE_LIMIT: "0" })
    try {
      const api = benchApi(server.origin, bootstrap.token)
      const post = (path: string, body: unknown) => api("POST", path, body)
      const contact = (round: number, i: number, how: string) => ({
        firstname: `Batch ${i}`,
        lastname: how,
        email: `batch.${how}.${round}.${i}@example.com`
      })
      const singles: Array<number> = []
      const batches: Array<number> = []
      log(`batch/create of 100 beside 100 single creates, ${settings.batches} rounds...`)
      for (let round = -2; round < settings.batches; round++) {
        const t0 = performance.now()
        for (let i = 0; i < 100; i++) await post("/api/contacts", contact(round, i, "single"))
        const t1 = performance.now()
        await post("/api/contacts/batch/create", { inputs: Array.from({ length: 100 }, (_, i) => ({ properties: contact(round, i, "batch") })) })
        const t2 = performance.now()
        // The first two rounds warm the server up.
        if (round >= 0) singles.push(t1 - t0), batches.push(t2 - t1)
      }
      const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
      return { singleMs: median(singles), batchMs: median(batches) }
    } finally {
      await stopChild(server.child)
    }
  }

  const figures = [await measure(settings.small, "small"), await measure(settings.rows, "large")]
  const batch = await measureBatches()
  const cpus = Os.cpus()
  console.log([
    `CSV import benchmark, ${startedAt.toISOString()}`,
    `Node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} × ${cpus[0]?.model ?? "CPU"}; PostgreSQL at ${new URL(settings.url).host}`,
    "",
    table([
      ["rows", "file", "upload (202)", "import", "rows/s", "server RSS idle → peak", "worker RSS idle → peak"],
      ...figures.map((f) => [
        f.rows.toLocaleString("en"),
        `${f.megabytes.toFixed(1)} MB`,
        `${(f.uploadMs / 1000).toFixed(1)} s`,
        `${(f.importMs / 1000).toFixed(1)} s`,
        Math.round(f.rows / (f.importMs / 1000)).toLocaleString("en"),
        `${mib(f.serverIdle)} → ${mib(f.serverPeak)}`,
        `${mib(f.workerIdle)} → ${mib(f.workerPeak)}`
      ])
    ]),
    "",
    table([
      ["100 contacts", "ms (median)", "records/s"],
      ["100 × POST /api/contacts", batch.singleMs.toFixed(0), Math.round(100_000 / batch.singleMs).toLocaleString("en")],
      ["POST /api/contacts/batch/create", batch.batchMs.toFixed(0), Math.round(100_000 / batch.batchMs).toLocaleString("en")]
    ])
  ].join("\n"))
}

await runBenchmark(run, { defaultTimeoutMs: 20 * 60_000, log })
