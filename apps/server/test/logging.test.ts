/** Logs: pretty lines on a terminal, JSON lines otherwise, unless WASL_LOG_FORMAT says; WASL_LOG_LEVEL filters. */
import { Cause, type Config, ConfigProvider, Console, Effect, Formatter, Logger, Redacted, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { describeConfigError } from "../src/config.ts"
import { LoggingConfig, loggingLayer } from "../src/logging.ts"

const settings = (env: Record<string, string>) => Effect.runSync(LoggingConfig.parse(ConfigProvider.fromEnvRecord(env)))

/** Where a test's loggers write: JSON lines (batched, so read after a turn of the event loop), and the Console's. */
const capture = () => {
  const lines: Array<string> = []
  const console: Console.Console = { ...globalThis.console, log: (...args: Array<unknown>) => lines.push(args.map(String).join(" ")) }
  const output = { write: (chunk: string) => lines.push(...chunk.split("\n").filter((line) => line !== "")) }
  const written = () => new Promise<Array<string>>((resolve) => setImmediate(() => resolve(lines)))
  return { console, output, written }
}

/** What the loggers of `env` print for a debug, an info and a warning entry. */
const printed = (env: Record<string, string>, isTerminal: boolean): Promise<Array<string>> => {
  const { console, output, written } = capture()
  Effect.runSync(
    Effect.logDebug("a debug entry").pipe(
      Effect.andThen(Effect.logInfo("an info entry")),
      Effect.andThen(Effect.logWarning("a warning entry")),
      Effect.provide(loggingLayer(settings(env), isTerminal, output)),
      Effect.provideService(Console.Console, console)
    )
  )
  return written()
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
  it("writes one JSON object per line when stdout is not a terminal, info and above", async () => {
    const lines = await printed({}, false)
    expect(lines).toHaveLength(2)
    expect(lines.every(isJson)).toBe(true)
    expect(lines.map((line) => JSON.parse(line).message)).toEqual(["an info entry", "a warning entry"])
  })

  it("writes human-readable lines on a terminal", async () => {
    const lines = await printed({}, true)
    expect(lines).toHaveLength(2)
    expect(lines.some(isJson)).toBe(false)
    expect(lines[0]).toMatch(/INFO.*an info entry/)
    expect(lines[1]).toMatch(/WARN.*a warning entry/)
  })

  it("follows WASL_LOG_FORMAT over the terminal guess", async () => {
    expect((await printed({ WASL_LOG_FORMAT: "json" }, true)).every(isJson)).toBe(true)
    expect((await printed({ WASL_LOG_FORMAT: "pretty" }, false)).some(isJson)).toBe(false)
  })

  it("drops the entries below WASL_LOG_LEVEL", async () => {
    expect((await printed({ WASL_LOG_LEVEL: "debug" }, false)).map((line) => JSON.parse(line).message)).toEqual([
      "a debug entry",
      "an info entry",
      "a warning entry"
    ])
    expect((await printed({ WASL_LOG_LEVEL: "WARN" }, false)).map((line) => JSON.parse(line).message)).toEqual(["a warning entry"])
    expect(await printed({ WASL_LOG_LEVEL: "none" }, false)).toEqual([])
  })

  it("refuses an unknown format or level, naming the setting and the accepted values", () => {
    expect(refusal({ WASL_LOG_FORMAT: "xml" })).toBe(`WASL_LOG_FORMAT: expected pretty or json, received "xml"`)
    expect(refusal({ WASL_LOG_LEVEL: "loud" })).toBe(
      `WASL_LOG_LEVEL: expected one of trace, debug, info, warn, error, fatal, none, received "loud"`
    )
  })

  it("writes secrets redacted, cyclic values without their cycle and a failure's cause", async () => {
    const { output, written } = capture()
    const cyclic: { name: string; self?: unknown } = { name: "loop" }
    cyclic.self = cyclic
    Effect.runSync(Effect.logInfo("with a secret").pipe(
      Effect.annotateLogs({ token: Redacted.make("s3cret-value"), nested: { password: Redacted.make("hunter2") }, cyclic }),
      Effect.andThen(Effect.logError("failed", Cause.fail(new Error("the reason")))),
      Effect.provide(loggingLayer(settings({}), false, output))
    ))
    const lines = await written()
    expect(lines).toHaveLength(2)
    expect(lines[0]).not.toMatch(/s3cret-value|hunter2/)
    expect(JSON.parse(lines[0]!).annotations).toEqual({ token: "<redacted>", nested: { password: "<redacted>" }, cyclic: { name: "loop" } })
    expect(JSON.parse(lines[1]!)).toMatchObject({ message: "failed", cause: expect.stringContaining("the reason") })
  })

  it("writes the text Effect's formatJson writes for the same entry, scalar or not", async () => {
    const { output, written } = capture()
    const reference: Array<string> = []
    const formatJson = Logger.make((options) => reference.push(Formatter.formatJson(Logger.formatStructured.log(options))))
    Effect.runSync(Effect.logInfo("request").pipe(
      Effect.annotateLogs({ method: "GET", status: 200, ratio: -0.5, ok: true, none: null, quote: "a \"b\" \u2028" }),
      Effect.withLogSpan("handled"),
      Effect.andThen(Effect.logWarning("several", 1, false)),
      Effect.andThen(Effect.logInfo("an object").pipe(Effect.annotateLogs({ detail: { nested: [1, "two"] }, id: 10n }))),
      // Inside the settings' loggers, so that it is added to them rather than replacing them.
      Effect.provide(Logger.layer([formatJson], { mergeWithExisting: true })),
      Effect.provide(loggingLayer(settings({}), false, output))
    ))
    const lines = await written()
    expect(lines).toHaveLength(3)
    expect(lines).toEqual(reference)
  })

  it("writes the JSON lines of one turn of the event loop in one write, in their order", async () => {
    const chunks: Array<string> = []
    Effect.runSync(Effect.logInfo("first").pipe(
      Effect.andThen(Effect.logInfo("second")),
      Effect.provide(loggingLayer(settings({}), false, { write: (chunk) => chunks.push(chunk) }))
    ))
    expect(chunks).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(chunks).toHaveLength(1)
    expect(chunks[0]!.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line).message)).toEqual(["first", "second"])
  })

  it("puts the trace and span ids on a JSON line written in a span of an exporting tracer, and only there", async () => {
    const entries = async (tracer: Tracer.Tracer | undefined) => {
      const { output, written } = capture()
      const program = Effect.logInfo("outside").pipe(
        Effect.andThen(Effect.logInfo("inside").pipe(Effect.withSpan("work"))),
        Effect.andThen(Effect.logInfo("untraced").pipe(Effect.withSpan("quiet"), Effect.withTracerEnabled(false))),
        Effect.provide(loggingLayer(settings({}), false, output))
      )
      let span: Tracer.Span | undefined
      Effect.runSync(tracer === undefined ? program : program.pipe(Effect.provideService(Tracer.Tracer, Tracer.make({
        span: (options) => (span = tracer.span(options))
      }))))
      return { annotations: (await written()).map((line) => JSON.parse(line).annotations), span }
    }
    const exported = await entries(Tracer.make({ span: (options) => new Tracer.NativeSpan(options) }))
    expect(exported.annotations).toEqual([{}, { trace_id: exported.span!.traceId, span_id: exported.span!.spanId }, {}])
    // Effect's native tracer (tracing off): the spans are recorded nowhere, so no ids.
    expect((await entries(undefined)).annotations).toEqual([{}, {}, {}])
  })
})
