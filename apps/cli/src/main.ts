import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Console, Effect, Layer, Logger } from "effect"
import { CliError, Command } from "effect/cli"
import { wasl } from "./commands.ts"
import { describeFailure } from "./errors.ts"

wasl.pipe(
  Command.run({ version: "0.1.0" }),
  // Usage errors are already explained by the CLI module; the rest get one clear line.
  Effect.tapError((error) => CliError.isCliError(error) ? Effect.void : Console.error(`wasl: ${describeFailure(error)}`)),
  // stdout carries the one JSON line of a command: logs (a stale lock taken over) go to stderr.
  Effect.provide(Layer.merge(NodeServices.layer, Layer.succeed(Logger.LogToStderr, true))),
  (program) => NodeRuntime.runMain(program, { disableErrorReporting: true })
)
