/**
 * Running a long-lived Wasl process: every setting read first, so a bad one stops the process
 * before it touches the database (one `wasl: NAME: problem` line on stderr, exit code 1); then
 * the logs of `WASL_LOG_FORMAT` and `WASL_LOG_LEVEL`, the traces of the `OTEL_*` settings, a clean exit code 0 when stopped by
 * SIGTERM/SIGINT (the finalizers close the server, the pools and the embedded database's lock),
 * and one clear log line when it cannot start.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Config, Console, Effect, Exit, Layer, Predicate, Runtime } from "effect"
import { describeConfigError } from "./config.ts"
import { LoggingConfig, loggingLayer } from "./logging.ts"
import { TracingConfig, tracingLayer } from "./tracing.ts"

const describe = (error: unknown): string =>
  Predicate.hasProperty(error, "message") && typeof error.message === "string" && error.message !== ""
    ? error.message
    : String(error)

export const runService = <C, E>(config: Config.Config<C>, main: (settings: C) => Layer.Layer<never, E, never>): void =>
  NodeRuntime.runMain(
    Effect.gen(function*() {
      const { logging, settings, tracing } = yield* Config.all({ logging: LoggingConfig, tracing: TracingConfig, settings: config }).pipe(
        Effect.tapError((error) => Console.error(`wasl: ${describeConfigError(error)}`))
      )
      return yield* Layer.launch(main(settings)).pipe(
        Effect.tapCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.void
            : Effect.logError(`Wasl stopped: ${describe(Cause.squash(cause))}`)
        ),
        // The tracer is closed (its last spans flushed) after the service's layers are released.
        Effect.provide(Layer.merge(loggingLayer(logging), tracingLayer(tracing)))
      )
    }),
    {
      disableErrorReporting: true,
      teardown: (exit, onExit) =>
        Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
    }
  )
