/** The types of `parse-prometheus-text-format` (the package ships none): prom2json's shape. */
declare module "parse-prometheus-text-format" {
  /** One sample of a counter or gauge, or one series of a histogram. */
  export interface Sample {
    readonly labels?: Readonly<Record<string, string>>
    readonly value?: string
    readonly buckets?: Readonly<Record<string, string>>
    readonly count?: string
    readonly sum?: string
  }
  /** One metric family. */
  export interface Family {
    readonly name: string
    readonly help: string
    readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
    readonly metrics: ReadonlyArray<Sample>
  }
  const parsePrometheusTextFormat: (text: string) => ReadonlyArray<Family>
  export default parsePrometheusTextFormat
}
