/**
 * The process's metrics in Prometheus' text format (version 0.0.4), the text Effect's
 * `PrometheusMetrics.format` writes, for a fraction of its cost. Effect's exporter formats a
 * series' labels again for every line it writes (three regular-expression passes a label, on each
 * of a histogram's fifteen lines): on a server that has answered every route, some 1,000 lines and
 * nearly all of a scrape's CPU. Here the text of a series' lines up to their values is made once,
 * the first time the series is written, and kept for the registry's entry of the series, so a
 * scrape writes texts it has and numbers.
 */
import { Context, Effect, Metric } from "effect"

/** A metric name as Prometheus takes it: `[a-zA-Z_:][a-zA-Z0-9_:]*`, runs of `_` folded, no trailing `_`. */
const metricName = (name: string): string => {
  const sanitized = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return (/^[0-9:]/.test(sanitized) ? "_" + sanitized : sanitized).replace(/_+/g, "_").replace(/_$/, "")
}

/** The sanitised name of each metric id written so far (a registry holds a few dozen ids). */
const names = new Map<string, string>()

const nameOf = (id: string): string => {
  let name = names.get(id)
  if (name === undefined) {
    name = metricName(id)
    names.set(id, name)
  }
  return name
}

/** A label name as Prometheus takes it: `[a-zA-Z_][a-zA-Z0-9_]*`, runs of `_` folded. */
const labelName = (name: string): string => {
  const sanitized = name.replace(/[^a-zA-Z0-9_]/g, "_")
  return (/^[0-9]/.test(sanitized) ? "_" + sanitized : sanitized).replace(/_+/g, "_")
}

const labelValue = (value: string): string => value.replace(/\\/g, "\\\\").replace(/"/g, "\\\"").replace(/\n/g, "\\n")

const help = (text: string): string => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

const label = (name: string, value: string): string => `${labelName(name)}="${labelValue(value)}"`

const value = (n: number | bigint): string =>
  typeof n === "bigint" ? n.toString() : Number.isNaN(n) ? "NaN" : n === Infinity ? "+Inf" : n === -Infinity ? "-Inf" : n.toString()

/** A series' labels, `unit` and `time_unit` left out (units are OpenTelemetry's, not labels). */
const labelsOf = (attributes: Metric.Metric.AttributeSet | undefined): string =>
  attributes === undefined
    ? ""
    : Object.entries(attributes)
      .filter(([key]) => key !== "unit" && key !== "time_unit")
      .map(([key, v]) => label(key, v))
      .join(",")

/** `{labels}` with `extra` after them; nothing when both are empty. */
const braces = (labels: string, extra = ""): string =>
  labels === "" ? (extra === "" ? "" : `{${extra}}`) : extra === "" ? `{${labels}}` : `{${labels},${extra}}`

/** A series as the registry holds it, with its state now. */
type Series = Metric.Metric.Snapshot

/**
 * What a series writes before each of its values, one text per line: `name{labels} ` for a
 * counter or a gauge; for a histogram, each bucket's line, then `_sum`'s and `_count`'s; for a
 * summary, each quantile's, then `_sum`'s and `_count`'s; for a frequency, whose values are its
 * keys and grow, its label text alone.
 */
const headsOf = (name: string, series: Series): ReadonlyArray<string> => {
  const labels = labelsOf(series.attributes)
  const tail = [`${name}_sum${braces(labels)} `, `${name}_count${braces(labels)} `]
  switch (series.type) {
    case "Counter":
    case "Gauge":
      return [`${name}${braces(labels)} `]
    case "Histogram":
      return [
        ...series.state.buckets.filter(([boundary]) => boundary !== Infinity).map(([boundary]) =>
          `${name}_bucket${braces(labels, `le="${boundary}"`)} `
        ),
        `${name}_bucket${braces(labels, `le="+Inf"`)} `,
        ...tail
      ]
    case "Summary":
      return [...series.state.quantiles.map(([quantile]) => `${name}${braces(labels, `quantile="${quantile}"`)} `), ...tail]
    case "Frequency":
      return [labels]
  }
}

/**
 * The heads of each series, by the registry's entry for it: one object per series for as long
 * as the series is registered, holding its id, type, attributes and boundaries, none of which
 * change.
 */
const heads = new WeakMap<Metric.Metric.Metadata<unknown, unknown>, ReadonlyArray<string>>()

/** The lines of one series, each ended by a newline. */
const seriesText = (name: string, series: Series, heads: ReadonlyArray<string>): string => {
  let text = ""
  switch (series.type) {
    case "Counter":
      return heads[0] + value(series.state.count) + "\n"
    case "Gauge":
      return heads[0] + value(series.state.value) + "\n"
    case "Histogram": {
      const { buckets, count, sum } = series.state
      let line = 0
      for (const [boundary, cumulative] of buckets) {
        if (boundary !== Infinity) text += heads[line++] + cumulative + "\n"
      }
      return text + heads[line] + count + "\n" + heads[line + 1] + value(sum) + "\n" + heads[line + 2] + count + "\n"
    }
    case "Summary": {
      const { count, quantiles, sum } = series.state
      quantiles.forEach(([, q], i) => {
        if (q !== undefined) text += heads[i] + value(q) + "\n"
      })
      const line = quantiles.length
      return text + heads[line] + value(sum) + "\n" + heads[line + 1] + count + "\n"
    }
    case "Frequency":
      for (const [key, count] of series.state.occurrences) text += `${name}${braces(heads[0]!, label("key", key))} ${count}\n`
      return text
  }
}

const TYPES: Readonly<Record<Metric.Metric.Type, string>> = {
  Counter: "counter",
  Gauge: "gauge",
  Histogram: "histogram",
  Summary: "summary",
  Frequency: "counter"
}

/**
 * Every metric of the registry in scope in Prometheus' text format: the series of one name
 * together under its `# HELP` (when it has a description) and `# TYPE`, names in the order first
 * registered.
 */
export const prometheusText: Effect.Effect<string> = Effect.map(Effect.context<never>(), (context) => {
  const families = new Map<string, Array<readonly [Series, ReadonlyArray<string>]>>()
  for (const entry of Context.get(context, Metric.MetricRegistry).values()) {
    const series = { ...entry, state: entry.hooks.get(context) } as unknown as Series
    const name = nameOf(series.id)
    let kept = heads.get(entry)
    if (kept === undefined) {
      kept = headsOf(name, series)
      heads.set(entry, kept)
    }
    const family = families.get(name)
    if (family === undefined) families.set(name, [[series, kept]])
    else family.push([series, kept])
  }
  let text = ""
  for (const [name, family] of families) {
    const [first] = family[0]!
    if (first.description) text += `# HELP ${name} ${help(first.description)}\n`
    text += `# TYPE ${name} ${TYPES[first.type]}\n`
    for (const [series, kept] of family) text += seriesText(name, series, kept)
  }
  return text
})
