import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // One process per test file: PGlite (WebAssembly) instances, env and the data-directory lock
    // (which identifies its holder by pid) stay per file; worker threads would share one pid.
    pool: "forks",
    // Starting an embedded PGlite takes ~0.5 s from the test template, ~2.5 s with initdb.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000
  }
})
