/**
 * The README's tour runs as written: its shell blocks, from "First run" to the end of "A short
 * tour of the API", run in order in one bash against `npm start` (apps/wasl on a fresh embedded
 * database, started the way the tour's one-machine webhook recipe starts it), with the token the
 * first run printed and the ids the blocks themselves pick out of the answers with jq. The
 * webhook steps reach the README's own receiver over HTTPS with the recipe's certificate.
 *
 * What the test changes, and only that: `localhost:3000` and the receiver's port 8443 become free
 * ports, the printed token's placeholder becomes the printed token, `npm` runs the clone's
 * scripts from the scratch directory the tour runs in, and `curl` fails on an HTTP error
 * (`--fail-with-body`) so that every step must answer 2xx; the endless event stream is cut after
 * a few seconds.
 */
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { root } from "./support/apps.ts"
import { FIRST_RUN, freePort, killAll, launch, LISTENING, waslMain } from "./support/processes.ts"

const readme = Fs.readFileSync(Path.join(root, "README.md"), "utf8")

const shellBlocks = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!)

/** The tour: the "First run" section up to the settings, in the README's order. */
const tour = shellBlocks(readme.slice(readme.indexOf("### First run"), readme.indexOf("## Configuration")))

/** The one-machine webhook recipe: the block that starts `npm start` with the webhook settings. */
const RECIPE_START = "WASL_WEBHOOK_ALLOW_PRIVATE=true WASL_WEBHOOK_CA_FILE=receiver-cert.pem npm start"
const recipe = tour.find((block) => block.includes(RECIPE_START))

/** The README's receiver ("Receiving webhooks"), which the recipe saves as receiver.mjs. */
const receiver = /```js\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("### Receiving webhooks")))?.[1]

/** Runs a bash script in `cwd`, in a process group of its own (killed, background jobs too, when done). */
const bash = (script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("bash", ["-c", script], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    const stop = () => {
      try {
        process.kill(-child.pid!, "SIGKILL")
      } catch {
        // the group is gone
      }
    }
    const timer = setTimeout(stop, timeoutMs)
    child.once("exit", (code) => {
      clearTimeout(timer)
      // The receiver the tour started in the background may still hold the pipes open.
      setTimeout(() => {
        stop()
        resolve({ code, output })
      }, 500)
    })
  })

/** What every block runs under: stop at the first failure, say each command, curl as above. */
const PRELUDE = `set -eo pipefail
curl() {
  if [ "$1" = "-N" ]; then command curl -sS --max-time 3 "$@" || [ $? -eq 28 ]; return; fi
  command curl -sS --fail-with-body --max-time 30 "$@"; echo
}
npm() { (cd ${JSON.stringify(root)} && command npm "$@"); }
set -x
`

describe("the README tour", () => {
  let dir = ""
  let token = ""
  let apiPort = 0
  let receiverPort = 0
  let env: NodeJS.ProcessEnv = {}

  beforeAll(async () => {
    expect(recipe, "the README shows how to start Wasl for a local webhook receiver").toBeDefined()
    expect(receiver, "the README shows a webhook receiver").toBeDefined()
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-readme-tour-"))
    // The receiver as the reader saves it in the clone, where `standardwebhooks` is installed.
    Fs.writeFileSync(Path.join(dir, "receiver.mjs"), receiver!)
    Fs.mkdirSync(Path.join(dir, "node_modules"))
    Fs.symlinkSync(Path.join(root, "node_modules", "standardwebhooks"), Path.join(dir, "node_modules", "standardwebhooks"))
    env = { ...process.env, WASL_DATA_DIR: Path.join(dir, ".wasl-data"), HOST: "127.0.0.1" }
    delete env.DATABASE_URL
    delete env.T
    delete env.H

    // The recipe's commands before `npm start` (the certificate), then `npm start` with its settings.
    const certificate = await bash(recipe!.slice(0, recipe!.indexOf(RECIPE_START)), dir, env, 60_000)
    expect(certificate.code, certificate.output).toBe(0)
    apiPort = await freePort()
    receiverPort = await freePort()
    const wasl = launch("wasl", waslMain, [], {
      ...env,
      PORT: String(apiPort),
      WASL_WEBHOOK_ALLOW_PRIVATE: "true",
      WASL_WEBHOOK_CA_FILE: Path.join(dir, "receiver-cert.pem")
    })
    await wasl.waitForStdout(LISTENING, 90_000)
    token = FIRST_RUN.exec(wasl.stdout())![3]!
  }, 180_000)

  afterAll(async () => {
    await killAll()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  })

  it("runs every shell block in order, webhooks and one-time passwords included", async () => {
    const steps = tour
      .filter((block) => block !== recipe)
      .join("\n")
      .replaceAll("localhost:3000", `localhost:${apiPort}`)
      .replaceAll("8443", String(receiverPort))
      .replaceAll("1|Vb7...", token)
    const run = await bash(PRELUDE + steps, dir, {
      ...env,
      T: `Authorization: Bearer ${token}`,
      H: "Content-Type: application/json"
    }, 240_000)
    expect(run.code, run.output).toBe(0)
    // The one-time password went through, the receiver printed the delivery, the import and
    // the export finished, and the file holds the tour's deal.
    expect(run.output).toMatch(/"status":"approved"/)
    expect(run.output).toMatch(/^deal-updated \S+$/m)
    expect(run.output).toMatch(/"status":"completed"/)
    const exported = Fs.readdirSync(dir).filter((name) => /^deals-.*\.csv$/.test(name))
    expect(exported).toHaveLength(1)
    expect(Fs.readFileSync(Path.join(dir, exported[0]!), "utf8")).toContain("Big deal")
  }, 300_000)
})
