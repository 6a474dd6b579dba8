/**
 * Running a long-lived Wasl process: JSON logs, a clean exit code 0 when
 * stopped by SIGTERM/SIGINT (the finalizers close the server, the pools and the
 * embedded database's lock), and one clear log line when it cannot start.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Layer, Predicate, Runtime } from "effect"
import { LoggingLive } from "./logging.ts"

const describe = (error: unknown): string =>
  Predicate.hasProperty(error, "message") && typeof error.message === "string" && error.message !== ""
    ? error.message
    : String(error)

export const runService = <E>(main: Layer.Layer<never, E, never>): void =>
  NodeRuntime.runMain(
    Layer.launch(main).pipe(
      Effect.tapCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.void
          : Effect.logError(`Wasl stopped: ${describe(Cause.squash(cause))}`)
      ),
      Effect.provide(LoggingLive)
    ),
    {
      disableErrorReporting: true,
      teardown: (exit, onExit) =>
        Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
    }
  )
