/**
 * The boundaries of `@wasl/core/testing` (packages/core/src/testing), read from the sources:
 *
 * - the kit imports only `effect`, `fast-check` and the core's own files (no `node:`, no adapter):
 *   it must run under Deno and in any project that installs the core;
 * - the core's main entry (src/index.ts) never reaches the kit or fast-check, so the main entry
 *   works without the optional fast-check peer dependency.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"

const CORE_SRC = Path.resolve(import.meta.dirname, "../packages/core/src")
const KIT = Path.join(CORE_SRC, "testing")

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^"';]*?\sfrom\s)?\s*["']([^"']+)["']/g

const importsOf = (file: string): ReadonlyArray<string> =>
  [...Fs.readFileSync(file, "utf8").matchAll(IMPORT)].map((match) => match[1]!)

const isRelative = (specifier: string) => specifier.startsWith("./") || specifier.startsWith("../")

/** The files and packages the module graph of `entry` reaches, following relative imports. */
const reach = (entry: string): { readonly files: ReadonlySet<string>; readonly packages: ReadonlySet<string> } => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const specifier of importsOf(file)) {
      if (isRelative(specifier)) visit(Path.resolve(Path.dirname(file), specifier))
      else packages.add(specifier)
    }
  }
  visit(entry)
  return { files, packages }
}

describe("@wasl/core/testing boundaries", () => {
  it("the kit imports only effect, fast-check and the core's own files", () => {
    const kitFiles = Fs.readdirSync(KIT).filter((name) => name.endsWith(".ts")).map((name) => Path.join(KIT, name))
    expect(kitFiles.length).toBeGreaterThan(0)
    for (const file of kitFiles) {
      for (const specifier of importsOf(file)) {
        const allowed = isRelative(specifier)
          ? Path.resolve(Path.dirname(file), specifier).startsWith(CORE_SRC + Path.sep)
          : specifier === "effect" || specifier.startsWith("effect/") || specifier === "fast-check"
        expect(allowed, `${Path.relative(CORE_SRC, file)} imports ${specifier}`).toBe(true)
      }
    }
  })

  it("the core's main entry reaches neither the kit nor fast-check", () => {
    const { files, packages } = reach(Path.join(CORE_SRC, "index.ts"))
    expect(files.size).toBeGreaterThan(50)
    expect([...files].filter((file) => file.startsWith(KIT + Path.sep))).toEqual([])
    expect([...packages].filter((name) => !(name === "effect" || name.startsWith("effect/")))).toEqual([])
  })

  it("the import reader sees the kit's imports (so the checks above read something)", () => {
    const { packages } = reach(Path.join(KIT, "index.ts"))
    expect(packages).toContain("fast-check")
    expect(packages).toContain("effect/testing")
  })
})
