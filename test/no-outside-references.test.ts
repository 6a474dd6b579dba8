/**
 * The repository explains itself: no source, doc or comment points at a document a reader of a
 * clone does not have (a numbered section of some outside text, a sibling `shared` folder, a rule
 * number of an outside architecture note). A comment states the rule it relies on, in the
 * project's own words, or links a file of the repository.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")

/** What the build writes or installs, and git's own folder: not written by hand. */
const GENERATED = new Set([".git", "node_modules", "dist", ".tsbuild", ".wasl-data"])
const TEXT = /\.(?:ts|tsx|js|mjs|md|json|yaml|yml|html|css|sql|sh)$|^run$/

/**
 * The references refused: the section sign, a path into a `shared` folder beside the checkout, an
 * architecture note's rule or section, and the outside documents by name. (Written so that this
 * file does not match itself.)
 */
const OUTSIDE_REFERENCE = new RegExp(
  [
    "\\u00a7",
    "\\.\\./shared\\b",
    "ARCHITECTURE (?:rule|\")",
    "interface-spe[c]",
    "decisions\\.md",
    "\\b[Ss]pec \\d+\\.\\d+"
  ].join("|")
)

const filesOf = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (GENERATED.has(entry.name) || entry.name === "package-lock.json") return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesOf(path) : TEXT.test(entry.name) ? [path] : []
  })

describe("no outside references", () => {
  it("no file of the repository cites a section, rule or document from outside it", () => {
    const files = filesOf(root)
    expect(files.length).toBeGreaterThan(500)
    const hits = files.flatMap((file) =>
      readFileSync(file, "utf8").split("\n").flatMap((line, index) =>
        OUTSIDE_REFERENCE.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : []
      )
    )
    expect(hits).toEqual([])
  })
})
