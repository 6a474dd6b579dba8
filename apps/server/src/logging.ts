/**
 * Logs: human-readable lines on a terminal, one JSON object per line otherwise (a log collector
 * reads them), unless `WASL_LOG_FORMAT` says which; `WASL_LOG_LEVEL` drops the entries below it.
 * With traces exported, a JSON line written inside a span carries its `trace_id` and `span_id`,
 * so a collector can join the line to its trace.
 */
import { Config, Formatter, Layer, Logger, type LogLevel, References, Result } from "effect"
import { exportedSpan } from "@wasl/core/Events"
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

/** Where the JSON lines go: stdout, or a test's capture. */
export interface LineOutput {
  readonly write: (chunk: string) => unknown
}

const atExit = new Set<() => void>()
/** Runs `flush` when the process exits (one listener for every sink). */
const flushedAtExit = (flush: () => void) => {
  if (atExit.size === 0) process.once("exit", () => atExit.forEach((f) => f()))
  atExit.add(flush)
}

/**
 * Lines written to `output` in one write per turn of the event loop rather than one each: under
 * load every request's access line was a write of its own to the pipe (a system call, ~10 % of the
 * server's CPU in the profile of `GET /api/me`). Whatever is pending is written before the process
 * exits.
 */
const batchedLines = (output: LineOutput): (line: string) => void => {
  let pending: Array<string> = []
  const flush = () => {
    if (pending.length === 0) return
    const chunk = pending.join("")
    pending = []
    output.write(chunk)
  }
  flushedAtExit(flush)
  return (line) => {
    if (pending.length === 0) setImmediate(flush)
    pending.push(`${line}\n`)
  }
}

/** A string, number, boolean, null or undefined: a value `JSON.stringify` writes alone as `formatJson` does. */
const isScalar = (value: unknown): boolean =>
  value === null || value === undefined || typeof value === "string" || typeof value === "number" ||
  typeof value === "boolean"

const hasScalarValues = (record: object): boolean => Object.values(record).every(isScalar)

/**
 * `Formatter.formatJson` of a structured entry. Its replacer (redaction, cycles, getters, bigints)
 * runs on every key and was most of a line's cost; an entry whose message and annotations are
 * scalars (every access line) has none of those, and plain `JSON.stringify` writes the same text.
 */
const entryJson = (entry: ReturnType<typeof Logger.formatStructured.log>): string => {
  const message: unknown = entry.message
  const plain = (Array.isArray(message) ? message.every(isScalar) : isScalar(message)) &&
    hasScalarValues(entry.annotations) && hasScalarValues(entry.spans)
  return plain ? JSON.stringify(entry) : Formatter.formatJson(entry)
}

/**
 * `Logger.consoleJson`'s lines, written through `batchedLines`, plus, in a span of an exporting
 * tracer, the span's ids among the annotations. Without one (tracing off: Effect's native tracer)
 * the ids would name nothing.
 */
const jsonTraced = (output: LineOutput) => {
  const writeLine = batchedLines(output)
  return Logger.make((options) => {
    const entry = Logger.formatStructured.log(options)
    const span = exportedSpan(options.fiber)
    writeLine(entryJson(
      span === undefined
        ? entry
        : { ...entry, annotations: { trace_id: span.traceId, span_id: span.spanId, ...entry.annotations } }
    ))
  })
}

/**
 * The loggers of the settings; `isTerminal` decides the format when none is set. JSON lines go to
 * `output` (stdout), pretty ones through the `Console`.
 */
export const loggingLayer = (
  config: LoggingConfig,
  isTerminal: boolean = process.stdout.isTTY === true,
  output: LineOutput = process.stdout
) => {
  const format = config.format ?? (isTerminal ? "pretty" : "json")
  return Layer.mergeAll(
    Logger.layer([format === "pretty" ? Logger.consolePretty() : jsonTraced(output)]),
    Layer.succeed(References.MinimumLogLevel, config.level)
  )
}
