/**
 * Debian's pgbouncer for tests: one started on a free loopback port in front of a PostgreSQL
 * server, in the pooling mode asked for, trusting the test's users; run as the `postgres` user
 * when the test runs as root (pgbouncer refuses root). `stop` ends it and removes its files.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { freePort, sleep } from "./processes.ts"

/** Where pgbouncer is, when it is installed. */
export const pgbouncerBinary = (): string | undefined => {
  for (const candidate of ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"]) if (Fs.existsSync(candidate)) return candidate
  const found = spawnSync("sh", ["-c", "command -v pgbouncer"], { encoding: "utf8" })
  return found.status === 0 && found.stdout.trim() !== "" ? found.stdout.trim() : undefined
}

export interface Pgbouncer {
  readonly port: number
  readonly stop: () => Promise<void>
}

/** Starts pgbouncer in `mode` in front of the server at `target` (every database, as the client names it). */
export const startPgbouncer = async (
  target: { readonly host: string; readonly port: number },
  mode: "session" | "transaction"
): Promise<Pgbouncer> => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-pgbouncer-"))
  const port = await freePort()
  Fs.writeFileSync(Path.join(dir, "users.txt"), `"postgres" ""\n`)
  Fs.writeFileSync(
    Path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${target.host} port=${target.port}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${Path.join(dir, "users.txt")}`,
      `pool_mode = ${mode}`,
      "max_client_conn = 500",
      "default_pool_size = 8",
      `logfile = ${Path.join(dir, "pgbouncer.log")}`
    ].join("\n") + "\n"
  )
  const asRoot = process.getuid?.() === 0
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", dir])
  const binary = pgbouncerBinary()!
  const [command, args] = asRoot
    ? ["runuser", ["-u", "postgres", "--", binary, Path.join(dir, "pgbouncer.ini")]]
    : [binary, [Path.join(dir, "pgbouncer.ini")]]
  const child: ChildProcess = spawn(command, args, { stdio: "ignore" })
  const deadline = Date.now() + 15_000
  while (!(await accepts(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      const log = Fs.existsSync(Path.join(dir, "pgbouncer.log")) ? Fs.readFileSync(Path.join(dir, "pgbouncer.log"), "utf8") : ""
      throw new Error(`pgbouncer did not start:\n${log}`)
    }
    await sleep(50)
  }
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM")
        await new Promise((resolve) => child.once("exit", resolve))
      }
      Fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = Net.connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })
