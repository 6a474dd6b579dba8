/**
 * The benchmarks' closed-loop load generator: `concurrency` keep-alive connections on loopback,
 * each with one request in flight, through an `undici` `Pool` (installed with
 * @effect/platform-node), or a `node:http` keep-alive `Agent` when undici is missing. Every reply
 * must be 200, else the load fails.
 */
import * as Http from "node:http"
import { performance } from "node:perf_hooks"

export interface Sender {
  readonly name: string
  /** One `GET path`; resolves with the status and the body size once the body is read. */
  readonly get: (path: string) => Promise<{ readonly status: number; readonly bytes: number }>
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
    request(options: { readonly path: string; readonly method: "GET"; readonly headers: Record<string, string> }): Promise<{
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
      get: async (path) => {
        const { body, statusCode } = await pool.request({ path, method: "GET", headers })
        return { status: statusCode, bytes: (await body.arrayBuffer()).byteLength }
      },
      close: () => pool.close()
    }
  }
  const agent = new Http.Agent({ keepAlive: true, maxSockets: connections })
  return {
    name: "node:http Agent",
    get: (path) =>
      new Promise((resolve, reject) => {
        const request = Http.get(`${origin}${path}`, { agent, headers, timeout: 10_000 }, (response) => {
          let bytes = 0
          response.on("data", (chunk: Buffer) => (bytes += chunk.length))
          response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }))
          response.on("error", reject)
        })
        request.on("timeout", () => request.destroy(new Error("request timed out")))
        request.on("error", reject)
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
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: Float64Array, p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!

/** `total` requests (the i-th to `pathOf(i)`) over `concurrency` loops, each with one request in flight. */
export const load = async (
  sender: Sender,
  total: number,
  concurrency: number,
  pathOf: (i: number) => string
): Promise<Figures> => {
  const latencies = new Float64Array(total)
  let next = 0
  let bytes = 0
  const loop = async () => {
    for (let i = next++; i < total; i = next++) {
      const path = pathOf(i)
      const started = performance.now()
      const reply = await sender.get(path)
      latencies[i] = performance.now() - started
      if (reply.status !== 200) throw new Error(`request ${i} (GET ${path}): status ${reply.status}`)
      bytes = reply.bytes
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, loop))
  const seconds = (performance.now() - started) / 1000
  latencies.sort()
  return {
    requests: total,
    seconds,
    perSecond: total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    bytes
  }
}

export interface LoadSettings {
  readonly requests: number
  readonly warmup: number
  readonly concurrency: number
}

/** Warm-up requests, then the measured ones, through a fresh sender closed afterwards. */
export const measure = async (
  origin: string,
  headers: Record<string, string>,
  settings: LoadSettings,
  pathOf: (i: number) => string
): Promise<{ readonly client: string; readonly figures: Figures }> => {
  const sender = await makeSender(origin, headers, settings.concurrency)
  try {
    if (settings.warmup > 0) await load(sender, settings.warmup, settings.concurrency, pathOf)
    return { client: sender.name, figures: await load(sender, settings.requests, settings.concurrency, pathOf) }
  } finally {
    await sender.close()
  }
}
