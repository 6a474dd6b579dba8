/**
 * PostgreSQL servers started by a test, for what one shared server cannot show: a primary and its
 * streaming standbys on loopback ports, made with the server's own tools (`initdb`,
 * `pg_basebackup -R`, `pg_ctl`; their directory from `pg_config --bindir`), run as the `postgres`
 * user when the test runs as root (PostgreSQL refuses root). Each server lives in a temporary
 * directory that `stop` removes.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { freePort } from "./processes.ts"

/** Where the server binaries are; undefined when PostgreSQL's server tools are not installed. */
export const postgresBinaries = (): string | undefined => {
  const found = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" })
  const dir = found.status === 0 ? found.stdout.trim() : ""
  return dir !== "" && Fs.existsSync(Path.join(dir, "initdb")) && Fs.existsSync(Path.join(dir, "pg_basebackup")) ? dir : undefined
}

const asRoot = process.getuid?.() === 0

/** Runs a server tool (as `postgres` when we are root); throws with its output when it fails. */
const tool = (name: string, args: ReadonlyArray<string>) => {
  const bin = Path.join(postgresBinaries()!, name)
  const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, [...args]]
  const result = spawnSync(command, argv, { encoding: "utf8", cwd: Os.tmpdir() })
  if (result.status !== 0) throw new Error(`${name} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`)
  return result.stdout
}

/** A directory the server's user owns. */
const serverDir = (prefix: string) => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix))
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir])
  return dir
}

/** One running server. */
export interface PgServer {
  readonly port: number
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string
  readonly dataDir: string
  /** Adds lines to its configuration and reloads it. */
  readonly configure: (lines: ReadonlyArray<string>) => void
  /** Ends it at once, as a crash would (`pg_ctl stop -m immediate`), keeping its directory. */
  readonly crash: () => void
  /** SIGKILLs its postmaster, as the kernel's OOM killer or a lost machine would. */
  readonly kill: () => void
  /** Promotes a standby to a primary and waits until it accepts writes. */
  readonly promote: () => void
  /** Stops it and removes its directory. */
  readonly stop: () => void
}

const settings = (port: number, dir: string, extra: ReadonlyArray<string>) =>
  [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    "max_connections = 60",
    "shared_buffers = 32MB",
    "wal_level = replica",
    "max_wal_senders = 8",
    "hot_standby = on",
    "hot_standby_feedback = on",
    ...extra
  ].join("\n") + "\n"

const server = (dataDir: string, port: number): PgServer => {
  const log = Path.join(dataDir, "server.log")
  let running = false
  const start = () => {
    tool("pg_ctl", ["-D", dataDir, "-l", log, "-w", "-t", "60", "start"])
    running = true
  }
  start()
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    configure: (lines) => {
      Fs.appendFileSync(Path.join(dataDir, "postgresql.conf"), lines.join("\n") + "\n")
      tool("pg_ctl", ["-D", dataDir, "reload"])
    },
    crash: () => {
      if (running) tool("pg_ctl", ["-D", dataDir, "-m", "immediate", "stop"])
      running = false
    },
    kill: () => {
      const pid = Number(Fs.readFileSync(Path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0])
      process.kill(pid, "SIGKILL")
      running = false
    },
    promote: () => {
      tool("pg_ctl", ["-D", dataDir, "-w", "-t", "60", "promote"])
    },
    stop: () => {
      try {
        if (running) tool("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"])
      } finally {
        running = false
        Fs.rmSync(Path.dirname(dataDir), { recursive: true, force: true })
      }
    }
  }
}

/** Starts a primary on a free port (`extra`: more postgresql.conf lines, e.g. a synchronous standby). */
export const startPrimary = async (extra: ReadonlyArray<string> = []): Promise<PgServer> => {
  const dir = serverDir("wasl-pg-primary-")
  const dataDir = Path.join(dir, "data")
  tool("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
  const port = await freePort()
  Fs.appendFileSync(Path.join(dataDir, "postgresql.conf"), settings(port, dir, extra))
  return server(dataDir, port)
}

/**
 * Starts a streaming standby of `primary` (a base backup with its recovery settings, `-R`),
 * named `name` (its `application_name`, for `synchronous_standby_names`).
 */
export const startStandby = async (primary: PgServer, name: string, extra: ReadonlyArray<string> = []): Promise<PgServer> => {
  const dir = serverDir(`wasl-pg-${name}-`)
  const dataDir = Path.join(dir, "data")
  tool("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", dataDir, "-R", "-X", "stream", "-c", "fast"])
  const port = await freePort()
  // After the lines `-R` wrote to postgresql.auto.conf, which would win over postgresql.conf's.
  Fs.appendFileSync(
    Path.join(dataDir, "postgresql.auto.conf"),
    settings(port, dir, [`primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}'`, ...extra])
  )
  return server(dataDir, port)
}
