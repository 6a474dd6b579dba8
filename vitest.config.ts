import { readdirSync, readFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

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

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // One process per test file: PGlite (WebAssembly) instances, env and the data-directory lock
    // (which identifies its holder by pid) stay per file; worker threads would share one pid.
    pool: "forks",
    // One file per core, and at least two at once: most files spend their time waiting on child
    // processes, sockets and PostgreSQL rather than computing, and vitest's default (cores − 1)
    // runs a single file at a time on a two-core machine. Files share nothing but the PostgreSQL
    // server, where each makes its own database.
    maxWorkers: Math.max(2, availableParallelism()),
    // Starting an embedded PGlite takes ~0.5 s from the test template, ~2.5 s with initdb.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000
  }
})
