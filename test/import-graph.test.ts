/**
 * No package's sources import in a cycle: each module's relative imports of `.ts` files (types
 * included) form a graph without loops, so every module can be read, and loaded, after what it uses.
 * The core's folders (its rooms) are stacked: each imports only from the rooms below it and from
 * the modules at its root that import no room (ids, object kinds, errors, durations), so a lower
 * room (`auth/`) never reaches back up into a higher one (`records/`, `account/`).
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

const importsOf = (file: string): ReadonlyArray<string> =>
  [...readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)].map((match) => resolve(dirname(file), match[1]!))

/** The core's rooms, lowest first: a room may import from the rooms before it, never after. */
const CORE_ROOMS = [
  "wire",
  "validation",
  "health",
  "mail",
  "retention",
  "auth",
  "account",
  "records",
  "events",
  "notes",
  "exports",
  "imports",
  "idempotency",
  "webhooks",
  "messaging",
  "whatsapp",
  "use-cases",
  "testing"
]

describe("import graph", () => {
  it.each(packages)("packages/%s/src has no import cycle", (name) => {
    const src = join(root, "packages", name, "src")
    const graph = new Map(sourcesOf(src).map((file) => [file, importsOf(file)]))
    const cycles = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(src, file)).join(" → "))
    expect(cycles).toEqual([])
  })

  it("packages/core/src: each room imports only from the rooms below it and the root modules that import no room", () => {
    const src = join(root, "packages", "core", "src")
    const roomOf = (file: string): string | undefined => {
      const path = relative(src, file).split("/")
      return path.length > 1 ? path[0] : undefined
    }
    const files = sourcesOf(src)
    expect([...new Set(files.map(roomOf).filter((room) => room !== undefined))].sort()).toEqual([...CORE_ROOMS].sort())
    const ground = new Set(files.filter((file) => roomOf(file) === undefined && importsOf(file).every((to) => roomOf(to) === undefined)))
    const upward = files.flatMap((file) => {
      const room = roomOf(file)
      if (room === undefined) return []
      return importsOf(file).filter((to) => {
        const target = roomOf(to)
        return target === undefined ? !ground.has(to) : CORE_ROOMS.indexOf(target) > CORE_ROOMS.indexOf(room)
      }).map((to) => `${relative(src, file)} → ${relative(src, to)}`)
    })
    expect(upward).toEqual([])
  })
})
