/**
 * Running the apps as processes for end-to-end tests: launch with captured output, wait for a
 * line, stop (SIGTERM) or kill (SIGKILL), free ports, a JSON client, and scratch PostgreSQL
 * databases (created through a small `@effect/sql-pg` script run with node). Node modules only,
 * like the apps' black-box tests: nothing here imports the workspace.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as Net from "node:net"
import * as Path from "node:path"
import { cliMain, nodeBinary, root } from "./apps.ts"

/** The line a Wasl HTTP process logs once it listens; the port is the first group. */
export const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/

/** The block `npm start` prints on a database without an account: owner, password and token. */
export const FIRST_RUN =
  /Wasl is ready: first account created\.\n\s*owner:\s*(\S+)\n\s*password:\s*(\S+)\n\s*token:\s*(\S+)\n/

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface Launched {
  readonly name: string
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<Exit>
  readonly isRunning: () => boolean
  /** Signals the process (and, for `npmRun`, the processes npm started). */
  readonly kill: (signal: NodeJS.Signals) => void
  /** Resolves with the first match of `pattern` on stdout; rejects on exit or after `timeoutMs`. */
  readonly waitForStdout: (pattern: RegExp, timeoutMs: number) => Promise<RegExpExecArray>
  readonly output: () => string
}

/** Every process launched by this module in this test file. */
const launched: Array<Launched> = []

export const launch = (name: string, script: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Launched =>
  launchCommand(name, nodeBinary(), [script, ...args], env, false)

/**
 * Runs `npm run --silent <script>` in the repository, as a user would, in a process group of its
 * own: `kill` signals npm, its shell and the app together.
 */
export const npmRun = (name: string, script: string, env: NodeJS.ProcessEnv): Launched =>
  launchCommand(name, "npm", ["run", "--silent", script], env, true)

const launchCommand = (
  name: string,
  command: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  group: boolean
): Launched => {
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: group })
  let stdout = ""
  let stderr = ""
  let running = true
  const listeners = new Set<() => void>()
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
    for (const listener of listeners) listener()
  })
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<Exit>((resolve) => {
    child.once("error", (error) => {
      stderr += `\n[spawn error] ${error.message}`
      running = false
      resolve({ code: null, signal: null })
    })
    child.once("close", (code, signal) => {
      running = false
      resolve({ code, signal })
    })
  })
  const output = () => `--- ${name} stdout ---\n${stdout.slice(-20_000)}\n--- ${name} stderr ---\n${stderr.slice(-20_000)}`
  const self: Launched = {
    name,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    isRunning: () => running,
    kill: (signal) => {
      if (!group || child.pid === undefined) child.kill(signal)
      else {
        try {
          process.kill(-child.pid, signal)
        } catch {
          // the group is gone
        }
      }
    },
    output,
    waitForStdout: (pattern, timeoutMs) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stdout)
          if (match === null) return
          done()
          resolve(match)
        }
        const timer = setTimeout(() => {
          done()
          reject(new Error(`${name}: no ${pattern} on stdout within ${timeoutMs} ms\n${output()}`))
        }, timeoutMs)
        const done = () => {
          clearTimeout(timer)
          listeners.delete(check)
        }
        listeners.add(check)
        void exited.then((exit) => {
          if (!listeners.has(check)) return
          check()
          if (!listeners.has(check)) return
          done()
          reject(new Error(`${name} exited (${JSON.stringify(exit)}) before ${pattern}\n${output()}`))
        })
        check()
      })
  }
  launched.push(self)
  return self
}

/** Every process launched by this module in this test file, in launch order. */
export const launchedProcesses = (): ReadonlyArray<Launched> => launched

export interface Finished extends Exit {
  readonly stdout: string
  readonly stderr: string
}

/** Launches `script` and waits for it to finish; killed (and failed) after `timeoutMs`. */
export const runToEnd = async (
  name: string,
  script: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000
): Promise<Finished> => {
  const p = launch(name, script, args, env)
  const exit = await exitWithin(p, timeoutMs)
  return { ...exit, stdout: p.stdout(), stderr: p.stderr() }
}

/** Waits for the exit, or kills the process (SIGKILL) and rejects after `timeoutMs`. */
export const exitWithin = (p: Launched, timeoutMs: number): Promise<Exit> =>
  new Promise<Exit>((resolve, reject) => {
    const timer = setTimeout(() => {
      p.kill("SIGKILL")
      reject(new Error(`${p.name} did not exit within ${timeoutMs} ms\n${p.output()}`))
    }, timeoutMs)
    void p.exited.then((exit) => {
      clearTimeout(timer)
      resolve(exit)
    })
  })

/** SIGKILLs every process this file launched that still runs. */
export const killAll = async () => {
  await Promise.all(launched.filter((p) => p.isRunning()).map((p) => {
    p.kill("SIGKILL")
    return exitWithin(p, 10_000).catch(() => undefined)
  }))
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = Net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

export interface Reply {
  readonly status: number
  readonly body: any
  readonly text: string
}

/** One JSON request, with a bearer token when one is given. */
export const requestJson = async (baseUrl: string, method: string, path: string, options: {
  readonly token?: string
  readonly body?: unknown
} = {}): Promise<Reply> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(baseUrl + path, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  let parsed: any = undefined
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, body: parsed, text }
}

/** A JSON client for one base URL and bearer token. */
export const apiClient = (baseUrl: string, token: string) => (method: string, path: string, body?: unknown): Promise<Reply> =>
  requestJson(baseUrl, method, path, { token, body })

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls `check` every 50 ms until it returns true; rejects after `timeoutMs` with `what`. */
export const eventually = async (check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await sleep(50)
  }
  throw new Error(`not within ${timeoutMs} ms: ${what}`)
}

// -----------------------------------------------------------------------------
// scratch PostgreSQL databases
// -----------------------------------------------------------------------------

/** The PostgreSQL server of the tests, when one is configured. */
export const testPostgresUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined

const adminScript = `
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
const [url, action, name] = process.argv.slice(1)
if (!/^wasl_e2e_[0-9a-f]+$/.test(name)) throw new Error("bad database name " + name)
const program = PgClient.make({ url: Redacted.make(url), maxConnections: 1 }).pipe(
  Effect.flatMap((sql) => action === "create"
    ? sql\`CREATE DATABASE \${sql(name)}\`.raw
    : sql\`DROP DATABASE IF EXISTS \${sql(name)} WITH (FORCE)\`.raw),
  Effect.scoped,
  Effect.provide(Reactivity.layer)
)
await Effect.runPromise(program)
`

const adminDatabase = async (url: string, action: "create" | "drop", name: string) => {
  const env = { ...process.env }
  delete env.DATABASE_URL
  const child = spawn(nodeBinary(), ["--input-type=module", "-e", adminScript, "--", url, action, name], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.setEncoding("utf8").on("data", (c: string) => (output += c))
  child.stderr.setEncoding("utf8").on("data", (c: string) => (output += c))
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve))
  if (code !== 0) throw new Error(`${action} database ${name} failed\n${output}`)
}

/** A fresh database on the test server; `drop` removes it. */
export const scratchDatabase = async (serverUrl: string) => {
  const name = `wasl_e2e_${randomBytes(6).toString("hex")}`
  await adminDatabase(serverUrl, "create", name)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => adminDatabase(serverUrl, "drop", name) }
}

const queryScript = `
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
const [url, text, params] = process.argv.slice(1)
const program = PgClient.make({ url: Redacted.make(url), maxConnections: 1 }).pipe(
  Effect.flatMap((sql) => sql.unsafe(text, JSON.parse(params))),
  Effect.scoped,
  Effect.provide(Reactivity.layer)
)
console.log(JSON.stringify(await Effect.runPromise(program), (_, v) => typeof v === "bigint" ? String(v) : v))
`

/**
 * Runs one SQL statement with `params` on the database at `url` (in a node process of its own,
 * like the scratch databases) and answers its rows as JSON gives them back (a bigint as a string).
 */
export const queryDatabase = async (url: string, text: string, params: ReadonlyArray<unknown> = []): Promise<Array<any>> => {
  const env = { ...process.env }
  delete env.DATABASE_URL
  const child = spawn(nodeBinary(), ["--input-type=module", "-e", queryScript, "--", url, text, JSON.stringify(params)], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c))
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c))
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve))
  if (code !== 0) throw new Error(`a query of a scratch database failed\n${stdout}${stderr}`)
  return JSON.parse(stdout)
}

/** The tables of the database at `url` (every schema but the system ones): none on a fresh database. */
export const databaseTables = async (url: string): Promise<ReadonlyArray<string>> =>
  (await queryDatabase(
    url,
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
     WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`
  )).map((row) => row.name)

export { cliMain, waslMain } from "./apps.ts"

/** The HTTP-only and worker-only app entries (separate processes for scale). */
export const serverMain = Path.join(root, "apps", "server", "src", "main.ts")

/**
 * The environment of an app on `databaseUrl` listening on `port` of loopback, its data directory
 * under `dir`, a fixed server key and no request rate limit, with `extra` settings.
 */
export const serverEnv = (dir: string, databaseUrl: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  WASL_DATA_DIR: Path.join(dir, "data"),
  WASL_SECRET_KEY: "7".repeat(64),
  HOST: "127.0.0.1",
  PORT: String(port),
  WASL_RATE_LIMIT: "0",
  ...extra
})

/** Starts `apps/server` with `env` and waits until it listens. */
export const launchServer = async (env: NodeJS.ProcessEnv, name = "server"): Promise<Launched> => {
  const server = launch(name, serverMain, [], env)
  await server.waitForStdout(LISTENING, 60_000)
  return server
}

/**
 * Creates an account named `account` (plan business) with `wasl bootstrap` on `env`'s database, its
 * owner `<email>` with a fixed password; answers the owner's API token.
 */
export const bootstrapToken = async (env: NodeJS.ProcessEnv, account: string, email: string): Promise<string> => {
  const cli = launch("cli bootstrap", cliMain, [
    "bootstrap", "--account", account, "--email", email, "--password", "a long password", "--plan", "business"
  ], env)
  const exit = await exitWithin(cli, 60_000)
  if (exit.code !== 0) throw new Error(`wasl bootstrap failed (${JSON.stringify(exit)})\n${cli.output()}`)
  return JSON.parse(cli.stdout().trim().split("\n").at(-1)!).token
}
export const workerMain = Path.join(root, "apps", "worker", "src", "main.ts")
