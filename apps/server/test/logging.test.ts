/** Logs: pretty lines on a terminal, JSON lines otherwise, unless WASL_LOG_FORMAT says; WASL_LOG_LEVEL filters. */
import { type Config, ConfigProvider, Console, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { describeConfigError } from "../src/config.ts"
import { LoggingConfig, loggingLayer } from "../src/logging.ts"

const settings = (env: Record<string, string>) => Effect.runSync(LoggingConfig.parse(ConfigProvider.fromEnvRecord(env)))

/** What the loggers of `env` print for a debug, an info and a warning entry. */
const printed = (env: Record<string, string>, isTerminal: boolean): Array<string> => {
  const lines: Array<string> = []
  const console: Console.Console = { ...globalThis.console, log: (...args: Array<unknown>) => lines.push(args.map(String).join(" ")) }
  Effect.runSync(
    Effect.logDebug("a debug entry").pipe(
      Effect.andThen(Effect.logInfo("an info entry")),
      Effect.andThen(Effect.logWarning("a warning entry")),
      Effect.provide(loggingLayer(settings(env), isTerminal)),
      Effect.provideService(Console.Console, console)
    )
  )
  return lines
}

const isJson = (line: string) => {
  try {
    return typeof JSON.parse(line) === "object"
  } catch {
    return false
  }
}

const refusal = (env: Record<string, string>) =>
  describeConfigError(Effect.runSync(Effect.flip(LoggingConfig.parse(ConfigProvider.fromEnvRecord(env)))) as Config.ConfigError)

describe("logging", () => {
  it("writes one JSON object per line when stdout is not a terminal, info and above", () => {
    const lines = printed({}, false)
    expect(lines).toHaveLength(2)
    expect(lines.every(isJson)).toBe(true)
    expect(lines.map((line) => JSON.parse(line).message)).toEqual(["an info entry", "a warning entry"])
  })

  it("writes human-readable lines on a terminal", () => {
    const lines = printed({}, true)
    expect(lines).toHaveLength(2)
    expect(lines.some(isJson)).toBe(false)
    expect(lines[0]).toMatch(/INFO.*an info entry/)
    expect(lines[1]).toMatch(/WARN.*a warning entry/)
  })

  it("follows WASL_LOG_FORMAT over the terminal guess", () => {
    expect(printed({ WASL_LOG_FORMAT: "json" }, true).every(isJson)).toBe(true)
    expect(printed({ WASL_LOG_FORMAT: "pretty" }, false).some(isJson)).toBe(false)
  })

  it("drops the entries below WASL_LOG_LEVEL", () => {
    expect(printed({ WASL_LOG_LEVEL: "debug" }, false).map((line) => JSON.parse(line).message)).toEqual([
      "a debug entry",
      "an info entry",
      "a warning entry"
    ])
    expect(printed({ WASL_LOG_LEVEL: "WARN" }, false).map((line) => JSON.parse(line).message)).toEqual(["a warning entry"])
    expect(printed({ WASL_LOG_LEVEL: "none" }, false)).toEqual([])
  })

  it("refuses an unknown format or level, naming the setting and the accepted values", () => {
    expect(refusal({ WASL_LOG_FORMAT: "xml" })).toBe(`WASL_LOG_FORMAT: expected pretty or json, received "xml"`)
    expect(refusal({ WASL_LOG_LEVEL: "loud" })).toBe(
      `WASL_LOG_LEVEL: expected one of trace, debug, info, warn, error, fatal, none, received "loud"`
    )
  })
})
