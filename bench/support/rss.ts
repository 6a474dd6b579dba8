/**
 * The resident memory of a child process, sampled from `/proc/<pid>/status` (Linux; elsewhere
 * no samples): what a server or worker holds while it is under load.
 */
import * as Fs from "node:fs"

/** The resident set size of `pid` in MiB, or undefined when it cannot be read. */
export const rssMiB = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    const status = Fs.readFileSync(`/proc/${pid}/status`, "utf8")
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(status)
    return match === null ? undefined : Number(match[1]) / 1024
  } catch {
    return undefined
  }
}

/** What a sampler saw (MiB). */
export interface RssSamples {
  /** The first sample. */
  readonly first: number
  /** The largest. */
  readonly peak: number
  /** The last. */
  readonly last: number
  /** The smallest and the largest of the samples of the later half of the time sampled: flat when close. */
  readonly laterHalf: { readonly min: number; readonly max: number }
}

export interface RssSampler {
  /** Stops sampling; answers what it saw, if any sample could be read. */
  readonly stop: () => RssSamples | undefined
}

/** Samples `pid`'s RSS every `everyMs` until stopped. */
export const sampleRss = (pid: number | undefined, everyMs = 250): RssSampler => {
  const samples: Array<number> = []
  const times: Array<number> = []
  const take = () => {
    const value = rssMiB(pid)
    if (value === undefined) return
    samples.push(value)
    times.push(Date.now())
  }
  take()
  const timer = setInterval(take, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      take()
      if (samples.length === 0) return undefined
      const half = (times[0]! + times.at(-1)!) / 2
      const later = samples.filter((_, i) => times[i]! >= half)
      return {
        first: samples[0]!,
        peak: Math.max(...samples),
        last: samples.at(-1)!,
        laterHalf: { min: Math.min(...later), max: Math.max(...later) }
      }
    }
  }
}
