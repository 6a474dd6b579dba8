/**
 * The dashboard's WhatsApp sending pages in a real browser (Debian's chromium through
 * playwright-core) against `npm start` on the embedded database, with a local stand-in for Meta's
 * Cloud API: the sending numbers with their health (a Cloud number's from Meta, none on the
 * sandbox), renamed and given a new access token; a template created on the sandbox number with a
 * header, variables, examples, a footer and a button, its live preview, APPROVED at once; a Cloud
 * template refused by Meta's reviewer arriving live with the reason; a campaign from the approved
 * template with an audience built in the filter builder and its count, followed to completed with
 * its recipients, the monthly allowance moving; a scheduled campaign that keeps its number from
 * being deleted, then canceled; and every page again in Arabic, right to left. axe-core checks each.
 *
 * The tests share one server, browser page and data directory, and run in order.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeCloudApi, startFakeCloudApi } from "@wasl/adapters/testing"
import { apiClient, FIRST_RUN, freePort, killAll, launch, LISTENING, waslMain } from "../../../test/support/processes.ts"
import { dashboardContext, dashboardPage, launchBrowser, screenshot, seriousViolations } from "./support/browser.ts"

const META_APP_SECRET = "sending-suite-meta-app-secret"
const CLOUD_TOKEN = "sending-suite-cloud-token"
const CLOUD_PHONE_ID = "109000111222"
const CLOUD_WABA_ID = "209000111222"

describe("the dashboard's WhatsApp sending pages in a browser", () => {
  let dir = ""
  let cloud: FakeCloudApi
  let browser: Browser
  let page: Page
  let baseUrl = ""
  let api: ReturnType<typeof apiClient>
  let sandboxId = 0
  let cloudId = 0

  const accessible = async (what: string) => {
    const violations = await seriousViolations(page)
    expect(violations, `${what}: ${JSON.stringify(violations, null, 1)}`).toEqual([])
  }
  const visit = async (path: string) => {
    await page.goto(`${baseUrl}/app${path}`)
    await page.locator("main h1").first().waitFor()
  }
  const allowanceUsed = async (): Promise<number> => (await api("GET", "/api/me")).body.account.message_allowance.used
  const templateRow = (name: string) => page.locator(`tr[data-template="${name}"]`)

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-sending-browser-"))
    cloud = await startFakeCloudApi(CLOUD_TOKEN)
    cloud.numbers.set(CLOUD_PHONE_ID, {
      display_phone_number: "+1 555-010-2030",
      verified_name: "Wasl Store",
      code_verification_status: "VERIFIED",
      quality_rating: "GREEN",
      messaging_limit_tier: "TIER_1K"
    })
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    cloud.webhook = { url: `${baseUrl}/api/whatsapp/webhook`, appSecret: META_APP_SECRET }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      WASL_DATA_DIR: Path.join(dir, "data"),
      HOST: "127.0.0.1",
      PORT: String(port),
      WASL_RATE_LIMIT: "0",
      WASL_MAIL_OUTBOX: Path.join(dir, "mail.jsonl"),
      WASL_WHATSAPP_GRAPH_URL: cloud.url,
      WASL_WHATSAPP_APP_SECRET: META_APP_SECRET,
      WASL_WHATSAPP_VERIFY_TOKEN: "sending-suite-verify-token"
    }
    delete env.DATABASE_URL
    const wasl = launch("wasl", waslMain, [], env)
    await wasl.waitForStdout(LISTENING, 90_000)
    const block = FIRST_RUN.exec(wasl.stdout())
    if (block === null) throw new Error(`no first-run block\n${wasl.output()}`)
    const [, email = "", password = "", token = ""] = block
    api = apiClient(baseUrl, token)
    const sandbox = await api("POST", "/api/platforms", { name: "Sandbox line", display_phone_number: "+971500000001", provider: "sandbox" })
    expect(sandbox.status, sandbox.text).toBe(201)
    sandboxId = sandbox.body.data.id
    const registered = await api("POST", "/api/platforms", {
      name: "Store line", display_phone_number: "+15550102030", provider: "whatsapp_cloud",
      phone_id: CLOUD_PHONE_ID, waba_id: CLOUD_WABA_ID, access_token: CLOUD_TOKEN
    })
    expect(registered.status, registered.text).toBe(201)
    cloudId = registered.body.data.id
    // Three customers of the Saleh family (one with no number: skipped), and one other.
    const customers = [
      { firstname: "Sara", lastname: "Saleh", whatsapp_number: "+971501110001" },
      { firstname: "Omar", lastname: "Saleh", whatsapp_number: "+971501110002" },
      { firstname: "Lina", lastname: "Saleh" },
      { firstname: "Hadi", lastname: "Nasser", whatsapp_number: "+971501110004" }
    ]
    for (const customer of customers) {
      const created = await api("POST", "/api/contacts", customer)
      expect(created.status, created.text).toBe(201)
    }
    browser = await launchBrowser()
    page = await dashboardPage(await dashboardContext(browser))
    await page.goto(`${baseUrl}/app`)
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByTestId("user").waitFor()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await killAll()
    await cloud?.close()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("lists the sending numbers with their health: Meta's for the Cloud number, none on the sandbox", async () => {
    await visit("/numbers")
    await page.getByRole("link", { name: "Sending numbers" }).waitFor()
    const store = page.locator(`tr[data-number="${cloudId}"]`)
    await store.waitFor()
    expect(await store.locator("td").allTextContents()).toEqual(["Store line", "+15550102030", "WhatsApp Cloud", "Wasl Store", "VERIFIED", "GREEN", "TIER_1K"])
    expect(await page.locator(`tr[data-number="${sandboxId}"] td`).allTextContents()).toEqual(["Sandbox line", "+971500000001", "Sandbox", "—", "—", "—", "—"])
    await accessible("sending numbers")
    await screenshot(page, "sending-numbers")
  })

  it("shows one number, renames it and takes a new access token without ever showing it", async () => {
    await page.getByRole("link", { name: "Store line" }).click()
    await page.getByRole("heading", { name: "Store line", level: 1 }).waitFor()
    expect(await page.getByTestId("quality-rating").textContent()).toBe("GREEN")
    expect(await page.getByTestId("messaging-limit").textContent()).toBe("TIER_1K")
    const token = page.getByLabel("New access token")
    expect(await token.inputValue()).toBe("")
    expect(await token.getAttribute("type")).toBe("password")
    await page.getByLabel("Name", { exact: true }).fill("Store main line")
    await token.fill(CLOUD_TOKEN)
    await page.getByRole("button", { name: "Save" }).click()
    await page.getByRole("heading", { name: "Store main line", level: 1 }).waitFor()
    await page.getByText("Saved.").waitFor()
    expect(await token.inputValue()).toBe("")
    const shown = await api("GET", `/api/platforms/${cloudId}`)
    expect(shown.body.data.name).toBe("Store main line")
    expect(shown.text).not.toContain(CLOUD_TOKEN)
    expect(await page.content()).not.toContain(CLOUD_TOKEN)
    await accessible("sending number")
  })

  it("creates a template on the sandbox number with a header, variables, examples, a footer and a button, previewed live; it is APPROVED at once", async () => {
    await visit("/templates")
    expect(await page.getByTestId("allowance-used").textContent()).toBe("0 of 10000 messages used")
    await page.getByRole("link", { name: "New template" }).click()
    await page.getByRole("heading", { name: "New template" }).waitFor()
    await page.getByLabel("Name", { exact: true }).fill("Order ready")
    await page.getByLabel("Sending number").selectOption(String(sandboxId))
    await page.getByLabel("Template name").fill("order_ready")
    expect(await page.getByText("A text header; it may hold one variable, {{1}}.").count()).toBe(1)
    await page.getByLabel("Header (optional)").fill("Order {{1}}")
    await page.getByLabel("Body", { exact: true }).fill("Hello {{1}}, your {{2}} is ready.")
    await page.getByLabel("Footer (optional)").fill("Wasl Store")
    const preview = page.getByTestId("preview")
    expect(await preview.locator(".preview-body").textContent()).toBe("Hello {{1}}, your {{2}} is ready.")
    await page.getByLabel("Example for the header's {{1}}").fill("#42")
    await page.getByLabel("Example for {{1}}").fill("Sara")
    await page.getByLabel("Example for {{2}}").fill("blue kettle")
    await page.getByRole("button", { name: "Add a button" }).click()
    await page.getByLabel("Button text").fill("Track it")
    expect(await preview.locator(".preview-header").textContent()).toBe("Order #42")
    expect(await preview.locator(".preview-body").textContent()).toBe("Hello Sara, your blue kettle is ready.")
    expect(await preview.locator(".preview-footer").textContent()).toBe("Wasl Store")
    expect(await preview.locator(".preview-button").textContent()).toBe("Track it")
    await accessible("template form with its preview")
    await screenshot(page, "template-form")
    await page.getByRole("button", { name: "Create" }).click()
    await page.getByRole("heading", { name: "Templates" }).waitFor()
    await templateRow("order_ready").waitFor()
    expect(await templateRow("order_ready").getByTestId("template-status").textContent()).toBe("APPROVED")
    const stored = (await api("GET", "/api/broadcasts")).body.data.find((b: { template: { name: string } }) => b.template.name === "order_ready")
    expect(stored.template.header.text).toBe("Order {{1}}")
    expect(stored.template.buttons).toEqual([{ type: "QUICK_REPLY", text: "Track it" }])
  })

  it("shows the API's message on a field the template gets wrong", async () => {
    await visit("/templates/new")
    await page.getByLabel("Template name").fill("Not A Name")
    await page.getByLabel("Body", { exact: true }).fill("Hi {{2}}")
    await page.getByRole("button", { name: "Create" }).click()
    const nameError = page.locator(".field-invalid").filter({ has: page.getByLabel("Template name") }).locator(".field-error")
    await nameError.waitFor()
    expect(await nameError.textContent()).toMatch(/template\.name/)
    expect(await page.locator(".field-invalid").filter({ has: page.getByLabel("Body", { exact: true }) }).locator(".field-error").textContent()).toMatch(/template\.body/)
    await accessible("template form with errors")
  })

  it("shows a Cloud template PENDING, then REJECTED with Meta's reason as the review arrives", async () => {
    const created = await api("POST", "/api/broadcasts", {
      name: "Spring offer", language: "en", platform_id: cloudId,
      template: { name: "spring_offer", category: "MARKETING", body: "Hello {{1}}, 20% off today.", examples: { body: ["Sara"] } }
    })
    expect(created.status, created.text).toBe(201)
    await visit("/templates")
    const row = templateRow("spring_offer")
    await row.waitFor()
    expect(await row.getByTestId("template-status").textContent()).toBe("PENDING")
    expect(await row.getByRole("link", { name: "Start a campaign" }).count()).toBe(0)
    expect(await cloud.reviewTemplate(created.body.data.template.external_id, "REJECTED", { reason: "INVALID_FORMAT" })).toBe(200)
    await expect.poll(() => row.getByTestId("template-status").textContent()).toBe("REJECTED")
    expect(await row.getByTestId("template-reason").textContent()).toBe("INVALID_FORMAT")
    await page.getByRole("button", { name: "Sync reviews from Meta" }).click()
    await expect.poll(() => page.getByRole("button", { name: "Sync reviews from Meta" }).isEnabled()).toBe(true)
    expect(await page.getByRole("alert").count()).toBe(0)
    await accessible("templates")
    await screenshot(page, "templates")
  })

  it("builds a campaign's audience with the filter builder and its count, sends it, and follows it to completed with its recipients and the allowance", async () => {
    await templateRow("order_ready").getByRole("link", { name: "Start a campaign" }).click()
    await page.getByRole("heading", { name: "New campaign" }).waitFor()
    expect(await page.getByLabel("Template", { exact: true }).locator("option:checked").textContent()).toContain("order_ready")
    await expect.poll(() => page.getByTestId("audience-count").textContent()).toBe("4 contact(s) match now")
    await page.getByLabel("Campaign name").fill("Saleh pickups")
    await page.getByRole("button", { name: "Add condition" }).click()
    await page.getByLabel("Property").selectOption("lastname")
    await page.getByLabel("Value", { exact: true }).fill("Saleh")
    await page.getByRole("button", { name: "Apply" }).click()
    await expect.poll(() => page.getByTestId("audience-count").textContent()).toBe("3 contact(s) match now")
    await page.getByLabel("Header {{1}}: value", { exact: true }).fill("#42")
    await page.getByLabel("Body {{1}}: value from").selectOption("property")
    await page.getByLabel("Body {{1}}: value", { exact: true }).selectOption("firstname")
    await page.getByLabel("Body {{2}}: value", { exact: true }).fill("blue kettle")
    await accessible("campaign form")
    await screenshot(page, "campaign-form")
    const before = await allowanceUsed()
    await page.getByRole("button", { name: "Send now" }).click()
    await page.getByRole("heading", { name: "Saleh pickups" }).waitFor()
    await expect.poll(() => page.getByTestId("campaign-status").getAttribute("data-status"), { timeout: 60_000 }).toBe("completed")
    expect(await page.getByTestId("campaign-status").textContent()).toBe("Completed")
    expect(await page.getByTestId("count-recipients").textContent()).toBe("3")
    expect(await page.getByTestId("count-sent").textContent()).toBe("2")
    expect(await page.getByTestId("count-skipped").textContent()).toBe("1")
    expect(await page.getByTestId("count-failed").textContent()).toBe("0")
    expect(await page.getByTestId("progress").getAttribute("value")).toBe("3")
    expect(await page.locator(".campaign-progress span").first().textContent()).toBe("3 of 3 (100%)")
    await expect.poll(() => page.locator("tr[data-recipient]").count()).toBe(3)
    await expect.poll(async () => (await page.locator("tr[data-recipient] td:first-child").allTextContents()).sort()).toEqual(["Lina Saleh", "Omar Saleh", "Sara Saleh"])
    const statuses = await page.getByTestId("recipient-status").allTextContents()
    expect(statuses.filter((s) => s === "Skipped")).toHaveLength(1)
    expect(statuses.filter((s) => ["Sent", "Delivered", "Read"].includes(s))).toHaveLength(2)
    // The sandbox walks each message to read; the counts follow.
    await expect.poll(() => page.getByTestId("count-read").textContent(), { timeout: 40_000 }).toBe("2")
    expect(await allowanceUsed()).toBe(before + 2)
    await expect.poll(() => page.getByTestId("allowance-used").textContent()).toBe(`${before + 2} of 10000 messages used`)
    await accessible("campaign page")
    await screenshot(page, "campaign")
  })

  it("schedules a campaign, which keeps its number from being deleted, then cancels it", async () => {
    await visit("/campaigns/new")
    await page.getByLabel("Campaign name").fill("Next week")
    await page.getByLabel("Header {{1}}: value", { exact: true }).fill("#7")
    await page.getByLabel("Body {{1}}: value", { exact: true }).fill("friend")
    await page.getByLabel("Body {{2}}: value", { exact: true }).fill("order")
    await page.getByLabel("Send later").check()
    const nextWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000)
    const local = new Date(nextWeek.getTime() - nextWeek.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
    await page.getByLabel("Scheduled for").fill(local)
    await page.getByRole("button", { name: "Schedule" }).click()
    await page.getByRole("heading", { name: "Next week" }).waitFor()
    expect(await page.getByTestId("campaign-status").textContent()).toBe("Scheduled")
    await page.getByText("No recipients yet: they are listed once the campaign starts.").waitFor()
    const campaignUrl = page.url()

    await visit(`/numbers/${sandboxId}`)
    await page.getByRole("button", { name: "Delete" }).click()
    const refusal = page.getByRole("alert")
    await refusal.waitFor()
    expect(await refusal.textContent()).toMatch(/campaign/i)
    expect((await api("GET", `/api/platforms/${sandboxId}`)).status).toBe(200)
    await accessible("number delete refused")

    await page.goto(campaignUrl)
    await page.getByRole("button", { name: "Cancel the campaign" }).click()
    await expect.poll(() => page.getByTestId("campaign-status").textContent()).toBe("Canceled")
    expect(await page.getByRole("button", { name: "Cancel the campaign" }).count()).toBe(0)

    await visit("/campaigns")
    const rows = page.locator("tr[data-campaign]")
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.first().textContent()).toContain("Next week")
    expect(await rows.first().textContent()).toContain("Canceled")
    expect(await rows.last().textContent()).toContain("Completed")
    await page.getByTestId("allowance-used").waitFor()
    await accessible("campaigns")
    await screenshot(page, "campaigns")
  })

  it("shows every sending page in Arabic, right to left", async () => {
    await visit("/campaigns")
    await page.getByRole("button", { name: "العربية" }).click()
    try {
      await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe("rtl")
      await page.getByRole("heading", { name: "الحملات" }).waitFor()
      expect(await page.getByTestId("allowance-used").textContent()).toMatch(/^استُخدمت \d+ من 10000 رسالة$/)
      expect(await page.locator("tr[data-campaign]").last().textContent()).toContain("اكتملت")
      await accessible("campaigns in Arabic")

      await page.locator("tr[data-campaign]").last().getByRole("link").click()
      await page.getByTestId("campaign-status").waitFor()
      expect(await page.getByTestId("campaign-status").textContent()).toBe("اكتملت")
      expect(await page.locator(".campaign-progress span").first().textContent()).toBe("3 من 3 (100٪)")
      await page.getByRole("columnheader", { name: "جهة الاتصال" }).waitFor()
      await accessible("campaign in Arabic")
      await screenshot(page, "campaign-arabic")

      await visit("/numbers")
      await page.getByRole("columnheader", { name: "تقييم الجودة" }).waitFor()
      expect(await page.locator(`tr[data-number="${sandboxId}"] td`).nth(2).textContent()).toBe("بيئة الاختبار")
      await accessible("sending numbers in Arabic")
      await visit(`/numbers/${cloudId}`)
      await page.getByLabel("رمز وصول جديد").waitFor()
      await accessible("sending number in Arabic")

      await visit("/templates")
      await page.getByRole("heading", { name: "القوالب" }).waitFor()
      expect(await templateRow("order_ready").getByTestId("template-status").textContent()).toBe("APPROVED")
      await accessible("templates in Arabic")
      await visit("/templates/new")
      await page.getByLabel("النص", { exact: true }).fill("مرحبا {{1}}، طلبك جاهز.")
      await page.getByLabel("مثال لـ {{1}}").fill("سارة")
      expect(await page.getByTestId("preview").locator(".preview-body").textContent()).toBe("مرحبا سارة، طلبك جاهز.")
      await accessible("template form in Arabic")
      await screenshot(page, "template-form-arabic")

      await visit("/campaigns/new")
      await page.getByRole("button", { name: "إضافة شرط" }).click()
      await page.getByLabel("الخاصية").selectOption("lastname")
      await page.getByLabel("القيمة", { exact: true }).fill("Nasser")
      await page.getByRole("button", { name: "تطبيق" }).click()
      await expect.poll(() => page.getByTestId("audience-count").textContent()).toBe("تطابق 1 جهة اتصال الآن")
      await accessible("campaign form in Arabic")
      await page.setViewportSize({ width: 390, height: 844 })
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow).toBeLessThanOrEqual(0)
    } finally {
      await page.evaluate(() => localStorage.setItem("wasl.language", "en"))
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  })
})
