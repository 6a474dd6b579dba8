/**
 * Logs: human-readable lines on a terminal, one JSON object per line otherwise (a log collector
 * reads them), unless `WASL_LOG_FORMAT` says which; `WASL_LOG_LEVEL` drops the entries below it.
 * With traces exported, a JSON line written inside a span carries its `trace_id` and `span_id`,
 * so a collector can join the line to its trace.
 */
import { Config, Formatter, Layer, Logger, type LogLevel, References, Result } from "effect"
import { exportedSpan } from "@wasl/core"
import { setting, withFallback } from "./config.ts"

const FORMATS = ["pretty", "json"] as const
type LogFormat = typeof FORMATS[number]

const LEVELS: Readonly<Record<string, LogLevel.LogLevel>> = {
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  error: "Error",
  fatal: "Fatal",
  none: "None"
}

/** `WASL_LOG_FORMAT` (`pretty` or `json`; unset: by whether stdout is a terminal) and `WASL_LOG_LEVEL` (default `info`). */
export const LoggingConfig = Config.all({
  format: setting("WASL_LOG_FORMAT", (text): Result.Result<LogFormat, string> => {
    const format = FORMATS.find((f) => f === text.trim().toLowerCase())
    return format === undefined ? Result.fail(`expected pretty or json, received "${text}"`) : Result.succeed(format)
  }),
  level: withFallback(
    setting("WASL_LOG_LEVEL", (text) => {
      const level = LEVELS[text.trim().toLowerCase()]
      return level === undefined
        ? Result.fail(`expected one of ${Object.keys(LEVELS).join(", ")}, received "${text}"`)
        : Result.succeed(level)
    }),
    "Info"
  )
})
export type LoggingConfig = Config.Success<typeof LoggingConfig>

/**
 * `Logger.consoleJson` plus, in a span of an exporting tracer, the span's ids among the
 * annotations. Without one (tracing off: Effect's native tracer) the ids would name nothing.
 */
const consoleJsonTraced = Logger.withConsoleLog(Logger.map(
  Logger.make((options) => {
    const entry = Logger.formatStructured.log(options)
    const span = exportedSpan(options.fiber)
    return span === undefined
      ? entry
      : { ...entry, annotations: { trace_id: span.traceId, span_id: span.spanId, ...entry.annotations } }
  }),
  Formatter.formatJson
))

/** The loggers of the settings; `isTerminal` decides the format when none is set. */
export const loggingLayer = (config: LoggingConfig, isTerminal: boolean = process.stdout.isTTY === true) => {
  const format = config.format ?? (isTerminal ? "pretty" : "json")
  return Layer.mergeAll(
    Logger.layer([format === "pretty" ? Logger.consolePretty() : consoleJsonTraced]),
    Layer.succeed(References.MinimumLogLevel, config.level)
  )
}
