/**
 * After `tsc -b`: rewrites the relative `.ts` specifiers in the packages' emitted declarations
 * (`packages/<pkg>/dist/**\/*.d.ts`) to `.js`, as `rewriteRelativeImportExtensions` already does
 * for the JavaScript. TypeScript leaves them as `.ts` in declarations (microsoft/TypeScript#61037,
 * open); TypeScript itself resolves them, but Deno and other tools reading the published types
 * look for `dist/x.ts`, which does not exist. No maintained tool does only this, hence these few
 * lines. Idempotent, and column-preserving, so the declaration maps stay exact.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const packages = fileURLToPath(new URL("../packages/", import.meta.url))
const RELATIVE_TS = /((?:from\s+|import\(\s*)["']\.{1,2}\/[^"']*?)(?<!\.d)\.ts(["'])/g

let rewritten = 0
for (const pkg of Fs.readdirSync(packages)) {
  const dist = Path.join(packages, pkg, "dist")
  if (!Fs.existsSync(dist)) continue
  for (const file of Fs.readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".d.ts")) continue
    const path = Path.join(dist, file)
    const text = Fs.readFileSync(path, "utf8")
    const fixed = text.replace(RELATIVE_TS, "$1.js$2")
    if (fixed !== text) {
      Fs.writeFileSync(path, fixed)
      rewritten++
    }
  }
}
if (rewritten > 0) console.log(`rewrote the relative imports of ${rewritten} declaration files`)
