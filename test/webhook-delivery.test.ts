/**
 * Webhook delivery end to end (the webhook and delivery state machines, signed bodies, the
 * deactivation notice):
 * `npm start` (apps/wasl: HTTP server and delivery worker in one process, embedded database) and a
 * local HTTPS receiver (test/support/webhook-receiver.ts) that checks every signature and
 * timestamp the way a customer would. Retry delays are shortened with WASL_RETRY_DELAYS; the
 * receiver's certificate is trusted through WASL_WEBHOOK_CA_FILE and reached on localhost through
 * WASL_WEBHOOK_ALLOW_PRIVATE. Mail goes to a local SMTP server (test/support/smtp-server.ts:
 * STARTTLS with the same test certificate, trusted through WASL_SMTP_CA_FILE, and AUTH required)
 * given as WASL_SMTP_URL.
 *
 * Black box: this file imports nothing from the workspace. The tests share one process and data
 * directory and run in order.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import {
  apiClient,
  eventually,
  exitWithin,
  freePort,
  killAll,
  launch,
  type Launched,
  sleep,
  waslMain
} from "./support/processes.ts"
import { startSmtpServer, type TestSmtpServer } from "./support/smtp-server.ts"
import { TEST_CA_FILE } from "./support/test-tls.ts"
import { Webhook, WebhookVerificationError } from "standardwebhooks"
import { RECEIVER_CA_FILE, type ReceivedRequest, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.ts"

const KINDS = ["contact", "company", "deal", "ticket", "invoice", "product"] as const
type Kind = typeof KINDS[number]
const PATHS: Record<Kind, string> = {
  contact: "contacts",
  company: "companies",
  deal: "deals",
  ticket: "tickets",
  invoice: "invoices",
  product: "products"
}
const NAME_PROPERTY: Record<Kind, string> = {
  contact: "firstname",
  company: "name",
  deal: "deal_name",
  ticket: "ticket_name",
  invoice: "invoice_number",
  product: "name"
}
const SUFFIXES = [
  "created", "updated", "deleted",
  "property-created", "property-updated", "property-deleted",
  "property-group-created", "property-group-updated", "property-group-deleted",
  "note-created", "note-updated", "note-deleted"
] as const
const ALL_EVENTS = KINDS.flatMap((kind) => SUFFIXES.map((suffix) => `${kind}-${suffix}`))

/** The body's object key: the object name, followed by _property, _property_group or _note. */
const objectKey = (event: string) => {
  const [kind, ...rest] = event.split("-")
  const subject = rest.slice(0, -1).join("_")
  return subject === "" ? kind! : `${kind}_${subject}`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/
const FIRST_RUN = /first account created\.\n\s*owner:\s*(\S+)\n\s*password:\s*(\S+)\n\s*token:\s*(\S+)\n/
const RETRY_DELAYS = "0s,300ms,300ms,300ms,300ms,300ms"

/** The deliveries `path` received (its validation challenges left out). */
const deliveriesAt = (receiver: WebhookReceiver, path: string) =>
  receiver.received(path).filter((r) => r.body?.event !== "webhook-validation")

const header = (r: ReceivedRequest, name: string) => String(r.headers[name.toLowerCase()] ?? "")
const deliveryId = (r: ReceivedRequest) => header(r, "X-Wasl-Delivery")

describe("webhook delivery end to end (npm start, embedded database, local HTTPS receiver)", () => {
  let dir = ""
  let receiver: WebhookReceiver
  let smtp: TestSmtpServer
  let wasl: Launched
  let api: ReturnType<typeof apiClient>
  let baseUrl = ""
  let token = ""
  let port = 0

  const env = (): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = {
      ...process.env,
      WASL_DATA_DIR: Path.join(dir, "data"),
      HOST: "127.0.0.1",
      PORT: String(port),
      WASL_WEBHOOK_ALLOW_PRIVATE: "true",
      WASL_WEBHOOK_CA_FILE: RECEIVER_CA_FILE,
      WASL_RETRY_DELAYS: RETRY_DELAYS,
      // Short, so that after the SIGKILL the dead process's leases (timeout + 10 s) run out soon.
      WASL_DELIVERY_TIMEOUT: "5s",
      WASL_SMTP_URL: smtp.url(),
      WASL_SMTP_CA_FILE: TEST_CA_FILE,
      // A sender name in Arabic: UTF-8 from the environment to the received header.
      WASL_MAIL_FROM: "\"تنبيهات وصل\" <notices@wasl.test>",
      // The burst writes as fast as the server answers, with one token: no request rate limit.
      WASL_RATE_LIMIT: "0"
    }
    delete e.DATABASE_URL
    delete e.WASL_MAIL_OUTBOX
    return e
  }

  const start = async (name: string) => {
    const p = launch(name, waslMain, [], env())
    await p.waitForStdout(LISTENING, 90_000)
    return p
  }

  /** Webhooks a test made; the plan allows 5, so each test removes its own (`removeWebhooks`). */
  let made: Array<number> = []
  const removeWebhooks = async () => {
    for (const id of made) await api("DELETE", `/api/account/webhooks/${id}`)
    made = []
  }

  /** A webhook on the receiver's `path`, validated and active; the receiver knows its secret. */
  const subscribe = async (path: string, events: ReadonlyArray<string>) => {
    const created = await api("POST", "/api/account/webhooks", { URL: receiver.url(path), events })
    expect(created.status, created.text).toBe(201)
    const { id, secret } = created.body.data
    made.push(id)
    receiver.setSecret(path, secret)
    const validated = await api("POST", `/api/account/webhooks/${id}/validate`)
    expect(validated.status, validated.text).toBe(200)
    expect(validated.body.data.is_validated).toBe(true)
    const activated = await api("PUT", `/api/account/webhooks/${id}/activate`, { is_active: true })
    expect(activated.status, activated.text).toBe(200)
    return { id: id as number, secret: secret as string }
  }

  /** Set by a test whose webhooks the next test goes on with. */
  let keepWebhooks = false
  afterEach(async () => {
    if (keepWebhooks) keepWebhooks = false
    else await removeWebhooks()
  })

  const webhook = async (id: number) => (await api("GET", `/api/account/webhooks/${id}`)).body.data

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-webhooks-"))
    receiver = await startWebhookReceiver()
    smtp = await startSmtpServer()
    port = await freePort()
    wasl = await start("wasl")
    const block = FIRST_RUN.exec(wasl.stdout())
    if (block === null) throw new Error(`no first-run block\n${wasl.output()}`)
    token = block[3]!
    baseUrl = `http://127.0.0.1:${port}`
    api = apiClient(baseUrl, token)
  }, 120_000)

  afterAll(async () => {
    await killAll()
    await receiver?.close()
    await smtp?.close()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  it("every one of the 72 events reaches exactly the webhooks subscribed to it, signed, with the right object key and record", async () => {
    const all = await subscribe("/all", ALL_EVENTS)
    await subscribe("/deals", ALL_EVENTS.filter((e) => e.startsWith("deal-")))
    await subscribe("/ticket-created", ["ticket-created"])
    /** What each event's object must carry: its _id (records live under `properties`). */
    const expected = new Map<string, string>()
    const ok = async (method: string, path: string, body?: unknown) => {
      const reply = await api(method, path, body)
      expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300)
      return reply.body
    }
    for (const kind of KINDS) {
      const base = `/api/${PATHS[kind]}`
      const record = (await ok("POST", base, { [NAME_PROPERTY[kind]]: `${kind} one` })).data
      const recordId: string = record.properties._id
      expected.set(`${kind}-created`, recordId)
      await ok("PUT", `${base}/${recordId}`, { [NAME_PROPERTY[kind]]: `${kind} two` })
      expected.set(`${kind}-updated`, recordId)
      const group = (await ok("POST", `${base}/properties/groups`, { name: { en: `${kind} group` } })).data
      expected.set(`${kind}-property-group-created`, group._id)
      await ok("PUT", `${base}/properties/groups/${group._id}`, { name: { en: `${kind} group 2` } })
      expected.set(`${kind}-property-group-updated`, group._id)
      const property = (await ok("POST", `${base}/properties`, {
        type: "string",
        name: { en: `${kind} source` },
        internal_name: `${kind}_source`,
        group_id: group._id
      })).data
      expected.set(`${kind}-property-created`, property._id)
      await ok("PUT", `${base}/properties/${property._id}`, {
        type: "string",
        name: { en: `${kind} origin` },
        group_id: group._id
      })
      expected.set(`${kind}-property-updated`, property._id)
      const note = (await ok("POST", `${base}/${recordId}/notes`, { body: `a ${kind} note` })).data
      expected.set(`${kind}-note-created`, note._id)
      await ok("PUT", `${base}/${recordId}/notes/${note._id}`, { body: `the ${kind} note` })
      expected.set(`${kind}-note-updated`, note._id)
      await ok("DELETE", `${base}/${recordId}/notes/${note._id}`)
      expected.set(`${kind}-note-deleted`, note._id)
      await ok("DELETE", `${base}/properties/${property._id}`)
      expected.set(`${kind}-property-deleted`, property._id)
      await ok("DELETE", `${base}/properties/groups/${group._id}`)
      expected.set(`${kind}-property-group-deleted`, group._id)
      await ok("DELETE", `${base}/${recordId}`)
      expected.set(`${kind}-deleted`, recordId)
    }
    expect(expected.size).toBe(72)

    await receiver.waitFor(
      () => deliveriesAt(receiver, "/all").length >= 72 && deliveriesAt(receiver, "/deals").length >= 12 &&
        deliveriesAt(receiver, "/ticket-created").length >= 1,
      60_000,
      "72 + 12 + 1 deliveries"
    )
    await sleep(1000) // anything extra would arrive now

    const atAll = deliveriesAt(receiver, "/all")
    expect(atAll.map((r) => r.body.event).sort()).toEqual([...ALL_EVENTS].sort())
    expect(deliveriesAt(receiver, "/deals").map((r) => r.body.event).sort()).toEqual(ALL_EVENTS.filter((e) => e.startsWith("deal-")).sort())
    expect(deliveriesAt(receiver, "/ticket-created").map((r) => r.body.event)).toEqual(["ticket-created"])

    const everything = [...atAll, ...deliveriesAt(receiver, "/deals"), ...deliveriesAt(receiver, "/ticket-created")]
    for (const r of everything) {
      expect(r.verified, `signature of ${r.body?.event}`).toBe(true)
      // Standard Webhooks: the official verifier accepted it; its id is the delivery id.
      expect(r.standardVerified, `webhook-signature of ${r.body?.event}`).toBe(true)
      expect(header(r, "webhook-id")).toBe(deliveryId(r))
      expect(header(r, "webhook-timestamp")).toBe(header(r, "X-Wasl-Timestamp"))
      expect(r.status).toBe(200)
      expect(header(r, "X-Wasl-Event")).toBe(r.body.event)
      expect(header(r, "Content-Type")).toBe("application/json")
      expect(deliveryId(r)).toMatch(UUID)
      const key = objectKey(r.body.event)
      expect(Object.keys(r.body), r.body.event).toEqual(["time", "event", key])
      // time: seconds with microseconds, when the event was queued (just now)
      expect(r.rawBody).toMatch(/^\{"time":\d{10}\.\d{6},/)
      expect(Math.abs(r.body.time * 1000 - r.receivedAt)).toBeLessThan(60_000)
      const object = r.body[key]
      const id = object.properties?._id ?? object._id
      expect(id, r.body.event).toBe(expected.get(r.body.event))
      if (r.body.event.startsWith("contact-") && !r.body.event.includes("property") && !r.body.event.includes("note")) {
        expect(Object.keys(object)).toEqual(expect.arrayContaining(["properties", "channels"]))
      }
    }
    expect(new Set(everything.map(deliveryId)).size).toBe(everything.length)
    // The validation challenges passed the official verifier too.
    const challenges = receiver.received().filter((r) => r.body?.event === "webhook-validation")
    expect(challenges.length).toBeGreaterThanOrEqual(3)
    expect(challenges.every((r) => r.standardVerified && header(r, "webhook-id") === deliveryId(r))).toBe(true)
    // A receiver verifying this way refuses a delivery whose body was altered on the way.
    const sample = atAll[0]!
    const verifier = new Webhook(Buffer.from(all.secret, "utf8").toString("base64"))
    const headers = Object.fromEntries(Object.entries(sample.headers).filter((e): e is [string, string] => typeof e[1] === "string"))
    expect(verifier.verify(sample.rawBody, headers)).toEqual(sample.body)
    expect(() => verifier.verify(sample.rawBody.replace(`"event":"${sample.body.event}"`, `"event":"${sample.body.event}-tampered"`), headers))
      .toThrow(WebhookVerificationError)

    const log = await api("GET", `/api/account/webhooks/${all.id}/deliveries?per_page=100`)
    expect(log.status).toBe(200)
    expect(log.body.meta.total).toBe(72)
    expect(log.body.data.every((d: any) => d.status === "succeeded" && d.attempts.length === 1 && d.attempts[0].status_code === 200))
      .toBe(true)
  }, 180_000)

  let down: { id: number; secret: string }
  let ticketId = ""

  it("a failing endpoint gets 6 attempts under one delivery id; 3 exhausted in a row switch it off and tell the owner", async () => {
    down = await subscribe("/down", ["ticket-updated"])
    keepWebhooks = true // the reactivation test goes on with it
    receiver.setStatus("/down", 500)
    ticketId = (await api("POST", "/api/tickets", { ticket_name: "broken" })).body.data.properties._id
    for (let i = 1; i <= 3; i++) {
      expect((await api("PUT", `/api/tickets/${ticketId}`, { ticket_name: `broken ${i}` })).status).toBe(200)
    }
    await receiver.waitFor(() => deliveriesAt(receiver, "/down").length >= 18, 60_000, "18 attempts at /down")
    await eventually(async () => (await webhook(down.id)).is_active === false, 15_000, "the webhook switched off")
    await sleep(800)

    const attempts = deliveriesAt(receiver, "/down")
    expect(attempts).toHaveLength(18)
    const byDelivery = Map.groupBy(attempts, deliveryId)
    expect(byDelivery.size).toBe(3)
    for (const [, tries] of byDelivery) {
      expect(tries).toHaveLength(6)
      // The same bytes every time; a fresh, verified timestamp each time.
      expect(new Set(tries.map((t) => t.rawBody)).size).toBe(1)
      expect(tries.every((t) => t.verified && t.standardVerified)).toBe(true)
      expect(new Set(tries.map((t) => header(t, "webhook-id")))).toEqual(new Set([deliveryId(tries[0]!)]))
      const stamps = tries.map((t) => Number(header(t, "X-Wasl-Timestamp")))
      expect([...stamps].sort((a, b) => a - b)).toEqual(stamps)
      // attempts are spaced by the retry delays (300 ms)
      for (let i = 1; i < tries.length; i++) expect(tries[i]!.receivedAt - tries[i - 1]!.receivedAt).toBeGreaterThanOrEqual(250)
    }

    const hook = await webhook(down.id)
    expect(hook).toMatchObject({ is_validated: true, is_active: false, consecutive_failures: 3 })
    expect(hook.last_failure_at).toMatch(/Z$/)

    const log = await api("GET", `/api/account/webhooks/${down.id}/deliveries`)
    expect(log.body.data).toHaveLength(3)
    for (const d of log.body.data) {
      expect(d.status).toBe("failed")
      expect(d.next_attempt_at).toBeNull()
      expect(d.attempts.map((a: any) => a.number)).toEqual([1, 2, 3, 4, 5, 6])
      expect(d.attempts.every((a: any) => a.status_code === 500)).toBe(true)
    }

    // The Webhook Deactivated notice: stored (listed, counted unread) and mailed, once.
    const notifications = await api("GET", "/api/notifications")
    const notices = notifications.body.data.filter((n: any) => n.type === "WebhookDeactivated")
    expect(notices).toHaveLength(1)
    expect(JSON.stringify(notices[0].data)).toContain(receiver.url("/down"))
    expect((await api("GET", "/api/me")).body.unread_notifications_count).toBeGreaterThanOrEqual(1)
    // The mail, through the SMTP server: encrypted, authenticated, whole.
    const [mail] = await smtp.waitForMail(1, 15_000)
    expect(mail!.secure).toBe(true)
    expect(mail!.user).toBe(smtp.user)
    expect(mail!.envelope).toEqual({ from: "notices@wasl.test", to: ["admin@localhost"] })
    expect(mail!.parsed.from?.value).toEqual([{ address: "notices@wasl.test", name: "تنبيهات وصل" }])
    expect(mail!.parsed.to).toMatchObject({ value: [{ address: "admin@localhost" }] })
    expect(mail!.parsed.subject).toBe("Webhook deactivated")
    expect(mail!.parsed.text?.trimEnd()).toBe([
      `The webhook ${receiver.url("/down")} was switched off: 3 deliveries in a row failed after using all their attempts.`,
      "",
      "No events are sent to it until it is activated again. Once the endpoint answers, reactivate it with",
      `PUT /api/account/webhooks/${down.id}/activate and the body {"is_active": true}.`
    ].join("\n"))
    expect(Fs.existsSync(Path.join(dir, "data", "mail-outbox.jsonl"))).toBe(false)

    // Switched off: a new event is not sent.
    expect((await api("PUT", `/api/tickets/${ticketId}`, { ticket_name: "still broken" })).status).toBe(200)
    await sleep(1500)
    expect(deliveriesAt(receiver, "/down")).toHaveLength(18)
    // and the notice was mailed once.
    expect(smtp.received().filter((m) => m.parsed.text?.includes(receiver.url("/down")))).toHaveLength(1)
  }, 120_000)

  it("reactivation clears the failure count and deliveries resume", async () => {
    receiver.setStatus("/down", 200)
    const reactivated = await api("PUT", `/api/account/webhooks/${down.id}/activate`, { is_active: true })
    expect(reactivated.status, reactivated.text).toBe(200)
    expect(reactivated.body.data).toMatchObject({ is_active: true, consecutive_failures: 0 })
    expect((await api("PUT", `/api/tickets/${ticketId}`, { ticket_name: "fixed" })).status).toBe(200)
    await receiver.waitFor(() => deliveriesAt(receiver, "/down").length >= 19, 15_000, "the delivery after reactivation")
    const last = deliveriesAt(receiver, "/down").at(-1)!
    expect(last.verified).toBe(true)
    expect(last.status).toBe(200)
    expect(last.body.ticket.properties.ticket_name).toBe("fixed")
  }, 60_000)

  it("a URL change stops deliveries (also pending retries) until the new URL is validated", async () => {
    const hook = await subscribe("/move-old", ["company-updated"])
    receiver.setStatus("/move-old", 500)
    const company = (await api("POST", "/api/companies", { name: "Moving" })).body.data.properties._id
    expect((await api("PUT", `/api/companies/${company}`, { name: "Moving 1" })).status).toBe(200)
    await receiver.waitFor(() => deliveriesAt(receiver, "/move-old").length >= 1, 15_000, "the first attempt at the old URL")

    const changed = await api("PUT", `/api/account/webhooks/${hook.id}`, { URL: receiver.url("/move-new"), events: ["company-updated"] })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body.data).toMatchObject({ is_validated: false, consecutive_failures: 0 })
    const atChange = deliveriesAt(receiver, "/move-old").length
    receiver.setSecret("/move-new", hook.secret)
    expect((await api("PUT", `/api/companies/${company}`, { name: "Moving 2" })).status).toBe(200)
    await sleep(2500)
    // At most the attempt that was already on the wire; no retry, no new event, nothing at the new URL.
    expect(deliveriesAt(receiver, "/move-old").length).toBeLessThanOrEqual(atChange + 1)
    expect(deliveriesAt(receiver, "/move-new")).toHaveLength(0)
    const log = await api("GET", `/api/account/webhooks/${hook.id}/deliveries`)
    expect(log.body.data.every((d: any) => d.status !== "pending")).toBe(true)

    // Validated again (the challenge goes to the new URL): events flow to the new URL.
    expect((await api("POST", `/api/account/webhooks/${hook.id}/validate`)).status).toBe(200)
    expect((await api("PUT", `/api/companies/${company}`, { name: "Moving 3" })).status).toBe(200)
    await receiver.waitFor(
      () => deliveriesAt(receiver, "/move-new").some((r) => r.body.event === "company-updated"),
      15_000,
      "a delivery at the new URL"
    )
    const arrived = deliveriesAt(receiver, "/move-new").filter((r) => r.body.event === "company-updated")
    expect(arrived.map((r) => r.body.company.properties.name)).toEqual(["Moving 3"])
    expect(arrived[0]!.verified).toBe(true)
  }, 60_000)

  it("deleting a webhook stops its deliveries at once", async () => {
    const hook = await subscribe("/gone", ["product-updated"])
    receiver.setStatus("/gone", 503)
    const product = (await api("POST", "/api/products", { name: "Gone" })).body.data.properties._id
    expect((await api("PUT", `/api/products/${product}`, { name: "Gone 1" })).status).toBe(200)
    await receiver.waitFor(() => deliveriesAt(receiver, "/gone").length >= 1, 15_000, "the first attempt")
    expect((await api("DELETE", `/api/account/webhooks/${hook.id}`)).status).toBe(200)
    const atDelete = deliveriesAt(receiver, "/gone").length
    await sleep(2500)
    expect(deliveriesAt(receiver, "/gone").length).toBeLessThanOrEqual(atDelete + 1)
    expect((await api("GET", `/api/account/webhooks/${hook.id}/deliveries`)).status).toBe(404)
  }, 60_000)

  it("SIGKILL during a burst loses no committed event; after the restart each is delivered under its one delivery id", async () => {
    await subscribe("/burst", ["contact-created"])
    const committed = new Set<string>()
    let stop = false
    const create = async (i: number) => {
      try {
        const reply = await api("POST", "/api/contacts", { firstname: `Burst ${i}` })
        if (reply.status === 201) committed.add(reply.body.data.properties._id)
      } catch {
        // the process was killed under this request: it may or may not have committed
      }
    }
    // 8 clients creating contacts as fast as the server answers; SIGKILL once deliveries flow.
    let next = 0
    const clients = Array.from({ length: 8 }, async () => {
      while (!stop && next < 400) await create(next++)
    })
    await receiver.waitFor(() => deliveriesAt(receiver, "/burst").length >= 40, 60_000, "the burst's first deliveries")
    wasl.child.kill("SIGKILL")
    const killed = await exitWithin(wasl, 10_000)
    expect(killed.signal).toBe("SIGKILL")
    stop = true
    await Promise.all(clients)
    const deliveredBeforeKill = new Set(deliveriesAt(receiver, "/burst").map((r) => r.body.contact.properties._id))
    expect(committed.size).toBeGreaterThan(deliveredBeforeKill.size) // the kill left work undone

    wasl = await start("wasl (after SIGKILL)")
    expect(wasl.stdout()).not.toContain("first account created")
    await receiver.waitFor(
      () => {
        const seen = new Set(deliveriesAt(receiver, "/burst").map((r) => r.body.contact.properties._id))
        return [...committed].every((id) => seen.has(id))
      },
      60_000,
      `all ${committed.size} committed contacts delivered`
    )
    const received = deliveriesAt(receiver, "/burst")
    expect(received.every((r) => r.verified)).toBe(true)
    // At-least-once: an event may arrive twice (its attempt was on the wire at the kill), but always
    // under the same delivery id, which is the receiver's idempotency key.
    const idsByContact = Map.groupBy(received, (r) => r.body.contact.properties._id as string)
    for (const [, copies] of idsByContact) expect(new Set(copies.map(deliveryId)).size).toBe(1)
  }, 180_000)

  it("stops cleanly on SIGTERM", async () => {
    wasl.child.kill("SIGTERM")
    const exit = await exitWithin(wasl, 30_000)
    expect(exit, wasl.output()).toEqual({ code: 0, signal: null })
  }, 40_000)
})
