/**
 * Traces end to end: `npm start` (apps/wasl: HTTP server and delivery worker in one process,
 * embedded database) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP collector
 * (a node:http server here, taking the JSON encoding asked for with OTEL_EXPORTER_OTLP_PROTOCOL).
 * A `POST /api/contacts` is one trace: the server span, the use-case span and the SQL spans under
 * it; the webhook delivery it causes is an attempt span naming the delivery, in the same trace,
 * under the span that committed the event; the JSON log lines
 * written in the request carry its trace id. Health probes, metrics scrapes and the worker's polling
 * make no traces.
 *
 * Black box: this file imports nothing from the workspace.
 */
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiClient, eventually, freePort, killAll, launch, type Launched, waslMain } from "./support/processes.ts"
import { RECEIVER_CA_FILE, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.ts"

const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/
const FIRST_RUN = /first account created\.\n\s*owner:\s*(\S+)\n\s*password:\s*(\S+)\n\s*token:\s*(\S+)\n/

interface Span {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string | undefined
  readonly name: string
  readonly kind: number
  readonly attributes: Record<string, unknown>
}

/** The OTLP JSON `AnyValue` as a plain value (strings, numbers, booleans are all the spans hold here). */
const plain = (value: Record<string, unknown>): unknown =>
  value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.doubleValue ?? value.boolValue

/** A local OTLP/HTTP collector: every span of every `POST /v1/traces` JSON body, with its resource's service name. */
const startCollector = async () => {
  const spans: Array<Span & { readonly service: unknown }> = []
  const paths: Array<string> = []
  const server = Http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      paths.push(`${req.method} ${req.url} ${req.headers["content-type"]} ${req.headers["x-collector-key"]}`)
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      for (const resourceSpans of body.resourceSpans) {
        const resource = Object.fromEntries(resourceSpans.resource.attributes.map((a: any) => [a.key, plain(a.value)]))
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              ...span,
              service: resource["service.name"],
              attributes: Object.fromEntries(span.attributes.map((a: any) => [a.key, plain(a.value)]))
            })
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

describe("traces (npm start with OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  let dir = ""
  let collector: Awaited<ReturnType<typeof startCollector>>
  let receiver: WebhookReceiver
  let wasl: Launched
  let api: ReturnType<typeof apiClient>

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-traces-"))
    collector = await startCollector()
    receiver = await startWebhookReceiver()
    const port = await freePort()
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      WASL_DATA_DIR: Path.join(dir, "data"),
      HOST: "127.0.0.1",
      PORT: String(port),
      WASL_LOG_FORMAT: "json",
      WASL_WEBHOOK_ALLOW_PRIVATE: "true",
      WASL_WEBHOOK_CA_FILE: RECEIVER_CA_FILE,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=s%20ecret",
      OTEL_SERVICE_NAME: "wasl-traced"
    }
    delete env.DATABASE_URL
    delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
    wasl = launch("wasl", waslMain, [], env)
    await wasl.waitForStdout(LISTENING, 90_000)
    api = apiClient(`http://127.0.0.1:${port}`, FIRST_RUN.exec(wasl.stdout())![3]!)
  }, 120_000)

  afterAll(async () => {
    await killAll()
    await receiver?.close()
    await collector?.close()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  })

  it("exports a request's server span with its use-case and SQL spans, the delivery attempt span under them, and logs the trace id", async () => {
    const created = await api("POST", "/api/account/webhooks", { URL: receiver.url("/traced"), events: ["contact-created"] })
    expect(created.status, created.text).toBe(201)
    receiver.setSecret("/traced", created.body.data.secret)
    expect((await api("POST", `/api/account/webhooks/${created.body.data.id}/validate`)).status).toBe(200)
    expect((await api("PUT", `/api/account/webhooks/${created.body.data.id}/activate`, { is_active: true })).status).toBe(200)

    // Probes and scrapes, which come every few seconds, make no traces.
    expect((await api("GET", "/health/live")).status).toBe(200)
    expect((await api("GET", "/metrics")).status).toBe(200)

    const contact = await api("POST", "/api/contacts", { firstname: "Traced", email: "traced@example.test" })
    expect(contact.status, contact.text).toBe(201)

    // The request: a server span (kind 2), and under it the use case and the SQL.
    const serverSpan = () =>
      collector.spans.find((s) => s.kind === 2 && s.attributes["url.path"] === "/api/contacts" && s.attributes["http.request.method"] === "POST")
    await eventually(() => serverSpan() !== undefined, 10_000, "the server span of POST /api/contacts")
    const request = serverSpan()!
    expect(request.service).toBe("wasl-traced")
    expect(request.attributes["http.response.status_code"]).toBe(201)
    const inTrace = () => collector.spans.filter((s) => s.traceId === request.traceId)
    const byId = () => new Map(inTrace().map((s) => [s.spanId, s]))
    /** Whether `span`'s parents lead up to the request's server span. */
    const underRequest = (span: Span) => {
      const spans = byId()
      for (let at: Span | undefined = span; at !== undefined; at = at.parentSpanId ? spans.get(at.parentSpanId) : undefined) {
        if (at.spanId === request.spanId) return true
      }
      return false
    }
    await eventually(
      () => inTrace().some((s) => s.name === "createRecord" && underRequest(s)),
      5_000,
      "the createRecord span under the request"
    )
    const sql = inTrace().filter((s) => typeof s.attributes["db.query.text"] === "string")
    expect(sql.length, JSON.stringify(inTrace().map((s) => s.name))).toBeGreaterThan(0)
    expect(sql.every(underRequest)).toBe(true)
    expect(sql.some((s) => /INSERT INTO/i.test(String(s.attributes["db.query.text"])))).toBe(true)

    // The delivery it caused: an attempt span naming the delivery the receiver got.
    await receiver.waitFor((all) => all.some((r) => r.path === "/traced" && r.body?.event === "contact-created"), 10_000)
    const delivered = receiver.received("/traced").find((r) => r.body?.event === "contact-created")!
    const deliveryId = String(delivered.headers["x-wasl-delivery"])
    const attemptSpan = () => collector.spans.find((s) => s.name === "webhook.delivery.attempt" && s.attributes["wasl.delivery.id"] === deliveryId)
    await eventually(() => attemptSpan() !== undefined, 10_000, "the delivery attempt span")
    // In the request's trace: its parents lead up to the server span (through the span that
    // committed the event, which the outbox kept).
    expect(attemptSpan()!.traceId).toBe(request.traceId)
    expect(attemptSpan()!.parentSpanId).toBeTruthy()
    await eventually(() => underRequest(attemptSpan()!), 5_000, "the attempt span under the request's server span")
    expect(attemptSpan()!.attributes).toMatchObject({
      "wasl.event.name": "contact-created",
      "wasl.webhook.id": created.body.data.id,
      "wasl.delivery.attempt": 1,
      "wasl.delivery.outcome": "Succeeded",
      "http.response.status_code": 200
    })

    // The access log line of the request carries its trace id.
    const accessLine = wasl.stdout().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
      .find((entry) => entry.message === "request" && entry.annotations.path === "/api/contacts" && entry.annotations.method === "POST")
    expect(accessLine?.annotations.trace_id).toBe(request.traceId)
    expect(byId().has(accessLine.annotations.span_id)).toBe(true)

    expect(collector.spans.filter((s) => /^\/(health|metrics)/.test(String(s.attributes["url.path"])))).toEqual([])
    // The worker's polling (a fan-out every second) makes no traces of its own.
    expect(collector.spans.filter((s) => ["fanOutEvents", "recordAttempts", "pruneExpired"].includes(s.name))).toEqual([])

    // JSON bodies, with the headers of OTEL_EXPORTER_OTLP_HEADERS.
    expect(collector.paths.every((p) => p === "POST /v1/traces application/json s ecret")).toBe(true)
  }, 60_000)
})
