/**
 * `GET /metrics` over real sockets, parsed by a Prometheus text-format parser: the request counter
 * by route template (never the raw path) and status, the duration histogram, the delivery backlog
 * gauges read from each database, and the bearer token when one is set (401 without it). Its labels
 * stay a fixed set whatever methods and paths callers send; a scrape costs a few milliseconds on a
 * server that answered every route; an unauthenticated scrape counts against the caller limit per
 * client address.
 */
import { Duration } from "effect"
import { PrometheusMetrics } from "effect/observability"
import parsePrometheusTextFormat, { type Family, type Sample } from "parse-prometheus-text-format"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { prometheusText } from "../src/prometheus-text.ts"
import type { Reply } from "./support/client.ts"
import { roomInWindow } from "./support/rate-window.ts"
import { requestFrom } from "./support/request-from.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const TOKEN = "metrics-token-for-tests"

const scrapeText = async (server: TestServer, token: string | undefined = TOKEN): Promise<string> => {
  const reply = await server.request("GET", "/metrics", token === undefined ? {} : { token })
  expect(reply.status).toBe(200)
  expect(reply.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
  return reply.text
}

const scrape = async (server: TestServer, token?: string): Promise<ReadonlyArray<Family>> =>
  parsePrometheusTextFormat(await scrapeText(server, token))

/**
 * The `_count` of one labelled histogram series. Read from its line: the parser folds the series
 * of a labelled histogram into one (it keeps `_count` and `_sum` only for unlabelled ones).
 */
const histogramCount = (text: string, name: string, labels: string): number =>
  Number(new RegExp(`^${name}_count\\{${labels.replace(/[/:]/g, "\\$&")}\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0)

const family = (families: ReadonlyArray<Family>, name: string): Family | undefined => families.find((f) => f.name === name)

/** The sample of `name` whose labels include `labels`. */
const sample = (families: ReadonlyArray<Family>, name: string, labels: Record<string, string>): Sample | undefined =>
  family(families, name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))

const counterValue = (families: ReadonlyArray<Family>, labels: Record<string, string>): number =>
  Number(sample(families, "wasl_http_requests_total", labels)?.value ?? 0)

describe.each(DATABASES)("GET /metrics (%s)", (database) => {
  let server: TestServer
  let token: string
  beforeAll(async () => {
    server = await startTestServer(database, { metricsToken: TOKEN })
    token = (await server.bootstrap({ email: `metrics-${database}@example.test`, password: "pw-metrics" })).token
  })
  afterAll(() => server.close())

  it("counts requests by route template and status, with their durations", async () => {
    const labels = { method: "GET", route: "/api/:kind/:id", status: "404" }
    const series = 'method="GET",route="/api/:kind/:id"'
    const beforeText = await scrapeText(server)
    const counted = counterValue(parsePrometheusTextFormat(beforeText), labels)
    const timed = histogramCount(beforeText, "wasl_http_request_duration_seconds", series)
    for (const id of [987654, 987655]) {
      expect((await server.request("GET", `/api/contacts/${id}`, { token })).status).toBe(404)
    }
    expect((await server.request("GET", "/no/such/path")).status).toBe(404)

    const afterText = await scrapeText(server)
    const after = parsePrometheusTextFormat(afterText)
    const requests = family(after, "wasl_http_requests_total")
    expect(requests?.type).toBe("COUNTER")
    expect(counterValue(after, labels)).toBe(counted + 2)
    expect(counterValue(after, { method: "GET", route: "unmatched", status: "404" })).toBeGreaterThanOrEqual(1)
    // The raw paths never become labels.
    expect(requests?.metrics.some((m) => /987654|\/no\/such/.test(m.labels?.["route"] ?? ""))).toBe(false)
    const durations = family(after, "wasl_http_request_duration_seconds")
    expect(durations?.type).toBe("HISTOGRAM")
    expect(histogramCount(afterText, "wasl_http_request_duration_seconds", series)).toBe(timed + 2)
  })

  it("reports the delivery backlog read from the database", async () => {
    const created = await server.request("POST", "/api/contacts", { token, body: { firstname: "Backlog" } })
    expect(created.status).toBe(201)
    const [{ pending }] = await server.query("SELECT count(*)::int AS pending FROM outbox_events")
    expect(pending).toBeGreaterThanOrEqual(1)
    const families = await scrape(server)
    expect(family(families, "wasl_outbox_events")?.type).toBe("GAUGE")
    expect(Number(sample(families, "wasl_outbox_events", {})?.value)).toBe(pending)
    expect(Number(sample(families, "wasl_deliveries_due", {})?.value)).toBe(0)
    expect(Number(sample(families, "wasl_deliveries_oldest_due_seconds", {})?.value)).toBe(0)
  })

  it("answers 401 without the token or with another, in constant time", async () => {
    for (const options of [{}, { token: "wrong" }, { token: TOKEN + "x" }, { headers: { authorization: TOKEN } }]) {
      const reply = await server.request("GET", "/metrics", options)
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual({ message: "Unauthenticated." })
      expect(reply.text).not.toContain("wasl_")
    }
  })
})

describe("GET /metrics without a token", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(DATABASES[0]!)
  })
  afterAll(() => server.close())

  it("is open by default", async () => {
    expect((await server.request("GET", "/health/live")).status).toBe(200)
    const families = await scrape(server, undefined)
    expect(counterValue(families, { method: "GET", route: "/health/live", status: "200" })).toBeGreaterThanOrEqual(1)
  })
})

/** The label sets of every sample of a scrape, one text each (`name{labels}`), sorted. */
const labelSets = (families: ReadonlyArray<Family>): ReadonlyArray<string> =>
  families.flatMap((f) =>
    f.metrics.map((m) =>
      `${f.name}{${Object.entries(m.labels ?? {}).map(([k, v]) => `${k}=${v}`).sort().join(",")}}`
    )
  ).sort()

/** The methods the request metrics name; any other is counted as `other`. */
const METHOD_LABELS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"]

/** Methods Node's HTTP parser accepts beside the API's own: each reaches the server's 404 or 405. */
const ODD_METHODS = [
  "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "SEARCH", "REPORT", "MKACTIVITY",
  "CHECKOUT", "MERGE", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PURGE", "LINK", "UNLINK", "ACL", "BIND",
  "REBIND", "UNBIND", "MKCALENDAR", "QUERY"
]

describe("GET /metrics labels", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(DATABASES[0]!)
  })
  afterAll(() => server.close())

  it("stay a fixed set whatever methods and unmatched paths callers send", async () => {
    const random = (n: number) => Math.floor(Math.random() * n)
    // One request of each kind first: the series the random ones below may add to.
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"]) {
      expect((await server.request(method, "/first/unmatched")).status).toBe(404)
    }
    expect((await server.request("PROPFIND", "/api/me")).status).toBe(405)
    const beforeText = await scrapeText(server, undefined)
    const before = parsePrometheusTextFormat(beforeText)

    for (let i = 0; i < 200; i++) {
      const pool = i % 2 === 0 ? ODD_METHODS : METHOD_LABELS.slice(0, 7)
      const method = pool[random(pool.length)]!
      const path = i % 10 === 0 ? "/api/me" : `/x${random(1e9)}/${random(1e9)}?q=${random(1e9)}`
      const reply = await server.request(method, path)
      expect(reply.status).toBe(path === "/api/me" ? (method === "GET" || method === "HEAD" ? 401 : 405) : 404)
    }
    const afterText = await scrapeText(server, undefined)
    const after = parsePrometheusTextFormat(afterText)

    expect(labelSets(after)).toEqual(labelSets(before))
    const methods = new Set(family(after, "wasl_http_requests_total")?.metrics.map((m) => m.labels?.["method"]))
    expect([...methods].every((method) => METHOD_LABELS.includes(method!))).toBe(true)
    expect(counterValue(after, { method: "other", route: "unmatched", status: "404" })).toBeGreaterThan(50)
    // Only counts changed: a few digits more at most.
    expect(afterText.length - beforeText.length).toBeLessThan(200)
  })
})

/**
 * One request to every operation of the OpenAPI document (path parameters filled in), with the
 * token and without, `rounds` times: every route's series under the statuses it usually answers.
 * The scrape's size depends on the series, not on how often each was counted.
 */
const requestEveryRoute = async (server: TestServer, token: string, rounds: number): Promise<number> => {
  const document = (await server.request("GET", "/api/openapi.json")).body
  const operations: Array<readonly [string, string]> = []
  for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
    for (const method of Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))) {
      // The notification stream stays open; deleting a token could revoke the one used here.
      if (path.endsWith("/stream") || (method === "delete" && path.startsWith("/api/tokens"))) continue
      operations.push([method.toUpperCase(), path.replace("{kind}", "contacts").replace(/\{[^}]+\}/g, "1")])
    }
  }
  let sent = 0
  for (let round = 0; round < rounds; round++) {
    for (const [method, path] of operations) {
      const body = method === "GET" ? {} : { body: {} }
      await Promise.all([
        server.request(method, path, { token, ...body }),
        server.request(method, path, body),
        server.request(method, `${path}/unrouted-${round}`, { token })
      ])
      sent += 3
    }
  }
  return sent
}

const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** The CPU milliseconds `count` runs of `run` take, one after the other. */
const cpuMillis = async (count: number, run: () => Promise<unknown>): Promise<number> => {
  const started = process.cpuUsage()
  for (let i = 0; i < count; i++) await run()
  const { system, user } = process.cpuUsage(started)
  return (user + system) / 1000
}

describe("GET /metrics cost", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(DATABASES[0]!)
  })
  afterAll(() => server.close())

  it("is a few milliseconds a scrape once every route has been answered", async () => {
    const { token } = await server.bootstrap({ email: "cost@example.test", password: "pw-cost" })
    const sent = await requestEveryRoute(server, token, 3)
    const size = (await scrapeText(server, undefined)).length
    expect(size).toBeGreaterThan(90_000)
    const times: Array<number> = []
    for (let i = 0; i < 50; i++) {
      const started = performance.now()
      await scrapeText(server, undefined)
      times.push(performance.now() - started)
    }
    // The text itself, against Effect's exporter on the same registry, turn about: each is slowed
    // alike by whatever else the machine runs.
    let ours = 0
    let effects = 0
    for (let turn = 0; turn < 5; turn++) {
      ours += await cpuMillis(20, () => server.run(prometheusText))
      effects += await cpuMillis(20, () => server.run(PrometheusMetrics.format()))
    }
    console.log(
      `after ${sent} requests: a scrape of ${size} bytes in ${median(times).toFixed(2)} ms (median of 50); ` +
        `its text ${(ours / 100).toFixed(3)} ms of CPU, Effect's exporter's ${(effects / 100).toFixed(3)} ms`
    )
    expect(median(times)).toBeLessThan(25)
    expect(ours * 3).toBeLessThan(effects)
  }, 120_000)
})

/** `GET /metrics` sent from the loopback address `from` (127.0.0.0/8 all reach the server on Linux). */
const scrapeFrom = (server: TestServer, from: string, headers: Record<string, string> = {}): Promise<Reply> =>
  requestFrom("GET", `${server.url}/metrics`, { from, headers })

const expectTooMany = (reply: Reply, limit: number) => {
  expect(reply.status).toBe(429)
  expect(reply.body).toEqual({ message: "Too Many Attempts." })
  expect(reply.headers.get("ratelimit-limit")).toBe(String(limit))
  expect(reply.headers.get("ratelimit-remaining")).toBe("0")
  const retryAfter = Number(reply.headers.get("retry-after"))
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(reply.text).not.toContain("wasl_")
}

describe.each(DATABASES)("GET /metrics rate limit (%s)", (database) => {
  const LIMIT = 20
  let open: TestServer
  let guarded: TestServer
  beforeAll(async () => {
    const rateLimits = { caller: { limit: LIMIT, window: Duration.minutes(1) } }
    open = await startTestServer(database, { rateLimits, trustedProxies: "127.0.0.30" })
    guarded = await startTestServer(database, { rateLimits: { caller: { limit: 3, window: Duration.minutes(1) } }, metricsToken: TOKEN })
  })
  afterAll(async () => {
    await open?.close()
    await guarded?.close()
  })
  // The burst takes a few seconds, all of it in one window of the caller limit.
  beforeEach(() => roomInWindow(Duration.seconds(15)))

  it("counts unauthenticated scrapes per client address against the caller limit, and GET /api/me stays fast", async () => {
    const { token } = await open.bootstrap({ email: `scrape-burst-${database}@example.test`, password: "pw-burst" })
    const me: Array<number> = []
    let bursting = true
    const watch = (async () => {
      // At most 10: the caller limit counts the token's requests too.
      while (bursting && me.length < 10) {
        const started = performance.now()
        expect((await open.request("GET", "/api/me", { token })).status).toBe(200)
        me.push(performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    const replies: Array<Reply> = []
    let next = 0
    await Promise.all(Array.from({ length: 20 }, async () => {
      while (next++ < 300) replies.push(await scrapeFrom(open, "127.0.0.41"))
    }))
    bursting = false
    await watch

    const answered = replies.filter((reply) => reply.status === 200)
    expect(answered).toHaveLength(LIMIT)
    expect(answered.every((reply) => reply.text.includes("wasl_http_requests_total"))).toBe(true)
    const refused = replies.filter((reply) => reply.status !== 200)
    expect(refused).toHaveLength(300 - LIMIT)
    for (const reply of refused) expectTooMany(reply, LIMIT)
    expect(me.length).toBeGreaterThan(0)
    console.log(`GET /api/me during the burst: median ${median(me).toFixed(1)} ms, max ${Math.max(...me).toFixed(1)} ms`)
    // A refused scrape costs its count alone (one statement): twenty in flight hold the API back
    // tens of milliseconds on this machine, not seconds.
    expect(median(me)).toBeLessThan(250)

    // Another address has a count of its own.
    const other = await scrapeFrom(open, "127.0.0.42")
    expect(other.status).toBe(200)
    expect(other.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 1))
  }, 60_000)

  it("takes the client address from X-Forwarded-For only behind a trusted proxy", async () => {
    const forwarded = (from: string, client: string) => scrapeFrom(open, from, { "x-forwarded-for": `198.51.100.1, ${client}` })
    for (let i = 0; i < LIMIT; i++) expect((await forwarded("127.0.0.30", "203.0.113.1")).status).toBe(200)
    expectTooMany(await forwarded("127.0.0.30", "203.0.113.1"), LIMIT)
    expect((await forwarded("127.0.0.30", "203.0.113.2")).status).toBe(200)
    // From anyone else the header is ignored: changing it does not escape the peer's count.
    for (let i = 0; i < LIMIT; i++) expect((await forwarded("127.0.0.31", `203.0.113.${10 + i}`)).status).toBe(200)
    expectTooMany(await forwarded("127.0.0.31", "203.0.113.99"), LIMIT)
  })

  it("leaves a scrape with the metrics token unlimited, and counts the refused ones", async () => {
    for (let i = 0; i < 6; i++) {
      const reply = await scrapeFrom(guarded, "127.0.0.51", { authorization: `Bearer ${TOKEN}` })
      expect(reply.status).toBe(200)
      expect(reply.headers.get("ratelimit-limit")).toBeNull()
    }
    for (let i = 0; i < 3; i++) {
      const reply = await scrapeFrom(guarded, "127.0.0.52", i === 0 ? {} : { authorization: "Bearer wrong" })
      expect(reply.status).toBe(401)
      expect(reply.headers.get("ratelimit-remaining")).toBe(String(2 - i))
    }
    expectTooMany(await scrapeFrom(guarded, "127.0.0.52", { authorization: "Bearer wrong" }), 3)
    // The right token still passes from that address.
    expect((await scrapeFrom(guarded, "127.0.0.52", { authorization: `Bearer ${TOKEN}` })).status).toBe(200)
  })
})
