/**
 * The build refuses what the architecture forbids: the driver packages (`@wasl/http`,
 * `@wasl/worker`) talk to the core's ports only, and their sources are compiled with
 * tsconfig.driver.json, where `@wasl/adapters` resolves to a module that does not compile. A
 * probe compiled with those settings shows it: importing an adapter fails, importing the core
 * does not.
 */
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = Path.resolve(import.meta.dirname, "..")
const PROBE = Path.join(ROOT, "test/fixtures/driver-probe")
const TSC = Path.join(ROOT, "node_modules/.bin/tsc")

/** Compiles the probe of `tsconfig`: its exit status and output. */
const compile = (tsconfig: string): { readonly status: number; readonly output: string } => {
  try {
    return { status: 0, output: execFileSync(TSC, ["-p", Path.join(PROBE, tsconfig)], { cwd: ROOT, encoding: "utf8" }) }
  } catch (error) {
    const failed = error as { readonly status: number; readonly stdout: string; readonly stderr: string }
    return { status: failed.status, output: failed.stdout + failed.stderr }
  }
}

describe("driver packages import no adapter", () => {
  it("http and worker compile their src with the drivers' settings, tests apart", () => {
    for (const pkg of ["http", "worker"]) {
      const tsconfig = Fs.readFileSync(Path.join(ROOT, "packages", pkg, "tsconfig.json"), "utf8")
      expect(tsconfig, pkg).toContain(`"extends": "../../tsconfig.driver.json"`)
      expect(tsconfig, pkg).toContain(`"include": ["src"]`)
      expect(tsconfig, pkg).not.toContain("adapters")
    }
  })

  it("an adapter import does not compile with those settings", () => {
    const { output, status } = compile("tsconfig.adapter.json")
    expect(status).not.toBe(0)
    expect(output).toContain("must not import @wasl/adapters")
  }, 60_000)

  it("a core import compiles with them (the refusal is the adapter's)", () => {
    expect(compile("tsconfig.core.json")).toEqual({ status: 0, output: "" })
  }, 60_000)
})
