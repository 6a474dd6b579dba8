/**
 * No package's sources import in a cycle: each module's relative imports of `.ts` files (types
 * included) form a graph without loops, so every module can be read, and loaded, after what it uses.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const RELATIVE_IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"(\.{1,2}\/[^"]+\.ts)"/g

const sourcesOf = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesOf(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

/** The cycles of the graph, each as the modules it passes through, one per strongly connected loop found. */
const cyclesOf = (graph: ReadonlyMap<string, ReadonlyArray<string>>): ReadonlyArray<ReadonlyArray<string>> => {
  const cycles: Array<ReadonlyArray<string>> = []
  const done = new Set<string>()
  const visit = (node: string, path: Array<string>) => {
    const at = path.indexOf(node)
    if (at !== -1) return void cycles.push([...path.slice(at), node])
    if (done.has(node)) return
    path.push(node)
    for (const next of graph.get(node) ?? []) visit(next, path)
    path.pop()
    done.add(node)
  }
  for (const node of graph.keys()) visit(node, [])
  return cycles
}

const packages = readdirSync(join(root, "packages"))

describe("import graph", () => {
  it.each(packages)("packages/%s/src has no import cycle", (name) => {
    const src = join(root, "packages", name, "src")
    const graph = new Map(sourcesOf(src).map((file) => [
      file,
      [...readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)].map((match) => resolve(dirname(file), match[1]!))
    ]))
    const cycles = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(src, file)).join(" → "))
    expect(cycles).toEqual([])
  })
})
