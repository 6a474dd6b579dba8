/**
 * `npm start` on the embedded database, killed (SIGKILL) in the middle of a burst of writes,
 * restarts with every write it answered 2xx present and nothing half-written: each write is one
 * transaction, committed to the data directory's files before its answer leaves. (A process
 * crash loses nothing the OS has; a power loss is another matter — see the README.)
 *
 * Black box: spawns `apps/wasl/src/main.ts` and talks HTTP.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { exitWithin, freePort, killAll, launch, requestJson as request, waslMain } from "./support/processes.ts"

const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/
const TOKEN = /token:\s*(\S+)\n/

const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-crash-"))

const start = async (name: string) => {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, WASL_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port) }
  delete env.DATABASE_URL
  const wasl = launch(name, waslMain, [], env)
  await wasl.waitForStdout(LISTENING, 60_000)
  return { wasl, baseUrl: `http://127.0.0.1:${port}` }
}

/** The deal of write `n`: its name and amount say which write it was. */
const dealOf = (n: number) => ({ deal_name: `crash deal ${n}`, amount: n, deal_stage: "qualified_to_buy" })

afterAll(async () => {
  await killAll()
  Fs.rmSync(dataDir, { recursive: true, force: true })
})

describe("npm start on the embedded database, SIGKILLed during a burst of writes", () => {
  it("restarts with every answered write present, whole, and nothing half-written", async () => {
    const first = await start("wasl (killed)")
    const token = TOKEN.exec(first.wasl.stdout())![1]!

    // 4 writers, each writing deals one after the other until the process dies under them.
    const answered = new Map<number, string>()
    let next = 0
    let killed = false
    const writer = async () => {
      while (!killed) {
        const n = next++
        try {
          const reply = await request(first.baseUrl, "POST", "/api/deals", { token, body: dealOf(n) })
          if (reply.status === 201) answered.set(n, reply.body.data.properties._id)
          else if (!killed) throw new Error(`write ${n} answered ${reply.status}: ${reply.text}`)
        } catch (error) {
          if (!killed) throw error
        }
      }
    }
    const writers = Array.from({ length: 4 }, writer)
    // Kill once a good number of writes were answered, with others in flight.
    while (answered.size < 30) await new Promise((resolve) => setTimeout(resolve, 5))
    killed = true
    first.wasl.child.kill("SIGKILL")
    await Promise.allSettled(writers)
    const exit = await exitWithin(first.wasl, 10_000)
    expect(exit.signal).toBe("SIGKILL")
    const sent = next

    const second = await start("wasl (restarted)")
    // Every write answered 201 is there, as it was written.
    for (const [n, id] of answered) {
      const read = await request(second.baseUrl, "GET", `/api/deals/${id}`, { token })
      expect(read.status, `deal ${n}`).toBe(200)
      expect(read.body.data.properties).toMatchObject(dealOf(n))
    }
    // Nothing half-written: every deal present is one of the writes sent, whole; the exact total
    // (a counter kept in the same transactions) agrees with the rows.
    const listed = await request(second.baseUrl, "GET", "/api/deals?per_page=100&page=1", { token })
    const rows = [...listed.body.data]
    for (let page = 2; page <= listed.body.meta.last_page; page++) {
      rows.push(...(await request(second.baseUrl, "GET", `/api/deals?per_page=100&page=${page}`, { token })).body.data)
    }
    expect(listed.body.meta.total).toBe(rows.length)
    expect(rows.length).toBeGreaterThanOrEqual(answered.size)
    expect(rows.length).toBeLessThanOrEqual(sent)
    for (const row of rows) {
      const n = Number(/^crash deal (\d+)$/.exec(row.properties.deal_name)?.[1])
      expect(row.properties).toMatchObject(dealOf(n))
    }
    second.wasl.child.kill("SIGTERM")
    expect((await exitWithin(second.wasl, 30_000)).code).toBe(0)
  }, 180_000)
})
