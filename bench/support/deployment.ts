/**
 * The deployment a server benchmark runs against: a temporary data directory (PGlite) or, with
 * `BENCH_DATABASE_URL`, a throw-away PostgreSQL database, and an account bootstrapped there with
 * the CLI (which migrates first). Everything it makes is undone by the harness's clean-up.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { bootstrapAccount } from "./children.ts"
import { createBenchDatabase } from "./database.ts"
import { atCleanup } from "./harness.ts"

/** What a benchmark needs of the deployment: the apps' environment, its label, the owner's token. */
export interface BenchDeployment {
  /** A temporary directory of the run (the data directory is below it), removed at the end. */
  readonly dir: string
  readonly env: NodeJS.ProcessEnv
  readonly databaseLabel: string
  readonly token: string
}

/** Makes the deployment; `log` says what it is doing. */
export const benchDeployment = async (log: (message: string) => void): Promise<BenchDeployment> => {
  const postgresUrl = process.env.BENCH_DATABASE_URL || undefined
  const tmp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-bench-"))
  atCleanup(() => Fs.rmSync(tmp, { recursive: true, force: true }))
  const env: NodeJS.ProcessEnv = { ...process.env, WASL_DATA_DIR: Path.join(tmp, "data"), HOST: "127.0.0.1" }
  delete env.DATABASE_URL
  let databaseLabel = "embedded (PGlite under a temporary WASL_DATA_DIR)"
  if (postgresUrl !== undefined) {
    const database = await createBenchDatabase(postgresUrl)
    atCleanup(database.drop)
    env.DATABASE_URL = database.url
    const shown = new URL(database.url)
    shown.password = ""
    databaseLabel = `PostgreSQL ${shown.host}${shown.pathname} (created for this run, dropped after)`
  }
  log("bootstrapping an account with the CLI...")
  const bootstrap = await bootstrapAccount(env)
  return { dir: tmp, env, databaseLabel, token: bootstrap.token }
}
