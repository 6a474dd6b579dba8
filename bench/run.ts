/**
 * The foundation benchmark (`npm run bench`): authenticated `GET /api/me` on the real Wasl HTTP
 * server (`apps/server`, a child process) against a baseline from the same run, with N concurrent
 * keep-alive connections on loopback. See bench/README.md for what is measured and how to read it.
 *
 * Environment (all optional):
 *
 * | variable              | default | meaning                                                        |
 * |-----------------------|---------|----------------------------------------------------------------|
 * | `BENCH_REQUESTS`      | 3000    | measured requests per server                                   |
 * | `BENCH_WARMUP`        | 300     | warm-up requests per server (not measured)                     |
 * | `BENCH_CONCURRENCY`   | 10      | concurrent keep-alive connections (one request in flight each) |
 * | `BENCH_DATABASE_URL`  | unset   | a PostgreSQL server: the run creates and drops its own database |
 * | `BENCH_TIMEOUT_MS`    | 300000  | the whole run stops (exit 1) after this long                   |
 *
 * Without `BENCH_DATABASE_URL` Wasl runs on the embedded database (a temporary `WASL_DATA_DIR`) and
 * the baseline is a bare `node:http` server answering a fixed body of the same size; with it, the
 * baseline is a bare `node:http` server doing the authentication and loading work with raw SQL over
 * the same database. `node bench/run.ts --baseline` is that baseline server (started by the run).
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import { Reactivity } from "effect/reactivity"

const root = fileURLToPath(new URL("..", import.meta.url))
const self = fileURLToPath(import.meta.url)
const serverMain = Path.join(root, "apps", "server", "src", "main.ts")
const cliMain = Path.join(root, "apps", "cli", "src", "main.ts")

const intFromEnv = (name: string, fallback: number, min: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${raw}`)
  return value
}

// -----------------------------------------------------------------------------
// the baseline server (`node bench/run.ts --baseline`)
// -----------------------------------------------------------------------------

interface Reply {
  readonly status: number
  readonly body: string
}

const unauthenticated: Reply = { status: 401, body: JSON.stringify({ message: "Unauthenticated." }) }

const BEARER = /^Bearer (\d{1,15})\|([A-Za-z0-9]{40})$/

/**
 * What an authenticated `GET /api/me` minimally has to do, in raw SQL: the token row by id, a
 * constant-time comparison of the secret's SHA-256, then the user and the account.
 */
const meWithSql = (sql: PgClient.PgClient, authorization: string | undefined) =>
  Effect.gen(function*() {
    const bearer = BEARER.exec(authorization ?? "")
    if (bearer === null) return unauthenticated
    const tokens = yield* sql<{ readonly account_id: string; readonly user_id: string; readonly secret_hash: string }>`
      SELECT account_id::text AS account_id, user_id::text AS user_id, secret_hash FROM api_tokens WHERE id = ${
      Number(bearer[1])
    }
    `
    const expected = Buffer.from(tokens[0]?.secret_hash ?? "0".repeat(64))
    const actual = Buffer.from(createHash("sha256").update(bearer[2]!).digest("hex"))
    const matches = expected.length === actual.length && timingSafeEqual(expected, actual)
    if (tokens.length === 0 || !matches) return unauthenticated
    const { account_id, user_id } = tokens[0]!
    const users = yield* sql`
      SELECT id::int4 AS id, email, email_verified_at, firstname, lastname, image, locale,
             contacts_view_id, deals_view_id, tickets_view_id, created_at, updated_at
      FROM users WHERE id = ${user_id}::bigint
    `
    const accounts = yield* sql`
      SELECT id::int4 AS id, name, plan, otp_credits::int4 AS otp_credits, industry, logo, address,
             time_zone AS "timeZone", calendar, hour12, locale, currency, created_at, updated_at
      FROM accounts WHERE id = ${account_id}::bigint
    `
    if (users.length === 0 || accounts.length === 0) return unauthenticated
    return { status: 200, body: JSON.stringify({ ...users[0], account: accounts[0] }) } satisfies Reply
  })

const runBaselineServer = async () => {
  const port = intFromEnv("BASELINE_PORT", 0, 0)
  const databaseUrl = process.env.DATABASE_URL
  const scope = Scope.makeUnsafe()
  let handle: (request: Http.IncomingMessage) => Promise<Reply>
  if (databaseUrl !== undefined && databaseUrl !== "") {
    const sql = await Effect.runPromise(
      PgClient.make({ url: Redacted.make(databaseUrl), applicationName: "wasl-bench-baseline" }).pipe(
        Scope.provide(scope),
        Effect.provide(Reactivity.layer)
      )
    )
    handle = (request) => Effect.runPromise(meWithSql(sql, request.headers.authorization))
  } else {
    const body = Fs.readFileSync(process.env.BASELINE_BODY_FILE!, "utf8")
    const reply: Reply = { status: 200, body }
    handle = () => Promise.resolve(reply)
  }
  const server = Http.createServer((request, response) => {
    request.resume()
    const send = (reply: Reply) => {
      response.writeHead(reply.status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(reply.body)
      })
      response.end(reply.body)
    }
    if (request.method !== "GET" || request.url !== "/api/me") return send({ status: 404, body: "{}" })
    handle(request).then(send, (error: unknown) => {
      console.error(String(error))
      send({ status: 500, body: "{}" })
    })
  })
  const stop = () => {
    server.close()
    server.closeAllConnections()
    void Effect.runPromise(Scope.close(scope, Exit.void)).finally(() => process.exit(0))
  }
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
  server.listen(port, "127.0.0.1", () => {
    const address = server.address() as Net.AddressInfo
    console.log(JSON.stringify({ message: `baseline is listening on http://127.0.0.1:${address.port}` }))
  })
}

// -----------------------------------------------------------------------------
// child processes
// -----------------------------------------------------------------------------

interface Child {
  readonly name: string
  readonly child: ChildProcess
  readonly exited: Promise<number | null>
  readonly output: () => string
  readonly waitFor: (pattern: RegExp, timeoutMs: number) => Promise<RegExpExecArray>
}

const children = new Set<Child>()

/** Keeps the last 64 KiB of a child's output, for error messages. */
const tail = (text: string) => (text.length > 65_536 ? text.slice(-65_536) : text)

const startChild = (name: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Child => {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const listeners = new Set<() => void>()
  const onData = (chunk: string) => {
    output = tail(output + chunk)
    for (const listener of listeners) listener()
  }
  child.stdout!.setEncoding("utf8").on("data", onData)
  child.stderr!.setEncoding("utf8").on("data", onData)
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (error) => {
      output += `\n[spawn error] ${error.message}`
      resolve(null)
    })
    child.once("close", (code) => resolve(code))
  })
  const handle: Child = {
    name,
    child,
    exited,
    output: () => output,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output)
          if (match !== null) finish(() => resolve(match))
        }
        const finish = (then: () => void) => {
          clearTimeout(timer)
          listeners.delete(check)
          then()
        }
        const timer = setTimeout(
          () => finish(() => reject(new Error(`${name}: no ${pattern} within ${timeoutMs} ms\n${output}`))),
          timeoutMs
        )
        listeners.add(check)
        void exited.then((code) => {
          if (listeners.has(check)) finish(() => reject(new Error(`${name} exited (${code}) early\n${output}`)))
        })
        check()
      })
  }
  children.add(handle)
  void exited.then(() => children.delete(handle))
  return handle
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child is gone. */
const stopChild = async (child: Child, graceMs = 10_000): Promise<void> => {
  if (child.child.exitCode !== null || child.child.signalCode !== null) return
  child.child.kill("SIGTERM")
  const timer = setTimeout(() => child.child.kill("SIGKILL"), graceMs)
  await child.exited
  clearTimeout(timer)
}

/** Runs node `args` to completion (at most `timeoutMs`); its stdout on exit 0, else an error. */
const runToCompletion = async (name: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, timeoutMs = 60_000) => {
  const child = startChild(name, args, env)
  let stdout = ""
  child.child.stdout!.on("data", (chunk: string) => (stdout += chunk))
  const timer = setTimeout(() => child.child.kill("SIGKILL"), timeoutMs)
  const code = await child.exited
  clearTimeout(timer)
  if (code !== 0) throw new Error(`${name} failed (exit ${code})\n${child.output()}`)
  return stdout
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = Net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as Net.AddressInfo
      server.close(() => resolve(port))
    })
  })

// -----------------------------------------------------------------------------
// load generation
// -----------------------------------------------------------------------------

interface Sender {
  readonly name: string
  /** One `GET /api/me`; resolves with the status and the body size once the body is read. */
  readonly get: () => Promise<{ readonly status: number; readonly bytes: number }>
  readonly close: () => Promise<void>
}

/** The part of undici's API used here (undici is installed with @effect/platform-node). */
interface UndiciModule {
  readonly Pool: new(origin: string, options: {
    readonly connections: number
    readonly pipelining: number
    readonly headersTimeout: number
    readonly bodyTimeout: number
  }) => {
    request(options: { readonly path: string; readonly method: "GET"; readonly headers: Record<string, string> }): Promise<{
      readonly statusCode: number
      readonly body: { arrayBuffer(): Promise<ArrayBuffer> }
    }>
    close(): Promise<void>
  }
}

const loadUndici = async (): Promise<UndiciModule | undefined> => {
  const specifier = "undici"
  try {
    const module = (await import(specifier)) as Partial<UndiciModule>
    return typeof module.Pool === "function" ? (module as UndiciModule) : undefined
  } catch {
    return undefined
  }
}

const makeSender = async (origin: string, headers: Record<string, string>, connections: number): Promise<Sender> => {
  const undici = await loadUndici()
  if (undici !== undefined) {
    const pool = new undici.Pool(origin, { connections, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 })
    return {
      name: "undici Pool",
      get: async () => {
        const { body, statusCode } = await pool.request({ path: "/api/me", method: "GET", headers })
        return { status: statusCode, bytes: (await body.arrayBuffer()).byteLength }
      },
      close: () => pool.close()
    }
  }
  const agent = new Http.Agent({ keepAlive: true, maxSockets: connections })
  return {
    name: "node:http Agent",
    get: () =>
      new Promise((resolve, reject) => {
        const request = Http.get(`${origin}/api/me`, { agent, headers, timeout: 10_000 }, (response) => {
          let bytes = 0
          response.on("data", (chunk: Buffer) => (bytes += chunk.length))
          response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }))
          response.on("error", reject)
        })
        request.on("timeout", () => request.destroy(new Error("request timed out")))
        request.on("error", reject)
      }),
    close: async () => agent.destroy()
  }
}

interface Figures {
  readonly requests: number
  readonly seconds: number
  readonly perSecond: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly bytes: number
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: Float64Array, p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!

/** `total` requests over `concurrency` loops, each with one request in flight. */
const load = async (sender: Sender, total: number, concurrency: number): Promise<Figures> => {
  const latencies = new Float64Array(total)
  let next = 0
  let bytes = 0
  const loop = async () => {
    for (let i = next++; i < total; i = next++) {
      const started = performance.now()
      const reply = await sender.get()
      latencies[i] = performance.now() - started
      if (reply.status !== 200) throw new Error(`request ${i}: status ${reply.status}`)
      bytes = reply.bytes
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, loop))
  const seconds = (performance.now() - started) / 1000
  latencies.sort()
  return {
    requests: total,
    seconds,
    perSecond: total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    bytes
  }
}

const measure = async (
  origin: string,
  headers: Record<string, string>,
  settings: { readonly requests: number; readonly warmup: number; readonly concurrency: number }
) => {
  const sender = await makeSender(origin, headers, settings.concurrency)
  try {
    if (settings.warmup > 0) await load(sender, settings.warmup, settings.concurrency)
    return { client: sender.name, figures: await load(sender, settings.requests, settings.concurrency) }
  } finally {
    await sender.close()
  }
}

// -----------------------------------------------------------------------------
// databases
// -----------------------------------------------------------------------------

const withMaintenanceClient = <A>(url: string, f: (sql: PgClient.PgClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    PgClient.make({ url: Redacted.make(url), maxConnections: 1, applicationName: "wasl-bench" }).pipe(
      Effect.flatMap(f),
      Effect.scoped,
      Effect.provide(Reactivity.layer)
    )
  )

/** Creates `wasl_bench_<random>` on the server of `url`; returns its URL and a function dropping it. */
const createDatabase = async (url: string) => {
  const name = `wasl_bench_${randomBytes(6).toString("hex")}`
  await withMaintenanceClient(url, (sql) => sql`CREATE DATABASE ${sql(name)}`.raw)
  const databaseUrl = new URL(url)
  databaseUrl.pathname = `/${name}`
  return {
    name,
    url: databaseUrl.toString(),
    drop: () => withMaintenanceClient(url, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`.raw)
  }
}

// -----------------------------------------------------------------------------
// the run
// -----------------------------------------------------------------------------

const cleanups: Array<() => Promise<unknown> | unknown> = []

const cleanUp = async () => {
  for (const child of [...children]) await stopChild(child, 5_000).catch(() => undefined)
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop()!
    try {
      await cleanup()
    } catch (error) {
      console.error(`bench: cleanup failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

const ms = (value: number) => value.toFixed(2)

const table = (rows: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(
      "   "
    )
  ).join("\n")
}

const run = async () => {
  const settings = {
    requests: intFromEnv("BENCH_REQUESTS", 3000, 1),
    warmup: intFromEnv("BENCH_WARMUP", 300, 0),
    concurrency: intFromEnv("BENCH_CONCURRENCY", 10, 1)
  }
  const postgresUrl = process.env.BENCH_DATABASE_URL || undefined
  const startedAt = new Date()

  const tmp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-bench-"))
  cleanups.push(() => Fs.rmSync(tmp, { recursive: true, force: true }))
  const env: NodeJS.ProcessEnv = { ...process.env, WASL_DATA_DIR: Path.join(tmp, "data"), HOST: "127.0.0.1" }
  delete env.DATABASE_URL
  let databaseLabel = "embedded (PGlite under a temporary WASL_DATA_DIR)"
  if (postgresUrl !== undefined) {
    const database = await createDatabase(postgresUrl)
    cleanups.push(database.drop)
    env.DATABASE_URL = database.url
    const shown = new URL(database.url)
    shown.password = ""
    databaseLabel = `PostgreSQL ${shown.host}${shown.pathname} (created for this run, dropped after)`
  }

  // 1. An account and its owner token, with the CLI (it migrates first).
  console.error("bench: bootstrapping an account with the CLI...")
  const password = randomBytes(18).toString("base64url")
  const bootstrap = JSON.parse(
    await runToCompletion("wasl bootstrap", [
      cliMain,
      "bootstrap",
      "--account",
      "Bench",
      "--email",
      "bench@localhost",
      "--password",
      password
    ], env)
  ) as { readonly token: string }
  const headers = { accept: "application/json", authorization: `Bearer ${bootstrap.token}` }
  // The same token id with a wrong secret: a server that authenticates must refuse it.
  const wrongHeaders = { ...headers, authorization: `Bearer ${bootstrap.token.split("|")[0]}|${"x".repeat(40)}` }
  const expectStatus = async (origin: string, requestHeaders: Record<string, string>, status: number) => {
    const response = await fetch(`${origin}/api/me`, { headers: requestHeaders })
    const text = await response.text()
    if (response.status !== status) throw new Error(`${origin}/api/me answered ${response.status}, not ${status}: ${text}`)
    return text
  }

  // 2. Wasl.
  const waslPort = await freePort()
  console.error(`bench: starting apps/server on 127.0.0.1:${waslPort}...`)
  const wasl = startChild("apps/server", [serverMain], { ...env, PORT: String(waslPort) })
  await wasl.waitFor(/Wasl is listening on/, 60_000)
  const waslOrigin = `http://127.0.0.1:${waslPort}`
  const meBody = await expectStatus(waslOrigin, headers, 200)
  await expectStatus(waslOrigin, wrongHeaders, 401)
  console.error(`bench: Wasl: ${settings.warmup} warm-up + ${settings.requests} requests...`)
  const waslRun = await measure(waslOrigin, headers, settings)
  await stopChild(wasl)

  // 3. The baseline, in a child process like Wasl.
  const bodyFile = Path.join(tmp, "me.json")
  Fs.writeFileSync(bodyFile, meBody)
  const baselinePort = await freePort()
  const baselineKind = postgresUrl !== undefined
    ? "node:http + raw SQL (token by id, SHA-256 compare, user, account)"
    : "node:http echo of a fixed body of the same size (no database)"
  console.error(`bench: starting the baseline (${baselineKind}) on 127.0.0.1:${baselinePort}...`)
  const baseline = startChild("baseline", [self, "--baseline"], {
    ...env,
    BASELINE_PORT: String(baselinePort),
    BASELINE_BODY_FILE: bodyFile
  })
  await baseline.waitFor(/baseline is listening/, 30_000)
  const baselineOrigin = `http://127.0.0.1:${baselinePort}`
  await expectStatus(baselineOrigin, headers, 200)
  if (postgresUrl !== undefined) await expectStatus(baselineOrigin, wrongHeaders, 401)
  console.error(`bench: baseline: ${settings.warmup} warm-up + ${settings.requests} requests...`)
  const baselineRun = await measure(baselineOrigin, headers, settings)
  await stopChild(baseline)

  // 4. The figures.
  const w = waslRun.figures
  const b = baselineRun.figures
  const cpus = Os.cpus()
  console.log(
    [
      `Wasl foundation benchmark, ${startedAt.toISOString()}`,
      `  GET /api/me with a bearer token: ${settings.requests} requests after ${settings.warmup} warm-up,`,
      `  ${settings.concurrency} concurrent keep-alive connections (${waslRun.client}), loopback`,
      `  database: ${databaseLabel}`,
      `  baseline: ${baselineKind}`,
      `  node ${process.version}, ${Os.platform()} ${Os.arch()}, ${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ""}`,
      "",
      table([
        ["", "req/s", "p50 ms", "p95 ms", "p99 ms", "body B"],
        ["Wasl", w.perSecond.toFixed(0), ms(w.p50), ms(w.p95), ms(w.p99), String(w.bytes)],
        ["baseline", b.perSecond.toFixed(0), ms(b.p50), ms(b.p95), ms(b.p99), String(b.bytes)],
        [
          "Wasl / baseline",
          `${(w.perSecond / b.perSecond).toFixed(2)}x`,
          `${(w.p50 / b.p50).toFixed(1)}x`,
          `${(w.p95 / b.p95).toFixed(1)}x`,
          `${(w.p99 / b.p99).toFixed(1)}x`,
          ""
        ]
      ])
    ].join("\n")
  )
}

const orchestrate = async () => {
  const timeoutMs = intFromEnv("BENCH_TIMEOUT_MS", 300_000, 1_000)
  let cleaning: Promise<void> | undefined
  const cleanUpOnce = () => (cleaning ??= cleanUp())
  let aborted = false
  const abort = (reason: string) => {
    if (aborted) return
    aborted = true
    console.error(`bench: ${reason}; stopping.`)
    void cleanUpOnce().finally(() => process.exit(1))
  }
  const deadline = setTimeout(() => abort(`time limit of ${timeoutMs} ms reached`), timeoutMs)
  process.once("SIGINT", () => abort("interrupted"))
  process.once("SIGTERM", () => abort("terminated"))
  let failed = false
  try {
    await run()
  } catch (error) {
    if (!aborted) console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
    failed = true
  } finally {
    clearTimeout(deadline)
    await cleanUpOnce()
  }
  // Explicit: `process.exit(undefined)` exits 0 even with `process.exitCode` set.
  process.exit(failed || aborted ? 1 : 0)
}

if (process.argv.includes("--baseline")) await runBaselineServer()
else await orchestrate()
