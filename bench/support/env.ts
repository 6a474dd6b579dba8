/** Reading the benchmarks' settings from the environment. */

/** The integer in `name`, or `fallback` when unset or empty; a bad value stops the run. */
export const intFromEnv = (name: string, fallback: number, min: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${raw}`)
  return value
}

/** The node flags in `name`, space-separated (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`); none when unset. */
export const nodeFlagsFromEnv = (name: string): Array<string> =>
  (process.env[name] ?? "").split(" ").filter((flag) => flag !== "")
