/**
 * The embedding guide shows code that runs: its first TypeScript block is the embed-memory example
 * verbatim (which `npm run examples` installs from the packed packages and runs), and the README
 * links the guide.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { root } from "./support/apps.ts"

const read = (path: string) => readFileSync(`${root}/${path}`, "utf8")

describe("docs/embedding.md", () => {
  it("opens with the embed-memory example, verbatim", () => {
    const first = /```ts\n([\s\S]*?)```/.exec(read("docs/embedding.md"))
    expect(first?.[1]).toBe(read("examples/embed-memory/main.ts"))
  })

  it("is linked from the README", () => {
    expect(read("README.md")).toContain("(docs/embedding.md)")
  })
})
