/**
 * The benchmarks' child processes (the Wasl server, the CLI, the baselines): started with this
 * Node, their output kept for error messages, stopped with SIGTERM then SIGKILL. Every child
 * started is tracked until it exits, so a run can stop whatever is left (`stopAllChildren`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as Net from "node:net"
import { randomBytes } from "node:crypto"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { nodeFlagsFromEnv } from "./env.ts"

/** The repository's root (the children's working directory). */
export const root = fileURLToPath(new URL("../..", import.meta.url))
/** `apps/server`: the HTTP service alone. */
export const serverMain = Path.join(root, "apps", "server", "src", "main.ts")
/** `apps/cli`: the `wasl` command line. */
export const cliMain = Path.join(root, "apps", "cli", "src", "main.ts")

export interface Child {
  readonly name: string
  readonly child: ChildProcess
  readonly exited: Promise<number | null>
  readonly output: () => string
  /** Resolves when the output matches; fails on timeout or when the child exits first. */
  readonly waitFor: (pattern: RegExp, timeoutMs: number) => Promise<RegExpExecArray>
}

const children = new Set<Child>()

const TAIL = 65_536

/**
 * The last 64 KiB of a child's output, for error messages and `waitFor`. The chunks are kept as
 * they come and joined only when read: copying the tail on every chunk cost the benchmark's
 * process a 64 KiB copy per flush of a child's access log, CPU taken from the load generator while
 * it measured that child, and from none of the baselines, which log nothing.
 */
const outputTail = () => {
  const chunks: Array<string> = []
  let size = 0
  return {
    add: (chunk: string) => {
      chunks.push(chunk)
      size += chunk.length
      while (size - chunks[0]!.length >= TAIL) size -= chunks.shift()!.length
    },
    text: () => {
      const text = chunks.join("")
      return text.length > TAIL ? text.slice(-TAIL) : text
    }
  }
}

/** Starts `node args` in the repository's root. */
export const startChild = (name: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Child => {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
  const output = outputTail()
  const listeners = new Set<() => void>()
  const onData = (chunk: string) => {
    output.add(chunk)
    for (const listener of listeners) listener()
  }
  child.stdout!.setEncoding("utf8").on("data", onData)
  child.stderr!.setEncoding("utf8").on("data", onData)
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (error) => {
      output.add(`\n[spawn error] ${error.message}`)
      resolve(null)
    })
    child.once("close", (code) => resolve(code))
  })
  const handle: Child = {
    name,
    child,
    exited,
    output: output.text,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output.text())
          if (match !== null) finish(() => resolve(match))
        }
        const finish = (then: () => void) => {
          clearTimeout(timer)
          listeners.delete(check)
          then()
        }
        const timer = setTimeout(
          () => finish(() => reject(new Error(`${name}: no ${pattern} within ${timeoutMs} ms\n${output.text()}`))),
          timeoutMs
        )
        listeners.add(check)
        void exited.then((code) => {
          if (listeners.has(check)) finish(() => reject(new Error(`${name} exited (${code}) early\n${output.text()}`)))
        })
        check()
      })
  }
  children.add(handle)
  void exited.then(() => children.delete(handle))
  return handle
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child is gone. */
export const stopChild = async (child: Child, graceMs = 10_000): Promise<void> => {
  if (child.child.exitCode !== null || child.child.signalCode !== null) return
  child.child.kill("SIGTERM")
  const timer = setTimeout(() => child.child.kill("SIGKILL"), graceMs)
  await child.exited
  clearTimeout(timer)
}

/** Stops every child still running, one after the other. */
export const stopAllChildren = async (graceMs = 5_000): Promise<void> => {
  for (const child of [...children]) await stopChild(child, graceMs).catch(() => undefined)
}

/** Runs node `args` to completion (at most `timeoutMs`); its stdout on exit 0, else an error. */
export const runToCompletion = async (
  name: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000
): Promise<string> => {
  const child = startChild(name, args, env)
  let stdout = ""
  child.child.stdout!.on("data", (chunk: string) => (stdout += chunk))
  const timer = setTimeout(() => child.child.kill("SIGKILL"), timeoutMs)
  const code = await child.exited
  clearTimeout(timer)
  if (code !== 0) throw new Error(`${name} failed (exit ${code})\n${child.output()}`)
  return stdout
}

/** A TCP port free on loopback right now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = Net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as Net.AddressInfo
      server.close(() => resolve(port))
    })
  })

/**
 * Starts the Wasl HTTP service (`apps/server`, or `main`, a variant of its main module) on loopback
 * and a free port; resolves once it listens. `BENCH_WASL_NODE_ARGS` (space-separated) are given to
 * its node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it (node refuses those in NODE_OPTIONS).
 */
export const startWaslServer = async (
  env: NodeJS.ProcessEnv,
  main: string = serverMain
): Promise<{ readonly child: Child; readonly origin: string }> => {
  const port = await freePort()
  const child = startChild("apps/server", [...nodeFlagsFromEnv("BENCH_WASL_NODE_ARGS"), main], {
    ...env,
    HOST: "127.0.0.1",
    PORT: String(port)
  })
  await child.waitFor(/Wasl is listening on/, 60_000)
  return { child, origin: `http://127.0.0.1:${port}` }
}

/**
 * Starts a baseline server (`node script args`, told `BASELINE_PORT`); resolves once it listens.
 * `BENCH_BASELINE_NODE_ARGS` are given to the node of every baseline, as `BENCH_WASL_NODE_ARGS`
 * are to Wasl's (a profile of each, to set side by side).
 */
export const startBaseline = async (
  script: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv
): Promise<{ readonly child: Child; readonly origin: string }> => {
  const port = await freePort()
  const nodeArgs = [...nodeFlagsFromEnv("BENCH_BASELINE_NODE_ARGS"), script, ...args]
  const child = startChild("baseline", nodeArgs, { ...env, BASELINE_PORT: String(port) })
  await child.waitFor(/baseline is listening/, 60_000)
  return { child, origin: `http://127.0.0.1:${port}` }
}

/**
 * A new account with its owner, made by the CLI (`wasl bootstrap`, the supported way), with a
 * random password: its token and the account's id. The password is hex: a random base64url one
 * starts with "-" once in 64 runs, and the CLI then reads it as a flag.
 */
/**
 * A JSON client of the server at `origin` with the bearer `token`: answers the parsed body, and
 * throws with the status and body on an answer of 300 or more.
 */
export const benchApi = (origin: string, token: string) => async (method: string, path: string, body?: unknown): Promise<any> => {
  const response = await fetch(origin + path, {
    method,
    headers: { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
  return JSON.parse(text)
}

export const bootstrapAccount = async (
  env: NodeJS.ProcessEnv,
  account = "Bench"
): Promise<{ readonly account_id: number; readonly token: string }> =>
  JSON.parse(
    await runToCompletion("wasl bootstrap", [
      cliMain,
      "bootstrap",
      "--account",
      account,
      "--email",
      "bench@localhost",
      "--password",
      randomBytes(18).toString("hex")
    ], env)
  )
