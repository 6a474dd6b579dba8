/**
 * The heartbeats of the worker's loops, for its readiness probe: each loop beats after every
 * round, and a loop is healthy while it runs and its last beat is recent — within its own longest
 * wait (the poll interval, or the sweep and pruning intervals) plus `stallAfter`. A loop whose
 * fiber ended (stopped) or that has not come round for that long (stuck on a statement that never
 * returns) makes the worker unready.
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"

/** One loop's state. */
interface LoopState {
  /** The longest a healthy round takes, waits included, in milliseconds. */
  readonly allowedMillis: number
  /** When the loop last finished a round (or started). */
  lastBeat: number
  /** Whether its fiber ended. */
  stopped: boolean
}

/** What the WorkerLoops service offers. */
export interface WorkerLoopsShape {
  /** A loop starts: healthy while it beats at least every `longestWait` + `stallAfter`. */
  readonly start: (name: string, longestWait: Duration.Duration) => Effect.Effect<void>
  /** The loop finished a round. */
  readonly beat: (name: string) => Effect.Effect<void>
  /** The loop's fiber ended. */
  readonly stop: (name: string) => Effect.Effect<void>
  /** The loops that are stopped or stuck, by name; empty when all are healthy. */
  readonly unhealthy: Effect.Effect<ReadonlyArray<string>>
  /** Whether any loop ever started (a worker runs under this service). */
  readonly started: Effect.Effect<boolean>
}

const WorkerLoopsBase: Context.ServiceClass<WorkerLoops, "@wasl/worker/WorkerLoops", WorkerLoopsShape> = Context
  .Service<WorkerLoops, WorkerLoopsShape>()("@wasl/worker/WorkerLoops")

/**
 * The heartbeats of a worker's loops. Provide it (`WorkerLoops.layer()`) to a worker and to its
 * health routes; a worker without it runs the same, unobserved.
 */
export class WorkerLoops extends WorkerLoopsBase {
  /**
   * A fresh registry. `stallAfter` (default 1 minute) is the slack beyond each loop's longest
   * wait: a round of pruning or a slow database may take that long without being stuck.
   */
  static readonly layer = (options: { readonly stallAfter?: Duration.Input | undefined } = {}): Layer.Layer<WorkerLoops> =>
    Layer.sync(WorkerLoops, () => {
      const stallMillis = Duration.toMillis(Duration.fromInputUnsafe(options.stallAfter ?? Duration.minutes(1)))
      const loops = new Map<string, LoopState>()
      const touch = (name: string, f: (loop: LoopState, now: number) => void) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const loop = loops.get(name)
          if (loop !== undefined) f(loop, now)
        })
      return WorkerLoops.of({
        start: (name, longestWait) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            loops.set(name, { allowedMillis: Duration.toMillis(longestWait) + stallMillis, lastBeat: now, stopped: false })
          }),
        beat: (name) => touch(name, (loop, now) => (loop.lastBeat = now)),
        stop: (name) => touch(name, (loop) => (loop.stopped = true)),
        unhealthy: Effect.map(Clock.currentTimeMillis, (now) =>
          [...loops].filter(([, loop]) => loop.stopped || now - loop.lastBeat > loop.allowedMillis).map(([name]) => name)),
        started: Effect.sync(() => loops.size > 0)
      })
    })
}
