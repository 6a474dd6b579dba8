/**
 * The packages' main entry points export namespaces by resource and nothing else (`export * as
 * Records from "./Records.ts"`), each namespace also an entry point of its own in `package.json`
 * and `deno.json`: a new module joins its resource's namespace module, never the top level.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { root } from "./support/apps.ts"

const NAMESPACED = ["core", "adapters", "http"]

const exportsOf = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/^export\b[^\n]*(?:\n(?!export\b)[^\n]*)*?\sfrom\s+"[^"]+"/gm)].map((m) => m[0].replace(/\s+/g, " "))

describe.each(NAMESPACED)("@wasl/%s", (name) => {
  const dir = join(root, "packages", name)
  const index = readFileSync(join(dir, "src", "index.ts"), "utf8")
  const namespaces = [...index.matchAll(/^export \* as (\w+) from "\.\/([^"]+)\.ts"$/gm)].map((m) => ({ ns: m[1]!, file: m[2]! }))

  it("exports namespaces only from its main entry point", () => {
    expect(namespaces.length).toBeGreaterThan(0)
    expect(exportsOf(index).filter((statement) => !/^export \* as \w+ from "\.\/[^"]+\.ts"$/.test(statement))).toEqual([])
    expect(index).not.toMatch(/^export (const|function|class|type|interface|\{)/m)
  })

  it("publishes each namespace as an entry point of its own, to npm and to JSR", () => {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).exports as Record<string, { default: string }>
    const jsr = JSON.parse(readFileSync(join(dir, "deno.json"), "utf8")).exports as Record<string, string>
    for (const { file } of namespaces) {
      expect(Object.values(manifest).map((target) => target.default), file).toContain(`./dist/${file}.js`)
      expect(Object.values(jsr), file).toContain(`./src/${file}.ts`)
    }
  })
})
