/**
 * How a benchmark script runs: its body under the time limit `BENCH_TIMEOUT_MS`, and, however it
 * ends (done, failed, Ctrl-C, SIGTERM or the limit), the children it started stopped and what it
 * registered with {@link atCleanup} undone, latest first, before the process exits (1 unless done).
 */
import { intFromEnv } from "./env.ts"
import { stopAllChildren } from "./children.ts"

const cleanups: Array<() => Promise<unknown> | unknown> = []

/** Registers something to undo when the run ends (a directory, a database, a runtime). */
export const atCleanup = (cleanup: () => Promise<unknown> | unknown): void => {
  cleanups.push(cleanup)
}

const cleanUp = async (log: (message: string) => void) => {
  await stopAllChildren()
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()!()
    } catch (error) {
      log(`cleanup failed: ${messageOf(error)}`)
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Runs `body`, then exits: 0 when it finished, 1 when it failed, was interrupted or ran out of time. */
export const runBenchmark = async (
  body: () => Promise<void>,
  options: { readonly defaultTimeoutMs: number; readonly log: (message: string) => void }
): Promise<never> => {
  const timeoutMs = intFromEnv("BENCH_TIMEOUT_MS", options.defaultTimeoutMs, 1_000)
  let cleaning: Promise<void> | undefined
  const cleanUpOnce = () => (cleaning ??= cleanUp(options.log))
  let aborted = false
  const abort = (reason: string) => {
    if (aborted) return
    aborted = true
    options.log(`${reason}; stopping.`)
    void cleanUpOnce().finally(() => process.exit(1))
  }
  const deadline = setTimeout(() => abort(`time limit of ${timeoutMs} ms reached`), timeoutMs)
  process.once("SIGINT", () => abort("interrupted"))
  process.once("SIGTERM", () => abort("terminated"))
  let failed = false
  try {
    await body()
  } catch (error) {
    if (!aborted) options.log(messageOf(error))
    failed = true
  } finally {
    clearTimeout(deadline)
    await cleanUpOnce()
  }
  // Explicit: `process.exit(undefined)` exits 0 even with `process.exitCode` set.
  process.exit(failed || aborted ? 1 : 0)
}
