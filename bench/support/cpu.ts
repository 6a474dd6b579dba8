/**
 * The CPU time a child process has used, read from `/proc/<pid>/stat` (Linux; elsewhere
 * undefined): what a process costs per unit of work on a machine shared with other load, where
 * its throughput alone says more about the neighbours than about the process.
 */
import * as Fs from "node:fs"

/** Clock ticks per second of `/proc/<pid>/stat` (`sysconf(_SC_CLK_TCK)`, 100 on Linux). */
const TICKS_PER_SECOND = 100

/** The user + system CPU seconds `pid` has used so far, or undefined when they cannot be read. */
export const cpuSeconds = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    // The fields after the command's name (in parentheses, which may hold spaces): utime and stime
    // are the 14th and 15th of the line, the 12th and 13th after it.
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
  } catch {
    return undefined
  }
}
