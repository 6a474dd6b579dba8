import { readdirSync, readFileSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { configDefaults, defineConfig } from "vitest/config"

const packages = fileURLToPath(new URL("./packages/", import.meta.url))

/**
 * Tests run the library packages' sources, not their built `dist/`: each `@wasl/<pkg>[/<entry>]`
 * that a package exports as `./dist/<path>.js` resolves to `packages/<pkg>/src/<path>.ts`, so a
 * test sees the code as edited and every file loads one module instance (the apps started as
 * processes by the end-to-end tests run the built packages, which `npm test` builds first).
 */
const sourceAliases = readdirSync(packages).flatMap((dir) => {
  const manifest = JSON.parse(readFileSync(`${packages}${dir}/package.json`, "utf8"))
  return Object.entries(manifest.exports as Record<string, string | { default: string }>).flatMap(([entry, target]) => {
    const built = typeof target === "string" ? target : target.default
    if (!built.startsWith("./dist/")) return []
    const name = entry === "." ? manifest.name : `${manifest.name}/${entry.slice(2)}`
    const source = `${packages}${dir}/src/${built.slice("./dist/".length).replace(/\.js$/, ".ts")}`
    return [{ find: new RegExp(`^${name.replace(/[/.]/g, "\\$&")}$`), replacement: source }]
  })
})

/**
 * Files that assert a state only a fresh process has: they count the `new Function` calls of
 * Effect's Schema JIT and expect none before compiling, while a process that already ran another
 * file holds schemas (the API's, the row decoders') compiled by it.
 */
const needFreshProcess = ["packages/adapters/test/rows.test.ts", "packages/http/test/schema-jit.test.ts"]

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    // Processes, not worker threads: the data-directory lock identifies its holder by pid, which
    // the threads of one process would share while running files at the same time.
    pool: "forks",
    // One file per core, and at least two at once: most files spend their time waiting on child
    // processes, sockets and PostgreSQL rather than computing, and vitest's default (cores − 1)
    // runs a single file at a time on a two-core machine. Files running at the same time share
    // nothing but the PostgreSQL server, where each makes its own database.
    maxWorkers: Math.max(2, availableParallelism()),
    // Starting an embedded PGlite takes about 1.5 s from the test template, about 4 s with initdb.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // The end-to-end tests start hundreds of node processes (the apps, the CLI), each compiling the
    // same modules: Node's compile cache keeps their compiled code on disk across processes (its
    // entries are checked against the sources), about a sixth of a CLI run's start.
    env: { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), "wasl-test-compile-cache") },
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...needFreshProcess],
          // A worker process runs file after file (no test changes the environment or a global,
          // and each makes its own databases and directories). That halves the suite on two
          // cores: a process that already ran a file has PGlite's WebAssembly compiled and
          // Effect's code optimised by V8, where a fresh one starts cold for every file.
          isolate: false
        }
      },
      { extends: true, test: { name: "fresh process", include: needFreshProcess } }
    ]
  }
})
