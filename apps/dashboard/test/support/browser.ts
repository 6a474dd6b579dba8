/**
 * The browser of the dashboard's suite: Debian's chromium (never a browser Playwright would
 * download), axe-core injected into a page to check it, and the JavaScript a page load fetched.
 */
import { createRequire } from "node:module"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { gzipSync } from "node:zlib"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"

export const CHROMIUM = process.env.WASL_CHROMIUM ?? "/usr/bin/chromium"

const require = createRequire(import.meta.url)
const AXE_SOURCE = Fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] })

/**
 * The context the suites drive the dashboard in: a desktop in English, with CSP bypassed, since
 * the page's (default-src 'self') would refuse axe-core's injected script.
 */
export const dashboardContext = (browser: Browser): Promise<BrowserContext> =>
  browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 }, locale: "en-US" })

/** A page of `context` as the suites drive it: 15 s a step, and every confirmation (deleting asks) accepted. */
export const dashboardPage = async (context: BrowserContext): Promise<Page> => {
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  page.on("dialog", (dialog) => void dialog.accept())
  return page
}

export interface Violation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/** axe-core's serious and critical violations on the page as it is now. */
export const seriousViolations = async (page: Page): Promise<ReadonlyArray<Violation>> => {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE })
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Array<any> }> } }).axe
    const { violations } = await axe.run(document)
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n: any) => String(n.target)) }))
  })
}

/** Writes a screenshot under the folder `WASL_SCREENSHOTS` names (`npm run screenshots`), if set. */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  const folder = process.env.WASL_SCREENSHOTS
  if (folder === undefined || folder === "") return
  Fs.mkdirSync(folder, { recursive: true })
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: Path.join(folder, `${name}.png`), fullPage: false })
}

/** The JavaScript `load` fetched, raw and gzip-compressed (bytes), and the encodings it came in. */
export const javascriptWeight = async (page: Page, load: () => Promise<unknown>) => {
  const bodies: Array<Promise<Buffer>> = []
  const encodings: Array<string> = []
  const listener = (response: import("playwright-core").Response) => {
    if (response.request().resourceType() !== "script") return
    bodies.push(response.body())
    encodings.push(response.headers()["content-encoding"] ?? "identity")
  }
  page.on("response", listener)
  await load()
  page.off("response", listener)
  const scripts = await Promise.all(bodies)
  return {
    files: scripts.length,
    encodings,
    raw: scripts.reduce((sum, body) => sum + body.length, 0),
    gzip: scripts.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0)
  }
}
