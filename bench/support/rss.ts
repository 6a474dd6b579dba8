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

export interface RssSampler {
  /** Stops sampling; answers the first, the largest and the last sample (MiB), if any. */
  readonly stop: () => { readonly first: number; readonly peak: number; readonly last: number } | undefined
}

/** Samples `pid`'s RSS every `everyMs` until stopped. */
export const sampleRss = (pid: number | undefined, everyMs = 250): RssSampler => {
  const samples: Array<number> = []
  const take = () => {
    const value = rssMiB(pid)
    if (value !== undefined) samples.push(value)
  }
  take()
  const timer = setInterval(take, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      take()
      return samples.length === 0 ? undefined : { first: samples[0]!, peak: Math.max(...samples), last: samples.at(-1)! }
    }
  }
}
