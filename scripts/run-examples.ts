/**
 * `npm run examples`: proves the packages work outside this repository, as a user gets them.
 *
 * Builds and packs each package of `packages/` (`npm pack`), then for each example copies its
 * folder into a fresh temporary directory, points its `@wasl/*` dependencies at the tarballs,
 * installs with npm (registry packages beside the tarballs, never the workspace), type-checks it
 * against the installed declarations, and runs it: on Node 24, and for `deno` on Deno. Prints
 * each tarball's size and each step's result; exits 1 at the first failure (keeping the work
 * directory to look at). `npm run examples -- <name>...` runs only those examples.
 *
 * `docs` is the Markdown's code as a reader pastes it: every ```ts block of README.md, docs/*.md
 * and the package READMEs (scripts/doc-blocks.ts) is a module of one project that installed the
 * tarballs and the install list of docs/embedding.md, type-checked there; the guide's first
 * program also runs.
 *
 * `embed-postgres` needs a PostgreSQL server: `TEST_DATABASE_URL` (or `DATABASE_URL`, default
 * `postgres://postgres@127.0.0.1:5432/postgres`), on which it creates and drops a scratch database.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { blockFileName, installList, typeScriptBlocks } from "./doc-blocks.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const bin = (name: string) => Path.join(root, "node_modules", ".bin", name)
const node = bin("node")
const npm = process.platform === "win32" ? "npm.cmd" : "npm"

const step = (text: string) => console.log(`\n▶ ${text}`)
const run = (command: string, args: ReadonlyArray<string>, cwd: string, env: NodeJS.ProcessEnv = {}) =>
  execFileSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", env: { ...process.env, ...env } })

const work = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-examples-"))
const tarballs = Path.join(work, "tarballs")
Fs.mkdirSync(tarballs)

// 1. Build and pack ---------------------------------------------------------------------------
const packed = new Map<string, string>()
const buildAndPack = () => {
  step("build the packages")
  run(npm, ["run", "--silent", "build"], root)
  for (const dir of Fs.readdirSync(Path.join(root, "packages"))) {
    const [info] = JSON.parse(run(npm, ["pack", "--json", "--pack-destination", tarballs], Path.join(root, "packages", dir)))
    packed.set(info.name, Path.join(tarballs, info.filename))
    console.log(`  ${info.filename}: ${(info.size / 1024).toFixed(1)} KiB packed, ${(info.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${info.entryCount} files`)
  }
}

// 2. Install an example from the tarballs ----------------------------------------------------------
const install = (name: string): string => {
  const dir = Path.join(work, name)
  Fs.cpSync(Path.join(root, "examples", name), dir, { recursive: true, dereference: true })
  installProject(name, dir)
  return dir
}

/** Installs the project in `dir` (its package.json and tsconfig.json) from the tarballs and the registry, and type-checks it. */
const installProject = (name: string, dir: string) => {
  const manifestPath = Path.join(dir, "package.json")
  const manifest = JSON.parse(Fs.readFileSync(manifestPath, "utf8"))
  const local = Object.fromEntries([...packed].map(([pkg, file]) => [pkg, `file:${file}`]))
  for (const field of ["dependencies", "devDependencies"]) {
    for (const pkg of Object.keys(manifest[field] ?? {})) if (local[pkg] !== undefined) manifest[field][pkg] = local[pkg]
  }
  // The packages depend on each other by version; the tarballs stand in for the registry.
  manifest.overrides = local
  Fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2))
  step(`${name}: npm install (tarballs + registry) in ${dir}`)
  run(npm, ["install", "--no-audit", "--no-fund", "--loglevel=error"], dir)
  if (Fs.existsSync(Path.join(dir, "tsconfig.json"))) {
    step(`${name}: type-check against the installed declarations`)
    run(bin("tsc"), ["-p", "tsconfig.json"], dir)
  }
}

const expectIn = (name: string, output: string, pattern: RegExp) => {
  if (!pattern.test(output)) throw new Error(`${name}: expected ${pattern} in its output:\n${output}`)
}

// 3. The examples -----------------------------------------------------------------------------------
const embedMemory = () => {
  const dir = install("embed-memory")
  step("embed-memory: node main.ts")
  const output = run(node, ["main.ts"], dir)
  console.log(output)
  expectIn("embed-memory", output, /"deal_name": "Big deal"/)
  expectIn("embed-memory", output, /"event": "deal-created"/)
}

const deno = () => {
  const dir = install("deno")
  step("deno: deno check main.ts (the installed declarations, read by Deno)")
  run(bin("deno"), ["check", "main.ts"], dir, { NO_COLOR: "1" })
  step("deno: deno run main.ts (the embed-memory example)")
  const output = run(bin("deno"), ["run", "--allow-env", "--allow-read", "--allow-sys", "main.ts"], dir, { NO_COLOR: "1" })
  console.log(output)
  expectIn("deno", output, /"deal_name": "Big deal"/)
  expectIn("deno", output, /"event": "deal-created"/)
}

const propertyTest = () => {
  const dir = install("property-test")
  step("property-test: vitest run")
  console.log(run(node, [Path.join(dir, "node_modules", "vitest", "vitest.mjs"), "run"], dir, { CI: "true" }))
}

const waitFor = (child: ChildProcess, output: () => string, pattern: RegExp, ms: number) =>
  new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}:\n${output()}`)), ms)
    const check = () => {
      const match = pattern.exec(output())
      if (match !== null) {
        clearTimeout(timer)
        resolve(match)
      }
    }
    child.stdout!.on("data", check)
    child.once("exit", () => reject(new Error(`exited before ${pattern}:\n${output()}`)))
  })

const embedPostgres = async () => {
  const dir = install("embed-postgres")
  const server = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"
  const name = `wasl_example_${randomBytes(4).toString("hex")}`
  const psql = (sql: string) => run("psql", [server, "-v", "ON_ERROR_STOP=1", "-qc", sql], dir)
  psql(`CREATE DATABASE ${name}`)
  const url = new URL(server)
  url.pathname = `/${name}`
  const port = String(20_000 + Math.floor(Math.random() * 20_000))
  step(`embed-postgres: node main.ts on ${url.pathname.slice(1)}, port ${port}`)
  let out = ""
  const child = spawn(node, ["main.ts"], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: url.toString(), WASL_SECRET_KEY: randomBytes(32).toString("hex"), PORT: port },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk))
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk))
  try {
    const [, token] = await waitFor(child, () => out, /token: (\S+)/, 60_000)
    await waitFor(child, () => out, /listening on/, 60_000)
    const base = `http://127.0.0.1:${port}`
    const hello = await fetch(`${base}/hello`)
    const deal = await fetch(`${base}/api/deals`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ deal_name: "Mounted deal" })
    })
    const answers = { hello: [hello.status, await hello.text()], deal: [deal.status, await deal.json()] }
    console.log(JSON.stringify(answers, null, 2))
    if (answers.hello[0] !== 200 || answers.deal[0] !== 201) throw new Error("embed-postgres: unexpected answers")
  } finally {
    child.kill("SIGTERM")
    await new Promise((resolve) => child.once("close", resolve))
    psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
  console.log(out.split("\n").filter((line) => /worker|listening/.test(line)).join("\n"))
}

const docs = () => {
  const { checked, fragments } = typeScriptBlocks(root)
  const dir = Path.join(work, "docs")
  Fs.mkdirSync(Path.join(dir, "blocks"), { recursive: true })
  for (const block of checked) Fs.writeFileSync(Path.join(dir, "blocks", blockFileName(block)), block.code)
  // What the guide's install list installs: the tarballs for @wasl/*, the workspace's versions of the rest.
  const guide = Fs.readFileSync(Path.join(root, "docs", "embedding.md"), "utf8")
  const versions = (names: ReadonlyArray<string>) =>
    Object.fromEntries(names.map((pkg) => [
      pkg,
      packed.has(pkg) ? "*" : `^${JSON.parse(Fs.readFileSync(Path.join(root, "node_modules", pkg, "package.json"), "utf8")).version}`
    ]))
  const list = installList(guide, "## Install")
  Fs.writeFileSync(
    Path.join(dir, "package.json"),
    JSON.stringify({ name: "wasl-docs", private: true, type: "module", dependencies: versions(list.dependencies), devDependencies: versions(list.devDependencies) })
  )
  const examplesConfig = JSON.parse(Fs.readFileSync(Path.join(root, "examples", "embed-postgres", "tsconfig.json"), "utf8"))
  Fs.writeFileSync(
    Path.join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { ...examplesConfig.compilerOptions, moduleDetection: "force" }, include: ["blocks/*.ts"] })
  )
  console.log(`  ${checked.length} ts blocks to compile, ${fragments.length} no-check fragments:`)
  for (const block of [...checked, ...fragments]) console.log(`    ${block.file}:${block.line}${fragments.includes(block) ? " (no-check)" : ""}`)
  installProject("docs", dir)
  const first = checked.find((block) => block.file === "docs/embedding.md")
  if (first === undefined) throw new Error("docs: docs/embedding.md has no ts block")
  step(`docs: node ${blockFileName(first)} (the guide's first program)`)
  const output = run(node, [Path.join("blocks", blockFileName(first))], dir)
  console.log(output)
  expectIn("docs", output, /"deal_name": "Big deal"/)
  expectIn("docs", output, /"event": "deal-created"/)
}

const examples: Record<string, () => void | Promise<void>> = {
  docs,
  "embed-memory": embedMemory,
  deno,
  "property-test": propertyTest,
  "embed-postgres": embedPostgres
}
// `npm run examples -- deno` runs one; no names run them all.
const chosen = process.argv.slice(2).length === 0 ? Object.keys(examples) : process.argv.slice(2)
try {
  buildAndPack()
  for (const name of chosen) {
    const example = examples[name]
    if (example === undefined) throw new Error(`no example named ${name}; known: ${Object.keys(examples).join(", ")}`)
    await example()
  }
  Fs.rmSync(work, { recursive: true, force: true })
  console.log(`\n✔ ran ${chosen.join(", ")}`)
} catch (error) {
  const detail = (error as { stdout?: unknown }).stdout
  console.error(`\n✘ ${error instanceof Error ? error.message : String(error)}${typeof detail === "string" ? `\n${detail}` : ""}`)
  console.error(`(work directory kept: ${work})`)
  process.exitCode = 1
}
