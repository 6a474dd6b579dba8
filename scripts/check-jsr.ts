/**
 * `npm run check:jsr`: each package as JSR and `deno doc` see it.
 *
 * - `deno publish --dry-run` in each package's directory: its `deno.json` is complete and its
 *   public API has no slow types (every export explicitly typed).
 * - `deno doc --lint` on each package's entry points: every export, and every member of an
 *   exported type, is documented, and no export refers to a type the package keeps private.
 *
 * Two kinds of diagnostic are accepted, and counted, both `private-type-ref`:
 *
 * - naming a type that the package does not declare (Effect's `Effect`, `Layer`, ..., fast-check's
 *   `Arbitrary`, another `@wasl/*` package's types). Deno reports those for every npm dependency,
 *   because npm packages are local files to it (its exemption covers `jsr:` and `https:` modules
 *   only); they are public in the package that declares them;
 * - an exported class `X` naming its module-private base `XBase` (`class X extends XBase {}`, the
 *   value `Context.Service`, `Schema.ErrorClass` and the like make): JSR wants a class's base to be
 *   a named value, and the base stays out of the public surface, since every member it gives is
 *   the class's own and documented there.
 *
 * Every other diagnostic fails the check.
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const deno = Path.join(root, "node_modules", ".bin", "deno")

const run = (args: ReadonlyArray<string>, cwd: string) => {
  const result = spawnSync(deno, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` }
}

/** Every name the package's sources declare at the top level of a module. */
const declaredNames = (src: string): ReadonlySet<string> => {
  const names = new Set<string>()
  const DECLARATION = /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class|const|let|function|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm
  for (const file of Fs.readdirSync(src, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts")) continue
    for (const match of Fs.readFileSync(Path.join(src, file), "utf8").matchAll(DECLARATION)) names.add(match[1]!)
  }
  return names
}

interface Diagnostic {
  readonly kind: string
  readonly text: string
}

const diagnosticsOf = (output: string): ReadonlyArray<Diagnostic> =>
  output.split(/\n(?=(?:error|warning)\[)/).flatMap((block) => {
    const kind = /^(?:error|warning)\[([a-z-]+)\]/.exec(block)?.[1]
    return kind === undefined ? [] : [{ kind, text: block.trim() }]
  })

let failed = false
for (const dir of Fs.readdirSync(Path.join(root, "packages"))) {
  const pkg = Path.join(root, "packages", dir)
  const config = JSON.parse(Fs.readFileSync(Path.join(pkg, "deno.json"), "utf8"))
  const entries: ReadonlyArray<string> = Object.values(config.exports)

  const publish = run(["publish", "--dry-run", "--allow-dirty"], pkg)
  console.log(`${config.name}: deno publish --dry-run ${publish.ok ? "passed" : "FAILED"}`)
  if (!publish.ok) {
    failed = true
    console.log(publish.output)
  }

  const ours = declaredNames(Path.join(pkg, "src"))
  const doc = run(["doc", "--lint", ...entries], pkg)
  const diagnostics = diagnosticsOf(doc.output)
  const references = (d: Diagnostic) => /public type '([^']+)' references private type '([^']+)'/.exec(d.text)
  const external = diagnostics.filter((d) => {
    const referenced = references(d)?.[2]
    return d.kind === "private-type-ref" && referenced !== undefined && !ours.has(referenced.split(".")[0]!)
  })
  const bases = diagnostics.filter((d) => {
    const names = references(d)
    return d.kind === "private-type-ref" && names !== null && names[2] === `${names[1]}Base`
  })
  const rest = diagnostics.filter((d) => !external.includes(d) && !bases.includes(d))
  console.log(
    `${config.name}: deno doc --lint ${entries.join(" ")}: ${rest.length} diagnostics` +
      ` (and ${external.length} references to other packages' public types, ${bases.length} classes' private bases)`
  )
  if (rest.length > 0 || (!doc.ok && diagnostics.length === 0)) {
    failed = true
    console.log(rest.length > 0 ? rest.map((d) => d.text).join("\n\n") : doc.output)
  }
}
process.exitCode = failed ? 1 : 0
