/** Where the apps live and which node runs them, for tests that drive them as processes. */
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("../..", import.meta.url))
export const waslMain = Path.join(root, "apps", "wasl", "src", "main.ts")
export const cliMain = Path.join(root, "apps", "cli", "src", "main.ts")

/** The vitest worker's node when it can run the apps (≥ 22.19), else the pinned one. */
export const nodeBinary = (): string => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
  return major > 22 || (major === 22 && minor >= 19)
    ? process.execPath
    : Path.join(root, "node_modules", ".bin", "node")
}
