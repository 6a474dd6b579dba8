/**
 * The benchmarks' figures as JSON: with `BENCH_JSON=<file>` set, each benchmark adds its results
 * to the list in that file (created if missing), so `npm run bench` leaves one list for all of
 * them. A result compares Wasl with the baseline of the same run.
 */
import * as Fs from "node:fs"
import type { Figures } from "./load.ts"

export interface BenchResult {
  /** What was measured, with its unit (`GET /api/me req/s`). */
  readonly name: string
  readonly wasl: number
  /** The baseline's figure, or null when the result has none (a latency target, a memory size). */
  readonly baseline: number | null
  /** `wasl / baseline`, or null without a baseline. */
  readonly ratio: number | null
  /** The target: a least ratio (`≥ 0.9`), or for a result without a baseline the most `wasl` may be; null: for information. */
  readonly target: number | null
  /** Whether the target is met (null without one). */
  readonly met: boolean | null
}

/** A throughput compared with its baseline; the target is a least ratio. */
export const ratioResult = (name: string, wasl: number, baseline: number, target: number | null): BenchResult => {
  const ratio = wasl / baseline
  return { name, wasl, baseline, ratio, target, met: target === null ? null : ratio >= target }
}

/** A figure without a baseline (a latency, a memory size): the target, if any, is its most. */
export const figureResult = (name: string, wasl: number, most: number | null = null): BenchResult => ({
  name,
  wasl,
  baseline: null,
  ratio: null,
  target: most,
  met: most === null ? null : wasl <= most
})

/** Adds `results` to the file of `BENCH_JSON`, if set. */
export const writeResults = (results: ReadonlyArray<BenchResult>): void => {
  const file = process.env.BENCH_JSON
  if (file === undefined || file === "") return
  const earlier: Array<BenchResult> = Fs.existsSync(file) ? JSON.parse(Fs.readFileSync(file, "utf8")) : []
  Fs.writeFileSync(file, JSON.stringify([...earlier, ...results], null, 2) + "\n")
}

/**
 * Where Wasl stands between the bare server and the Effect HTTP floor (the same baseline served
 * through Effect's HTTP platform, `BASELINE_HTTP=effect`), for information: the floor against the
 * bare server (what the chosen stack costs by itself), and Wasl against the floor (what Wasl's
 * own structure costs on top).
 */
export const floorResults = (name: string, wasl: number, floor: number, bare: number): ReadonlyArray<BenchResult> => [
  ratioResult(`${name}, Effect HTTP floor against the bare server`, floor, bare, null),
  ratioResult(`${name}, Wasl against the Effect HTTP floor`, wasl, floor, null)
]

/**
 * The HttpApi floors (bench/support/httpapi-floor.ts) against the bare server, for information:
 * how far the stack and the rules' request frame alone come.
 */
export const apiFloorResults = (name: string, api: Figures, framed: Figures, bare: Figures): ReadonlyArray<BenchResult> => [
  ratioResult(`${name}, HttpApi floor against the bare server`, api.perSecond, bare.perSecond, null),
  ratioResult(`${name}, HttpApi floor with the request frame against the bare server`, framed.perSecond, bare.perSecond, null)
]

/**
 * Requests per second of the server's own CPU (from its CPU time per request), Wasl against the
 * bare server, for information: the throughput ratio each would reach with a core to itself,
 * which the neighbours sharing the machine (the load generator, PostgreSQL) move far less than
 * requests per second. Empty when either CPU time could not be read.
 */
export const cpuResults = (name: string, wasl: Figures, bare: Figures): ReadonlyArray<BenchResult> =>
  wasl.cpuMicros === undefined || bare.cpuMicros === undefined
    ? []
    : [ratioResult(`${name}, requests per second of the server's CPU`, 1e6 / wasl.cpuMicros, 1e6 / bare.cpuMicros, null)]
