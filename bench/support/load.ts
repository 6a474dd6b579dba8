/**
 * The benchmarks' closed-loop load generator: `concurrency` keep-alive connections on loopback,
 * each with one request in flight, through an `undici` `Pool` (installed with
 * @effect/platform-node), or a `node:http` keep-alive `Agent` when undici is missing. Every reply
 * must be 200, else the load fails.
 */
import * as Http from "node:http"
import { performance } from "node:perf_hooks"
import { cpuSeconds } from "./cpu.ts"
import { intFromEnv } from "./env.ts"
import { ms } from "./table.ts"

/** One request of a load: a `GET` without a body, or a write with a JSON body; `headers` beside the sender's. */
export interface LoadRequest {
  readonly method: "GET" | "POST" | "PUT"
  readonly path: string
  readonly body?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** The headers of one request: the sender's, its own, and the JSON content type when it has a body. */
const headersOf = (headers: Record<string, string>, request: LoadRequest): Record<string, string> =>
  request.body === undefined && request.headers === undefined
    ? headers
    : { ...headers, ...(request.body === undefined ? {} : { "content-type": "application/json" }), ...request.headers }

export interface Sender {
  readonly name: string
  /** One request; resolves with the status and the body size once the body is read. */
  readonly send: (request: LoadRequest) => Promise<{ readonly status: number; readonly bytes: number; readonly text: () => string }>
  readonly close: () => Promise<void>
}

/** The part of undici's API used here. */
interface UndiciModule {
  readonly Pool: new(origin: string, options: {
    readonly connections: number
    readonly pipelining: number
    readonly headersTimeout: number
    readonly bodyTimeout: number
  }) => {
    request(options: {
      readonly path: string
      readonly method: LoadRequest["method"]
      readonly headers: Record<string, string>
      readonly body?: string | undefined
    }): Promise<{
      readonly statusCode: number
      readonly body: { arrayBuffer(): Promise<ArrayBuffer> }
    }>
    close(): Promise<void>
  }
}

const loadUndici = async (): Promise<UndiciModule | undefined> => {
  const specifier = "undici"
  try {
    const module = (await import(specifier)) as Partial<UndiciModule>
    return typeof module.Pool === "function" ? (module as UndiciModule) : undefined
  } catch {
    return undefined
  }
}

export const makeSender = async (origin: string, headers: Record<string, string>, connections: number): Promise<Sender> => {
  const undici = await loadUndici()
  if (undici !== undefined) {
    const pool = new undici.Pool(origin, { connections, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 })
    return {
      name: "undici Pool",
      send: async (request) => {
        const { body, statusCode } = await pool.request({
          path: request.path,
          method: request.method,
          headers: headersOf(headers, request),
          body: request.body
        })
        const bytes = Buffer.from(await body.arrayBuffer())
        return { status: statusCode, bytes: bytes.byteLength, text: () => bytes.toString("utf8") }
      },
      close: () => pool.close()
    }
  }
  const agent = new Http.Agent({ keepAlive: true, maxSockets: connections })
  return {
    name: "node:http Agent",
    send: (load) =>
      new Promise((resolve, reject) => {
        const { body, method, path } = load
        const request = Http.request(`${origin}${path}`, {
          agent,
          method,
          headers: headersOf(headers, load),
          timeout: 10_000
        }, (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () => {
            const all = Buffer.concat(chunks)
            resolve({ status: response.statusCode ?? 0, bytes: all.byteLength, text: () => all.toString("utf8") })
          })
          response.on("error", reject)
        })
        request.on("timeout", () => request.destroy(new Error("request timed out")))
        request.on("error", reject)
        request.end(body)
      }),
    close: async () => agent.destroy()
  }
}

export interface Figures {
  readonly requests: number
  readonly seconds: number
  readonly perSecond: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  /** The size of the last body read. */
  readonly bytes: number
  /**
   * The server's CPU time per request over the measured requests (user + system, µs), when its
   * process was named and `/proc` could be read: what a request costs the server whatever else
   * shares the machine, where requests per second also measure the neighbours.
   */
  readonly cpuMicros?: number | undefined
  /** Every measured request's latency (ms), sorted: what puts the rounds of one server together. */
  readonly latencies: Float64Array
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: Float64Array, p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!

/**
 * `total` requests (the i-th `requestOf(i)`) over `concurrency` loops, each with one request in
 * flight; each answer must have the `expected` status (`onAnswer` sees it, e.g. to keep an id).
 */
export const loadRequests = async (
  sender: Sender,
  total: number,
  concurrency: number,
  requestOf: (i: number) => LoadRequest,
  expected = 200,
  onAnswer: (i: number, text: () => string) => void = () => {}
): Promise<Figures> => {
  const latencies = new Float64Array(total)
  let next = 0
  let bytes = 0
  const loop = async () => {
    for (let i = next++; i < total; i = next++) {
      const request = requestOf(i)
      const started = performance.now()
      const reply = await sender.send(request)
      latencies[i] = performance.now() - started
      if (reply.status !== expected) {
        throw new Error(`request ${i} (${request.method} ${request.path}): status ${reply.status}: ${reply.text().slice(0, 500)}`)
      }
      onAnswer(i, reply.text)
      bytes = reply.bytes
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, loop))
  return figuresOf(latencies.sort(), (performance.now() - started) / 1000, bytes)
}

/**
 * `total` requests (the i-th `requestOf(i)`) sent at `perSecond`, open loop: each goes out at its
 * time whatever the answers before it, and its latency counts from that time (a request that waits
 * for a free connection is late by that wait), so a server falling behind shows in the latencies
 * instead of slowing the load. Each answer must have the `expected` status.
 */
export const openLoopRequests = async (
  sender: Sender,
  total: number,
  perSecond: number,
  requestOf: (i: number) => LoadRequest,
  expected = 200
): Promise<Figures> => {
  const latencies = new Float64Array(total)
  const interval = 1000 / perSecond
  const started = performance.now()
  let bytes = 0
  let failure: unknown
  const inFlight: Array<Promise<void>> = []
  for (let i = 0; i < total && failure === undefined; i++) {
    const due = started + i * interval
    const wait = due - performance.now()
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    const request = requestOf(i)
    inFlight.push(sender.send(request).then((reply) => {
      latencies[i] = performance.now() - due
      if (reply.status !== expected) {
        throw new Error(`request ${i} (${request.method} ${request.path}): status ${reply.status}: ${reply.text().slice(0, 500)}`)
      }
      bytes = reply.bytes
    }).catch((error: unknown) => {
      failure ??= error
    }))
  }
  await Promise.all(inFlight)
  if (failure !== undefined) throw failure
  return figuresOf(latencies.sort(), (performance.now() - started) / 1000, bytes)
}

/** The figures of requests whose sorted `latencies` took `seconds` in all. */
const figuresOf = (latencies: Float64Array, seconds: number, bytes: number, cpuMicros?: number): Figures => ({
  requests: latencies.length,
  seconds,
  perSecond: latencies.length / seconds,
  p50: percentile(latencies, 50),
  p95: percentile(latencies, 95),
  p99: percentile(latencies, 99),
  bytes,
  cpuMicros,
  latencies
})

/**
 * Consecutive loads of one server as one load: their requests, time and CPU time summed, their
 * latencies merged (the percentiles are the whole load's).
 */
export const combineFigures = (parts: ReadonlyArray<Figures>): Figures => {
  const latencies = new Float64Array(parts.reduce((n, part) => n + part.requests, 0))
  let offset = 0
  for (const part of parts) {
    latencies.set(part.latencies, offset)
    offset += part.requests
  }
  const seconds = parts.reduce((total, part) => total + part.seconds, 0)
  const cpuKnown = parts.every((part) => part.cpuMicros !== undefined)
  const cpuMicros = cpuKnown ? parts.reduce((total, part) => total + part.cpuMicros! * part.requests, 0) / latencies.length : undefined
  return figuresOf(latencies.sort(), seconds, parts.at(-1)?.bytes ?? 0, cpuMicros)
}

/**
 * `step(target, round)` for every target, `rounds` times over, the targets' order rotated each
 * round. Servers measured one after the other can land on either side of a change in the
 * machine's speed (this VM's moved by half within a minute, bench/README.md); servers measured in
 * alternation share it, and their ratio holds.
 */
export const alternate = async <T>(
  targets: ReadonlyArray<T>,
  rounds: number,
  step: (target: T, round: number) => Promise<void>
): Promise<void> => {
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < targets.length; k++) await step(targets[(k + round) % targets.length]!, round)
  }
}

/** Round `round`'s share of `total` requests split into `rounds` rounds (the first ones take the rest). */
export const roundShare = (total: number, rounds: number, round: number): number =>
  Math.floor(total / rounds) + (round < total % rounds ? 1 : 0)

/** `total` `GET`s (the i-th to `pathOf(i)`), each answered 200. */
export const load = (sender: Sender, total: number, concurrency: number, pathOf: (i: number) => string): Promise<Figures> =>
  loadRequests(sender, total, concurrency, (i) => ({ method: "GET", path: pathOf(i) }))

export interface LoadSettings {
  readonly requests: number
  readonly warmup: number
  readonly concurrency: number
  /** The measured requests are given in this many rounds, alternating between the servers. */
  readonly rounds: number
}

/** `BENCH_ROUNDS`: how many alternating rounds a comparison's measured requests are split into. */
export const roundsFromEnv = (): number => intFromEnv("BENCH_ROUNDS", 4, 1)

/** `figures` of a load, with the CPU time process `pid` spent on it per request. */
export const withServerCpu = async (pid: number | undefined, run: () => Promise<Figures>): Promise<Figures> => {
  const before = cpuSeconds(pid)
  const figures = await run()
  const after = cpuSeconds(pid)
  return before === undefined || after === undefined
    ? figures
    : { ...figures, cpuMicros: ((after - before) * 1e6) / figures.requests }
}

/** A server under load: where it listens, and its process for its CPU time. */
export interface LoadTarget {
  readonly origin: string
  readonly pid?: number | undefined
}

/**
 * The same load on each of `targets`, each through a sender of its own: every server's warm-up,
 * then the measured requests in `settings.rounds` alternating rounds (`alternate`); each server's
 * figures, with its CPU time per request when its `pid` is known, in the order of `targets`.
 */
export const measureAlternating = async (
  targets: ReadonlyArray<LoadTarget>,
  headers: Record<string, string>,
  settings: LoadSettings,
  pathOf: (i: number) => string
): Promise<ReadonlyArray<{ readonly client: string; readonly figures: Figures }>> => {
  const senders: Array<Sender> = []
  try {
    for (const target of targets) senders.push(await makeSender(target.origin, headers, settings.concurrency))
    if (settings.warmup > 0) {
      for (const sender of senders) await load(sender, settings.warmup, settings.concurrency, pathOf)
    }
    const parts = targets.map((): Array<Figures> => [])
    await alternate(targets.map((_, k) => k), settings.rounds, async (k, round) => {
      const requests = roundShare(settings.requests, settings.rounds, round)
      parts[k]!.push(await withServerCpu(targets[k]!.pid, () => load(senders[k]!, requests, settings.concurrency, pathOf)))
    })
    return targets.map((_, k) => ({ client: senders[k]!.name, figures: combineFigures(parts[k]!) }))
  } finally {
    await Promise.all(senders.map((sender) => sender.close()))
  }
}

/** A figure's CPU per request for a table cell ("–" when unknown). */
export const cpuCell = (figures: Figures): string => figures.cpuMicros === undefined ? "–" : figures.cpuMicros.toFixed(0)

/** How many times `a`'s CPU per request `b`'s is, for a table cell ("–" when either is unknown). */
export const cpuRatioCell = (a: Figures, b: Figures): string =>
  a.cpuMicros === undefined || b.cpuMicros === undefined ? "–" : `${(a.cpuMicros / b.cpuMicros).toFixed(1)}x`

/** The header of a table of {@link figuresRow}s and {@link ratioRow}s. */
export const FIGURES_HEADER: ReadonlyArray<string> = ["", "req/s", "p50 ms", "p95 ms", "p99 ms", "CPU µs/req", "body B"]

/** A server's figures as a table row: req/s, p50, p95, p99, CPU µs per request, the last body's size. */
export const figuresRow = (label: string, f: Figures): ReadonlyArray<string> => [
  label,
  f.perSecond.toFixed(0),
  ms(f.p50),
  ms(f.p95),
  ms(f.p99),
  cpuCell(f),
  String(f.bytes)
]

/** `x` against `y` as a table row of the same columns: throughput as a fraction, latencies and CPU as multiples. */
export const ratioRow = (label: string, x: Figures, y: Figures): ReadonlyArray<string> => [
  label,
  `${(x.perSecond / y.perSecond).toFixed(2)}x`,
  `${(x.p50 / y.p50).toFixed(1)}x`,
  `${(x.p95 / y.p95).toFixed(1)}x`,
  `${(x.p99 / y.p99).toFixed(1)}x`,
  cpuRatioCell(x, y),
  ""
]
