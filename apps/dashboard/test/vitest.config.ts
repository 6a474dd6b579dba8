/**
 * The dashboard's browser suite (`npm run test:browser`): Playwright driving Debian's chromium
 * against a real `npm start` process. Its files end in `.browser.ts`, which the root
 * `vitest.config.ts` (the main `npm test`) does not include.
 */
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

export default defineConfig({
  root: fileURLToPath(new URL("../../..", import.meta.url)),
  test: {
    include: ["apps/dashboard/test/**/*.browser.ts"],
    pool: "forks",
    testTimeout: 90_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // As long as a Playwright step may wait (15 s): on a busy machine a sign-in's password hash
    // alone can take more than expect.poll's default second.
    expect: { poll: { timeout: 15_000 } }
  }
})
