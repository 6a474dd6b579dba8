/**
 * The record page's history timeline in a real browser against `npm start` on the embedded
 * database: a deal created, renamed and cleared through the API and a batch, then its timeline
 * newest first with each property's label, old → new, who and how; one property's older changes
 * behind a button; the same timeline in Arabic; axe-core finds no serious or critical violation.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiClient, freePort, killAll, launch, waslMain } from "../../../test/support/processes.ts"
import { launchBrowser, screenshot, seriousViolations } from "./support/browser.ts"

const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/
const FIRST_RUN = /first account created\.\n\s*owner:\s*(\S+)\n\s*password:\s*(\S+)\n\s*token:\s*(\S+)\n/

describe("the history timeline in a browser", () => {
  let dir = ""
  let browser: Browser
  let page: Page
  let baseUrl = ""
  let api: ReturnType<typeof apiClient>
  let dealId = ""

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-history-browser-"))
    const port = await freePort()
    const env: NodeJS.ProcessEnv = { ...process.env, WASL_DATA_DIR: Path.join(dir, "data"), HOST: "127.0.0.1", PORT: String(port), WASL_RATE_LIMIT: "0" }
    delete env.DATABASE_URL
    const wasl = launch("wasl", waslMain, [], env)
    await wasl.waitForStdout(LISTENING, 90_000)
    const block = FIRST_RUN.exec(wasl.stdout())
    if (block === null) throw new Error(`no first-run block\n${wasl.output()}`)
    baseUrl = `http://127.0.0.1:${port}`
    api = apiClient(baseUrl, block[3]!)
    browser = await launchBrowser()
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 }, locale: "en-US" })
    page = await context.newPage()
    page.setDefaultTimeout(15_000)
    await page.goto(`${baseUrl}/app`)
    await page.getByLabel("Email").fill(block[1]!)
    await page.getByLabel("Password").fill(block[2]!)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByTestId("user").waitFor()

    const created = await api("POST", "/api/deals", { deal_name: "Acme", next_steps: "Call" })
    expect(created.status).toBe(201)
    dealId = created.body.data.properties._id
    expect((await api("PUT", `/api/deals/${dealId}`, { deal_name: "Acme renewal", next_steps: null })).status).toBe(200)
    const batch = await api("POST", "/api/deals/batch/update", { inputs: [{ id: dealId, properties: { deal_name: "Acme 2027" } }] })
    expect(batch.status).toBe(200)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await killAll()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  const timeline = () => page.getByRole("region", { name: /^(History|السجل)$/ }).locator("ol.timeline li")

  it("shows the deal's changes newest first: the label, old → new, who and how", async () => {
    await page.goto(`${baseUrl}/app/deals/${dealId}`)
    await page.getByRole("heading", { name: "Acme 2027" }).waitFor()
    const names = timeline().and(page.locator('[data-property="deal_name"]'))
    await expect.poll(() => names.count()).toBe(3)
    expect(await names.nth(0).textContent()).toContain("Deal name: Acme renewal → Acme 2027")
    expect(await names.nth(0).textContent()).toContain("by you · batch")
    expect(await names.nth(1).textContent()).toContain("Deal name: Acme → Acme renewal")
    expect(await names.nth(1).textContent()).toContain("by you · edit")
    expect(await names.nth(2).textContent()).toContain("Deal name set to Acme")
    const steps = timeline().and(page.locator('[data-property="next_steps"]'))
    expect(await steps.first().textContent()).toContain("cleared (was Call)")
    const violations = await seriousViolations(page)
    expect(violations, JSON.stringify(violations, null, 1)).toEqual([])
    await screenshot(page, "record-history")
  })

  it("loads older changes on demand", async () => {
    for (let i = 0; i < 20; i++) expect((await api("PUT", `/api/deals/${dealId}`, { amount: 100 + i })).status).toBe(200)
    await page.reload()
    await expect.poll(() => timeline().count()).toBe(20)
    await page.getByRole("button", { name: "Older changes" }).click()
    await expect.poll(() => timeline().filter({ hasText: "Deal name set to Acme" }).count()).toBe(1)
    expect(await page.getByRole("button", { name: "Older changes" }).count()).toBe(0)
  })

  it("shows the timeline in Arabic", async () => {
    await page.getByRole("button", { name: "العربية" }).click()
    await page.getByRole("heading", { name: "السجل" }).waitFor()
    const names = timeline().and(page.locator('[data-property="deal_name"]'))
    await expect.poll(() => names.first().textContent()).toContain("Acme renewal ← Acme 2027")
    expect(await names.first().textContent()).toContain("بواسطة أنت · دفعة")
    expect(await names.last().textContent()).toContain("إلى Acme")
    const violations = await seriousViolations(page)
    expect(violations, JSON.stringify(violations, null, 1)).toEqual([])
    await page.getByRole("button", { name: "English" }).click()
  })
})
