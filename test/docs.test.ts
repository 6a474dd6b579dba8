/**
 * The embedding guide shows code that runs: its first TypeScript block is the embed-memory example
 * verbatim (which `npm run examples` installs from the packed packages and runs), and the README
 * links the guide. The package READMEs, read on npm and JSR without the rest of the repository,
 * link by absolute address, and each manifest says where in the repository its package lives.
 */
import { readdirSync, readFileSync } from "node:fs"
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

describe("the package READMEs", () => {
  const packages = readdirSync(`${root}/packages`)

  // A README ships in the package's tarball, where the repository's other files are not: a
  // relative link there leads nowhere on npm or JSR.
  it.each(packages)("%s links only absolute addresses", (dir) => {
    const targets = [...read(`packages/${dir}/README.md`).matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1])
    expect(targets.filter((target) => !/^https:\/\//.test(target!))).toEqual([])
  })

  it.each(packages)("%s names its place in the repository", (dir) => {
    const manifest = JSON.parse(read(`packages/${dir}/package.json`))
    expect(manifest.repository).toEqual({ type: "git", url: "git+https://github.com/wasl-crm/wasl.git", directory: `packages/${dir}` })
  })
})
