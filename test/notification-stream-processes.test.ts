/**
 * Live notifications across processes: two apps/server processes and one apps/worker on a
 * scratch database of TEST_DATABASE_URL. A stream is open on the second server; webhook
 * deliveries made through the first fail until the worker switches the webhook off, and the
 * Webhook Deactivated notification the worker stores reaches the stream on the second server
 * (PostgreSQL LISTEN/NOTIFY between processes). Retry delays are shortened with WASL_RETRY_DELAYS.
 *
 * Runs only when TEST_DATABASE_URL is set (the embedded database admits one process).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Sse } from "effect/encoding"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  apiClient,
  cliMain,
  exitWithin,
  freePort,
  killAll,
  launch,
  scratchDatabase,
  serverMain,
  testPostgresUrl,
  workerMain
} from "./support/processes.ts"
import { RECEIVER_CA_FILE, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.ts"

const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/

describe.runIf(testPostgresUrl() !== undefined)("live notifications across server processes", () => {
  let dir = ""
  let database: { url: string; drop: () => Promise<void> } | undefined
  let receiver: WebhookReceiver
  let first: ReturnType<typeof apiClient>
  let secondUrl = ""
  let token = ""

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-stream-"))
    database = await scratchDatabase(testPostgresUrl()!)
    receiver = await startWebhookReceiver()
    const env = {
      ...process.env,
      DATABASE_URL: database.url,
      WASL_DATA_DIR: Path.join(dir, "data"),
      WASL_SECRET_KEY: "5".repeat(64),
      HOST: "127.0.0.1",
      WASL_WEBHOOK_ALLOW_PRIVATE: "true",
      WASL_WEBHOOK_CA_FILE: RECEIVER_CA_FILE,
      WASL_RETRY_DELAYS: "0s,100ms,100ms,100ms,100ms,100ms",
      WASL_DELIVERY_TIMEOUT: "5s",
      WASL_MAIL_OUTBOX: Path.join(dir, "mail.jsonl"),
      WASL_RATE_LIMIT: "0"
    }
    const ports = [await freePort(), await freePort()]
    const servers = ports.map((port, i) => launch(`server ${i + 1}`, serverMain, [], { ...env, PORT: String(port) }))
    await Promise.all(servers.map((server) => server.waitForStdout(LISTENING, 60_000)))
    const cli = launch("cli bootstrap", cliMain, [
      "bootstrap", "--account", "Streams", "--email", "streams@example.test", "--password", "a long password", "--plan", "business"
    ], env)
    const exit = await exitWithin(cli, 60_000)
    expect(exit.code, cli.output()).toBe(0)
    token = JSON.parse(cli.stdout().trim().split("\n").at(-1)!).token
    first = apiClient(`http://127.0.0.1:${ports[0]}`, token)
    secondUrl = `http://127.0.0.1:${ports[1]}`
    const worker = launch("worker", workerMain, [], env)
    await worker.waitForStdout(/Wasl delivery worker started/, 60_000)
  }, 180_000)

  afterAll(async () => {
    await killAll()
    await receiver?.close()
    await database?.drop()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("the worker's Webhook Deactivated notification reaches a stream on the other server", async () => {
    // The stream, on the second server, read with Effect's SSE parser.
    const abort = new AbortController()
    const stream = await fetch(`${secondUrl}/api/notifications/stream`, {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      signal: abort.signal
    })
    expect(stream.status).toBe(200)
    const events: Array<Sse.Event> = []
    const parser = Sse.makeParser((event) => {
      if (event._tag === "Event") events.push(event)
    })
    const reader = stream.body!.getReader()
    const decoder = new TextDecoder()
    const arrived = (async () => {
      while (events.length === 0) {
        const { done, value } = await reader.read()
        if (done) return
        parser.feed(decoder.decode(value, { stream: true }))
      }
    })()

    // Through the first server: a webhook that fails every delivery, and three events for it.
    const created = await first("POST", "/api/account/webhooks", { URL: receiver.url("/down"), events: ["contact-created"] })
    expect(created.status, created.text).toBe(201)
    receiver.setSecret("/down", created.body.data.secret)
    expect((await first("POST", `/api/account/webhooks/${created.body.data.id}/validate`)).status).toBe(200)
    expect((await first("PUT", `/api/account/webhooks/${created.body.data.id}/activate`, { is_active: true })).status).toBe(200)
    receiver.setStatus("/down", 500)
    for (let i = 1; i <= 3; i++) {
      expect((await first("POST", "/api/contacts", { firstname: `Failing ${i}` })).status).toBe(201)
    }

    await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 60_000))])
    abort.abort()
    const [event] = events
    expect(event?.event).toBe("message")
    const notification = JSON.parse(event!.data)
    expect(notification).toMatchObject({ type: "WebhookDeactivated", popup: true, browser: true })
    expect(notification.data.url).toBe(receiver.url("/down"))
    const listed = await first("GET", "/api/notifications")
    expect(event!.id).toBe(String(listed.body.data[0].id))
  }, 120_000)
})
