/**
 * The OpenAPI document as a server serves it passes Redocly's recommended rules (redocly.yaml at
 * the repository's root): no error, no warning. The one rule that file turns off,
 * no-ambiguous-paths, is checked here against what the server decodes: each pair of paths it
 * reports differs in a segment where one path's parameter refuses the other's literal.
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Option, Schema } from "effect"
import { WaslApi } from "@wasl/http/Endpoints"
import { startTestServer, type TestServer } from "./support/server.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const redocly = Path.join(root, "node_modules", "@redocly", "cli", "bin", "cli.js")

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number }
  readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly severity: string; readonly message: string }>
}

/** `redocly lint` of a document, with the given configuration (Redocly's defaults when none), as its JSON report. */
const lint = (document: unknown, config?: string): LintReport => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-openapi-lint-"))
  try {
    const file = Path.join(dir, "openapi.json")
    Fs.writeFileSync(file, JSON.stringify(document, null, 2))
    const args = [redocly, "lint", "--format=json", ...(config === undefined ? [] : ["--config", config]), file]
    const result = spawnSync(process.execPath, args, {
      cwd: dir,
      encoding: "utf8",
      // No usage report or update check: the test talks to nothing but its files.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" }
    })
    const start = result.stdout.indexOf("{")
    if (start === -1) throw new Error(`redocly lint printed no report:\n${result.stdout}\n${result.stderr}`)
    return JSON.parse(result.stdout.slice(start)) as LintReport
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}

type Fields = Record<string, Schema.Codec<unknown, unknown>>
/** The fields of an endpoint's path parameters: its struct's, or the struct's its string codec was made from. */
const fieldsOf = (params: unknown): Fields => {
  const schema = params as { fields?: Fields; schema?: { fields?: Fields } } | undefined
  return schema?.fields ?? schema?.schema?.fields ?? {}
}

/** The path parameters' schemas of each path of the API, as the server decodes them. */
const parameterSchemas = new Map<string, Fields>(
  Object.values(WaslApi.groups).flatMap((group) =>
    Object.values(group.endpoints).map((endpoint): [string, Fields] => [
      endpoint.path.replace(/:(\w+)/g, "{$1}"),
      fieldsOf(endpoint.params)
    ])
  )
)

/** Whether the path parameter `{name}` of `path` takes `segment` (the server decodes it). */
const takes = (path: string, name: string, segment: string) => {
  const schema = parameterSchemas.get(path)?.[name]
  return schema === undefined || Option.isSome(Schema.decodeUnknownOption(Schema.toCodecStringTree(schema))(segment))
}

/**
 * Whether no request path matches both paths: at some segment one path has a literal that the
 * other's parameter there does not take (`properties` is neither a kind name nor a record id).
 */
const disjoint = (a: string, b: string) => {
  const [as, bs] = [a.split("/"), b.split("/")]
  if (as.length !== bs.length) return true
  return as.some((x, i) => {
    const y = bs[i]!
    const template = (s: string) => /^\{(\w+)\}$/.exec(s)?.[1]
    const [tx, ty] = [template(x), template(y)]
    if (tx === undefined && ty === undefined) return x !== y
    if (tx !== undefined && ty === undefined) return !takes(a, tx, y)
    if (tx === undefined && ty !== undefined) return !takes(b, ty, x)
    return false
  })
}

describe("the served OpenAPI document, linted", () => {
  let server: TestServer
  let document: { paths: Record<string, Record<string, any>> }

  beforeAll(async () => {
    server = await startTestServer("pglite")
    const response = await fetch(`${server.url}/api/openapi.json`)
    expect(response.status).toBe(200)
    document = await response.json() as typeof document
  })
  afterAll(async () => {
    await server?.close()
  })

  it("passes the recommended rules: no error, no warning", () => {
    const report = lint(document, Path.join(root, "redocly.yaml"))
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  })

  it("has no two paths one request could match: each pair no-ambiguous-paths reports differs in a segment the parameter refuses", () => {
    const pairs = lint(document).problems
      .filter((p) => p.ruleId === "no-ambiguous-paths")
      .map((p) => [...p.message.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
    expect(pairs.length).toBeGreaterThan(0)
    for (const [a, b] of pairs) {
      expect(parameterSchemas.has(a!) && parameterSchemas.has(b!), `${a} and ${b} are paths of the API`).toBe(true)
      expect(disjoint(a!, b!), `${a} and ${b}`).toBe(true)
    }
    // The check can fail: two paths whose parameter takes the other's literal are not disjoint.
    expect(disjoint("/api/account/webhooks/{id}", "/api/account/webhooks/properties")).toBe(false)
  })
})
