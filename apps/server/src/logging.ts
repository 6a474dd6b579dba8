/**
 * Logs: human-readable lines on a terminal, one JSON object per line otherwise (a log collector
 * reads them), unless `WASL_LOG_FORMAT` says which; `WASL_LOG_LEVEL` drops the entries below it.
 */
import { Config, Layer, Logger, type LogLevel, References, Result } from "effect"
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

/** The loggers of the settings; `isTerminal` decides the format when none is set. */
export const loggingLayer = (config: LoggingConfig, isTerminal: boolean = process.stdout.isTTY === true) => {
  const format = config.format ?? (isTerminal ? "pretty" : "json")
  return Layer.mergeAll(
    Logger.layer([format === "pretty" ? Logger.consolePretty() : Logger.consoleJson]),
    Layer.succeed(References.MinimumLogLevel, config.level)
  )
}
