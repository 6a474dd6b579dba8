/**
 * The deals and tickets board in a real browser against `npm start` on the embedded database: a
 * deals pipeline of three stages chosen with the picker, its columns' counts and amount totals
 * over more records than a page of the list, a deal dragged to another stage and one moved with
 * the keyboard (each a PUT the API then shows), the board in Arabic (right to left, the arrow
 * keys mirrored), and the tickets' default pipeline without amounts. axe-core checks the board.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiClient, freePort, killAll, launch, waslMain } from "../../../test/support/processes.ts"
import { launchBrowser, seriousViolations } from "./support/browser.ts"

const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/
const FIRST_RUN = /first account created\.\n\s*owner:\s*(\S+)\n\s*password:\s*(\S+)\n\s*token:\s*(\S+)\n/
/** More deals in one stage than the list's largest page (100). */
const LEADS = 120

describe("the deals and tickets board in a browser", () => {
  let dir = ""
  let browser: Browser
  let page: Page
  let baseUrl = ""
  let api: ReturnType<typeof apiClient>
  const deals: Record<string, string> = {}

  const column = (stage: string) => page.locator(`section.board-column[data-stage="${stage}"]`)
  const count = (stage: string) => column(stage).getByTestId("stage-count").textContent()
  const amount = (stage: string) => column(stage).getByTestId("stage-amount").textContent()
  const picker = () => page.getByRole("combobox", { name: /^(Pipeline|المسار)$/ })
  const stageOf = async (id: string) => (await api("GET", `/api/deals/${id}`)).body.data.properties.deal_stage

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-dashboard-board-"))
    const port = await freePort()
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      WASL_DATA_DIR: Path.join(dir, "data"),
      HOST: "127.0.0.1",
      PORT: String(port),
      WASL_MAIL_OUTBOX: Path.join(dir, "mail.jsonl"),
      WASL_RATE_LIMIT: "0"
    }
    delete env.DATABASE_URL
    const wasl = launch("wasl", waslMain, [], env)
    await wasl.waitForStdout(LISTENING, 150_000)
    const block = FIRST_RUN.exec(wasl.stdout())
    if (block === null) throw new Error(`no first-run block\n${wasl.output()}`)
    baseUrl = `http://127.0.0.1:${port}`
    api = apiClient(baseUrl, block[3]!)

    const pipeline = await api("POST", "/api/deals/pipelines", {
      name: { en: "Partners", ar: "الشركاء" },
      stages: [
        { internal_name: "lead", name: { en: "Lead", ar: "عميل محتمل" }, probability: 0.1, closed: false },
        { internal_name: "talks", name: { en: "Talks", ar: "مفاوضات" }, probability: 0.5, closed: false },
        { internal_name: "signed", name: { en: "Signed", ar: "موقّع" }, probability: 1, closed: true, won: true }
      ]
    })
    expect(pipeline.status, pipeline.text).toBe(201)
    const pipelineId = pipeline.body.data._id
    for (let first = 1; first <= LEADS; first += 60) {
      const inputs = Array.from({ length: 60 }, (_, i) => ({
        properties: { deal_name: `Lead ${first + i}`, pipeline: pipelineId, deal_stage: "lead", amount: first + i }
      }))
      const created = await api("POST", "/api/deals/batch/create", { inputs })
      expect(created.status, created.text).toBe(201)
    }
    for (const [name, value] of [["Acme", 1000], ["Beta", 250]] as const) {
      const created = await api("POST", "/api/deals", { deal_name: name, pipeline: pipelineId, deal_stage: "talks", amount: value })
      expect(created.status, created.text).toBe(201)
      deals[name] = created.body.data.properties._id
    }
    // A deal of the default pipeline, which the Partners board never shows.
    expect((await api("POST", "/api/deals", { deal_name: "Elsewhere", amount: 5 })).status).toBe(201)

    browser = await launchBrowser()
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 }, locale: "en-US" })
    page = await context.newPage()
    page.setDefaultTimeout(15_000)
    await page.goto(`${baseUrl}/app`)
    await page.getByLabel("Email").fill(block[1]!)
    await page.getByLabel("Password").fill(block[2]!)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByTestId("user").waitFor()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await killAll()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("shows a column per stage of the chosen pipeline with its count and amount total, past one page", async () => {
    await page.goto(`${baseUrl}/app/deals`)
    await page.getByRole("button", { name: "Board" }).click()
    await picker().selectOption({ label: "Partners" })
    await expect.poll(() => page.locator("section.board-column h2").allTextContents()).toEqual(["Lead", "Talks", "Signed"])
    await expect.poll(() => count("lead")).toBe("120 record(s)")
    expect(await amount("lead")).toBe(`Total ${(LEADS * (LEADS + 1) / 2).toLocaleString("en")}`)
    expect(await count("talks")).toBe("2 record(s)")
    expect(await amount("talks")).toBe("Total 1,250")
    expect(await count("signed")).toBe("0 record(s)")
    expect(await amount("signed")).toBe("Total 0")
    expect(await column("lead").locator(".board-card").count()).toBe(25)
    expect(await column("lead").textContent()).toContain("and 95 more")
    expect(await seriousViolations(page)).toEqual([])
  })

  it("moves a deal by drag and drop, and another with the arrow keys: each a PUT of its stage", async () => {
    await column("talks").locator(".board-card", { hasText: "Acme" }).dragTo(column("signed"))
    await expect.poll(() => stageOf(deals["Acme"]!)).toBe("signed")
    await expect.poll(() => count("signed")).toBe("1 record(s)")
    expect(await amount("signed")).toBe("Total 1,000")
    expect(await amount("talks")).toBe("Total 250")

    const beta = page.getByRole("link", { name: "Beta" })
    await beta.focus()
    await page.keyboard.press("ArrowRight")
    await expect.poll(() => stageOf(deals["Beta"]!)).toBe("signed")
    await expect.poll(() => count("talks")).toBe("0 record(s)")
    expect(await amount("signed")).toBe("Total 1,250")
    // The card keeps the focus in its new column, and says so to screen readers.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest("section")?.getAttribute("data-stage"))).toBe("signed")
    await expect.poll(() => page.getByRole("status").filter({ hasText: "moved" }).textContent()).toBe("Beta moved to Signed.")
  })

  it("lays the board out right to left in Arabic, where the left arrow moves a deal on", async () => {
    await page.getByRole("button", { name: "العربية" }).click()
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe("rtl")
    await expect.poll(() => page.locator("section.board-column h2").allTextContents()).toEqual(["عميل محتمل", "مفاوضات", "موقّع"])
    const lead = (await column("lead").boundingBox())!
    const talks = (await column("talks").boundingBox())!
    expect(lead.x).toBeGreaterThan(talks.x)
    expect(await picker().locator("option:checked").textContent()).toBe("الشركاء")
    const card = column("lead").getByRole("link").first()
    const id = (await card.getAttribute("data-card-id"))!
    await card.focus()
    await page.keyboard.press("ArrowLeft")
    await expect.poll(() => stageOf(id)).toBe("talks")
    await expect.poll(() => column("lead").getByTestId("stage-count").textContent()).toBe("119 سجل")
    expect(await seriousViolations(page)).toEqual([])
    await page.getByRole("button", { name: "English" }).click()
  })

  it("shows the tickets' default pipeline, with counts and no amounts", async () => {
    expect((await api("POST", "/api/tickets", { ticket_name: "Printer on fire" })).status).toBe(201)
    await page.goto(`${baseUrl}/app/tickets`)
    await page.getByRole("button", { name: "Board" }).click()
    await expect.poll(() => page.locator("section.board-column").count()).toBeGreaterThan(1)
    await expect.poll(() => count("new")).toBe("1 record(s)")
    expect(await page.getByTestId("stage-amount").count()).toBe(0)
  })
})
