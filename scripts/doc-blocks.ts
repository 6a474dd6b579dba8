/**
 * The code blocks of the repository's Markdown (README.md, docs/*.md, the package READMEs), for
 * `npm run examples`, which type-checks every ```ts block against the packed packages.
 *
 * A ```ts block is a whole module a reader can paste into a file: its imports included, and what
 * the reader supplies (a queue client, an adapter of theirs) declared with `declare const`. A
 * block that is deliberately a fragment is fenced ```ts no-check and opens with a `//` comment
 * saying why; it is counted but not compiled.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

export interface CodeBlock {
  /** The Markdown file, relative to the repository. */
  readonly file: string
  /** The line of the block's first code line in that file (1-based). */
  readonly line: number
  /** The fence's info string: the language, then flags such as `no-check`. */
  readonly info: ReadonlyArray<string>
  readonly code: string
}

/** The Markdown files whose blocks a reader copies: the README, the docs, the package READMEs. */
export const markdownFiles = (root: string): ReadonlyArray<string> => [
  "README.md",
  ...Fs.readdirSync(Path.join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`),
  ...Fs.readdirSync(Path.join(root, "packages"))
    .map((dir) => `packages/${dir}/README.md`)
    .filter((file) => Fs.existsSync(Path.join(root, file)))
]

/** Every fenced block of a Markdown text, in order. */
export const codeBlocks = (file: string, markdown: string): ReadonlyArray<CodeBlock> => {
  const blocks: Array<CodeBlock> = []
  const lines = markdown.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S.*)?$/.exec(lines[i]!)
    if (open === null) continue
    const end = lines.findIndex((line, j) => j > i && line === "```")
    if (end === -1) throw new Error(`${file}:${i + 1}: a code block is not closed`)
    blocks.push({ file, line: i + 2, info: (open[1] ?? "").split(/\s+/).filter((word) => word !== ""), code: lines.slice(i + 1, end).join("\n") + "\n" })
    i = end
  }
  return blocks
}

export interface TypeScriptBlocks {
  /** The blocks to compile. */
  readonly checked: ReadonlyArray<CodeBlock>
  /** The `no-check` fragments, each opening with the comment that says why. */
  readonly fragments: ReadonlyArray<CodeBlock>
}

/** The ```ts blocks of the repository's Markdown; fails on a `no-check` fragment that gives no reason. */
export const typeScriptBlocks = (root: string): TypeScriptBlocks => {
  const blocks = markdownFiles(root)
    .flatMap((file) => codeBlocks(file, Fs.readFileSync(Path.join(root, file), "utf8")))
    .filter((block) => block.info[0] === "ts")
  const fragments = blocks.filter((block) => block.info.includes("no-check"))
  for (const fragment of fragments) {
    if (!/^\/\/ \S/.test(fragment.code)) {
      throw new Error(`${fragment.file}:${fragment.line}: a no-check block opens with a // comment saying why it is a fragment`)
    }
  }
  return { checked: blocks.filter((block) => !fragments.includes(block)), fragments }
}

/** The file name a block is written to: its Markdown file and line, so a compiler error points back at it. */
export const blockFileName = (block: CodeBlock): string => `${block.file.replace(/[/.]/g, "_")}_L${block.line}.ts`

/**
 * The packages an `npm install` block installs, by the dependency field they go to: every
 * `npm install [--save-dev] <name>...` line of the shell blocks of `section` (a heading) of `markdown`.
 */
export const installList = (markdown: string, section: string) => {
  const start = markdown.indexOf(section)
  if (start === -1) throw new Error(`no section ${section}`)
  const next = markdown.indexOf("\n## ", start + section.length)
  const text = markdown.slice(start, next === -1 ? undefined : next)
  const list = { dependencies: [] as Array<string>, devDependencies: [] as Array<string> }
  for (const block of codeBlocks(section, text).filter((block) => block.info[0] === "sh")) {
    for (const line of block.code.split("\n")) {
      const words = line.replace(/#.*/, "").trim().split(/\s+/)
      if (words[0] !== "npm" || words[1] !== "install") continue
      const field = words.includes("--save-dev") || words.includes("-D") ? list.devDependencies : list.dependencies
      field.push(...words.slice(2).filter((word) => !word.startsWith("-")))
    }
  }
  return list
}
