/**
 * The receiver the README shows ("Receiving webhooks") works as written: its code block, run as
 * is in a Node process with the official `standardwebhooks` package, passes the validation
 * challenge of a real webhook, answers 200 to a real delivery attempt made by the worker's
 * use-case, and 401 to the same attempt with its body altered. The in-process transport forwards
 * Wasl's requests (headers and body exactly as built) to it over plain HTTP; Wasl itself only
 * dials https.
 */
import { attemptDelivery, DeliveryRepository, fanOutEvents } from "@wasl/core/Deliveries"
import { type WebhookRequest } from "@wasl/core/Webhooks"
import { Duration, Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import { createServer } from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type TestServer } from "./support/server.ts"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))

/** The first js block after the README's "### Receiving webhooks" heading. */
const readmeReceiver = (): string => {
  const readme = Fs.readFileSync(Path.join(ROOT, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("### Receiving webhooks"))
  const block = /```js\n([\s\S]*?)```/.exec(section)
  if (block === null) throw new Error("the README has no receiver code block")
  return block[1]!
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

describe("the README's webhook receiver", () => {
  let server: TestServer
  let receiver: ChildProcess | undefined
  let dir = ""
  let receiverUrl = ""

  /** Posts a request as Wasl built it to the README receiver. */
  const forward = async (request: Pick<WebhookRequest, "headers" | "body">) => {
    const answer = await fetch(receiverUrl, { method: "POST", headers: request.headers, body: request.body })
    return { _tag: "Answered" as const, status: answer.status, body: await answer.text(), durationMillis: 1 }
  }

  beforeAll(async () => {
    server = await startTestServer("pglite")
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-readme-receiver-"))
    // The block as a file of its own project, `standardwebhooks` installed (linked from the workspace).
    Fs.writeFileSync(Path.join(dir, "receiver.mjs"), readmeReceiver())
    Fs.mkdirSync(Path.join(dir, "node_modules"))
    Fs.symlinkSync(Path.join(ROOT, "node_modules", "standardwebhooks"), Path.join(dir, "node_modules", "standardwebhooks"))
  }, 60_000)

  afterAll(async () => {
    receiver?.kill()
    await server?.close()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  })

  it("validates, receives a delivery, and refuses one whose body was altered", async () => {
    const owner = await server.bootstrap({ email: "readme-receiver@example.test", password: "pw-owner" })
    const created = await server.request("POST", "/api/account/webhooks", {
      token: owner.token,
      body: { URL: "https://localhost/wasl", events: ["deal-created"] }
    })
    expect(created.status, created.text).toBe(201)
    const hook = created.body.data

    const port = await freePort()
    receiverUrl = `http://127.0.0.1:${port}/`
    receiver = spawn(process.execPath, [Path.join(dir, "receiver.mjs")], {
      env: { ...process.env, WASL_WEBHOOK_SECRET: hook.secret, PORT: String(port) },
      stdio: ["ignore", "inherit", "inherit"]
    })
    const deadline = Date.now() + 15_000
    for (;;) {
      const up = await fetch(receiverUrl, { method: "POST", body: "{}" }).then((r) => r.status, () => 0)
      if (up === 401) break
      if (Date.now() > deadline) throw new Error("the README receiver did not start")
      await new Promise((resolve) => setTimeout(resolve, 50))
    }

    server.webhookTransport.respond = forward
    const base = `/api/account/webhooks/${hook.id}`
    const validated = await server.request("POST", `${base}/validate`, { token: owner.token })
    expect(validated.status, validated.text).toBe(200)
    expect(validated.body.data.is_validated).toBe(true)
    expect((await server.request("PUT", `${base}/activate`, { token: owner.token, body: { is_active: true } })).status).toBe(200)

    const deal = await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "Signed ✓" } })
    expect(deal.status, deal.text).toBe(201)
    const results = await server.run(Effect.gen(function*() {
      yield* fanOutEvents(100, Duration.minutes(1))
      const due = yield* DeliveryRepository.use((repo) => repo.claimDue(100, Duration.minutes(1)))
      return yield* Effect.forEach(due, (delivery) => attemptDelivery(delivery))
    }))
    expect(results).toEqual(["Succeeded"])
    const attempt = server.webhookTransport.requests.at(-1)!
    expect(JSON.parse(attempt.body).event).toBe("deal-created")
    expect((await forward(attempt)).status).toBe(200)

    // One character of the body changed on the way: the signature no longer matches.
    const altered = { headers: attempt.headers, body: attempt.body.replace("Signed ✓", "Signed X") }
    expect(altered.body).not.toBe(attempt.body)
    expect((await forward(altered)).status).toBe(401)
  }, 60_000)
})
