/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) against `npm start`
 * on the embedded database, with a local HTTPS receiver for webhooks: sign in, a custom property
 * and a deal with it, the filter builder, a saved view the list opens on, a note, a webhook
 * created and validated, a failing endpoint's delivery log and its deactivation arriving live as
 * a toast and a browser notification, a CSV import and export followed to their end, a token, the WhatsApp inbox (sent
 * messages, a customer's message as Meta's signed callback, a reply, the contact's conversation,
 * on a phone in Arabic), the Arabic layout, a sign-in with two-factor on, and the team: a team
 * made with the permission checklist, a member invited into it who joins from the mailed link and
 * sees only what the team allows, two-factor turned on from the profile, the new pages in Arabic.
 * axe-core checks every main page (no serious or critical violation), and the first load's
 * JavaScript is weighed (under 300 KB gzip).
 *
 * The tests share one server, browser page and data directory, and run in order.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as OTPAuth from "otpauth"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { metaJson, metaWebhook, signMeta } from "@wasl/adapters/testing"
import { cliMain } from "../../../test/support/apps.ts"
import { apiClient, eventually, freePort, killAll, launch, runToEnd, waslMain } from "../../../test/support/processes.ts"
import { RECEIVER_CA_FILE, startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts"
import { dashboardContext, dashboardPage, javascriptWeight, launchBrowser, screenshot, seriousViolations } from "./support/browser.ts"

const LISTENING = /Wasl is listening on http:\/\/[^\s"]+:(\d+)/
const FIRST_RUN = /first account created\.\n\s*owner:\s*(\S+)\n\s*password:\s*(\S+)\n\s*token:\s*(\S+)\n/
const JS_BUDGET_GZIP = 300 * 1024
const META_APP_SECRET = "browser-suite-meta-app-secret"

describe("the dashboard in a browser", () => {
  let dir = ""
  let receiver: WebhookReceiver
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let baseUrl = ""
  let email = ""
  let password = ""
  let api: ReturnType<typeof apiClient>
  let env: NodeJS.ProcessEnv = {}

  /** The page has no serious or critical accessibility violation. */
  const accessible = async (what: string) => {
    const violations = await seriousViolations(page)
    expect(violations, `${what}: ${JSON.stringify(violations, null, 1)}`).toEqual([])
  }
  const visit = async (path: string) => {
    await page.goto(`${baseUrl}/app${path}`)
    await page.locator("main h1").first().waitFor()
  }

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-dashboard-browser-"))
    receiver = await startWebhookReceiver()
    const port = await freePort()
    env = {
      ...process.env,
      WASL_DATA_DIR: Path.join(dir, "data"),
      HOST: "127.0.0.1",
      PORT: String(port),
      WASL_WEBHOOK_ALLOW_PRIVATE: "true",
      WASL_WEBHOOK_CA_FILE: RECEIVER_CA_FILE,
      // Six quick attempts, so three failed deliveries switch a webhook off within seconds.
      WASL_RETRY_DELAYS: "0s,200ms,200ms,200ms,200ms,200ms",
      WASL_DELIVERY_TIMEOUT: "5s",
      WASL_MAIL_OUTBOX: Path.join(dir, "mail.jsonl"),
      WASL_RATE_LIMIT: "0",
      // The WhatsApp receiver on, so the suite can post Meta's signed callbacks.
      WASL_WHATSAPP_APP_SECRET: META_APP_SECRET,
      WASL_WHATSAPP_VERIFY_TOKEN: "browser-suite-verify-token"
    }
    delete env.DATABASE_URL
    const wasl = launch("wasl", waslMain, [], env)
    await wasl.waitForStdout(LISTENING, 90_000)
    const block = FIRST_RUN.exec(wasl.stdout())
    if (block === null) throw new Error(`no first-run block\n${wasl.output()}`)
    ;[, email = "", password = ""] = block
    baseUrl = `http://127.0.0.1:${port}`
    api = apiClient(baseUrl, block[3]!)
    browser = await launchBrowser()
    context = await dashboardContext(browser)
    await context.grantPermissions(["notifications"], { origin: baseUrl })
    // Records the browser notifications the page raises (chromium headless shows none).
    await context.addInitScript(() => {
      const shown: Array<{ title: string; body: string }> = []
      ;(window as any).__notifications = shown
      class Recorded {
        static permission = "granted"
        static requestPermission = async () => "granted"
        constructor(title: string, options?: { body?: string }) {
          shown.push({ title, body: options?.body ?? "" })
        }
      }
      ;(window as any).Notification = Recorded
    })
    page = await dashboardPage(context)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await killAll()
    await receiver?.close()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("loads /app with under 300 KB of JavaScript (gzip) and signs in, showing the user, account, plan and credits", async () => {
    const weight = await javascriptWeight(page, () => page.goto(`${baseUrl}/app`, { waitUntil: "networkidle" }))
    console.log(`dashboard first load: ${weight.files} script(s), ${weight.raw} bytes, ${weight.gzip} bytes gzip`)
    expect(weight.files).toBeGreaterThan(0)
    expect(weight.gzip).toBeLessThan(JS_BUDGET_GZIP)
    expect(weight.encodings.every((encoding) => encoding === "br")).toBe(true)
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Password").fill("wrong password")
    await page.getByRole("button", { name: "Sign in" }).click()
    await expect.poll(() => page.getByRole("alert").first().textContent()).toBeTruthy()
    await accessible("sign-in page")
    await screenshot(page, "sign-in")
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByTestId("user").waitFor()
    expect(await page.getByTestId("user").textContent()).toContain(email)
    expect(await page.getByTestId("plan").textContent()).toBe("business")
    expect(await page.getByTestId("credits").textContent()).toMatch(/^\d+$/)
    expect(await page.getByTestId("account").textContent()).not.toBe("")
  })

  it("creates a custom deal property with bilingual names", async () => {
    await visit("/deals/properties")
    await page.getByRole("button", { name: "New: Property" }).click()
    await page.getByLabel("Internal name").fill("region")
    await page.getByLabel("Name (English)").fill("Region")
    await page.getByLabel("Name (Arabic)").fill("المنطقة")
    await expect.poll(() => page.getByLabel("Group").inputValue()).not.toBe("")
    await page.getByRole("button", { name: "Save" }).click()
    await page.getByRole("cell", { name: "region", exact: true }).waitFor()
    await page.getByRole("button", { name: "New: Group" }).click()
    await page.getByLabel("Name (English)").fill("Partner details")
    await page.getByLabel("Name (Arabic)").fill("بيانات الشريك")
    await page.getByRole("button", { name: "Save" }).click()
    const group = page.getByRole("region", { name: "Partner details" })
    await group.waitFor()
    await group.getByRole("button", { name: "Edit" }).click()
    await page.getByLabel("Name (English)").fill("Partner")
    await page.getByRole("button", { name: "Save" }).click()
    await page.getByRole("region", { name: "Partner", exact: true }).waitFor()
    const groups = await api("GET", "/api/deals/properties/groups")
    expect(groups.body.data.find((g: { internal_name: string }) => g.internal_name === "partner_details")?.name).toEqual({ en: "Partner", ar: "بيانات الشريك" })
    await page.getByRole("region", { name: "Partner", exact: true }).getByRole("button", { name: "Delete" }).click()
    await expect.poll(() => page.getByRole("region", { name: "Partner", exact: true }).count()).toBe(0)
    await page.getByRole("row", { name: /region/ }).getByRole("button", { name: "Edit" }).click()
    await page.getByLabel("Name (Arabic)").fill("منطقة البيع")
    await page.getByRole("button", { name: "Save" }).click()
    await expect.poll(async () =>
      (await api("GET", "/api/deals/properties")).body.data.find((p: { internal_name: string }) => p.internal_name === "region").name
    ).toEqual({ en: "Region", ar: "منطقة البيع" })
    await accessible("properties page")
    await screenshot(page, "properties")
  })

  it("shows the API's 422 on the field, then creates a deal with the custom property", async () => {
    await visit("/deals/new")
    await page.getByLabel("Amount", { exact: true }).fill("500")
    await page.getByRole("button", { name: "Create" }).click()
    const nameError = page.locator(".field-invalid").filter({ has: page.getByLabel("Deal name", { exact: true }) }).locator(".field-error")
    await nameError.waitFor()
    expect(await nameError.textContent()).toMatch(/deal_name|required|Deal name/i)
    await accessible("record form with errors")
    await page.getByLabel("Deal name", { exact: true }).fill("Acme renewal")
    await page.getByLabel("Region").fill("North")
    await page.getByRole("button", { name: "Create" }).click()
    await page.getByRole("heading", { name: "Acme renewal" }).waitFor()
    expect(await page.locator('dd[data-property="region"]').textContent()).toBe("North")
    expect(await page.getByText("Region", { exact: true }).count()).toBeGreaterThan(0)
    await accessible("record page")
  })

  it("adds, edits and deletes a note on the deal", async () => {
    await page.getByLabel("Note", { exact: true }).fill("Call back on Monday")
    await page.getByRole("button", { name: "Add note" }).click()
    await page.locator(".note-body", { hasText: "Call back on Monday" }).waitFor()
    await page.locator(".notes li").getByRole("button", { name: "Edit" }).click()
    await page.locator(".notes").getByLabel("Note", { exact: true }).fill("Call back on Tuesday")
    await page.locator(".notes").getByRole("button", { name: "Save" }).click()
    await page.locator(".note-body", { hasText: "Call back on Tuesday" }).waitFor()
    await screenshot(page, "record")
    const notes = await api("GET", `/api/deals/${page.url().split("/").pop()}/notes`)
    expect(notes.body.data.map((n: { body: string }) => n.body)).toEqual(["Call back on Tuesday"])
    await page.getByLabel("Note", { exact: true }).fill("Scratch")
    await page.getByRole("button", { name: "Add note" }).click()
    await page.locator(".notes li").filter({ hasText: "Scratch" }).getByRole("button", { name: "Delete" }).click()
    await expect.poll(() => page.locator(".notes li").count()).toBe(1)
  })

  it("edits the deal", async () => {
    await page.getByRole("link", { name: "Edit" }).click()
    await page.getByLabel("Next steps").fill("Send the contract")
    await page.getByRole("button", { name: "Save" }).click()
    await page.locator('dd[data-property="next_steps"]').waitFor()
    expect(await page.locator('dd[data-property="next_steps"]').textContent()).toBe("Send the contract")
    expect(await page.locator('dd[data-property="region"]').textContent()).toBe("North")
  })

  it("attaches a contact to the deal and detaches it", async () => {
    expect((await api("POST", "/api/contacts", { firstname: "Salma", lastname: "Haddad" })).status).toBe(201)
    const links = page.getByRole("region", { name: "Links: Contacts" })
    await links.getByLabel("Search: Contacts").fill("salma")
    await links.getByLabel("Find a record to link: Contacts").selectOption({ label: "Salma Haddad" })
    await links.getByRole("button", { name: "Attach" }).click()
    await links.getByRole("link", { name: "Salma Haddad" }).waitFor()
    await links.getByRole("listitem").getByRole("button", { name: "Detach" }).click()
    await expect.poll(() => links.getByRole("link", { name: "Salma Haddad" }).count()).toBe(0)
  })

  it("filters the deals with the filter builder, an or group included, and shows the total", async () => {
    expect((await api("POST", "/api/deals", { deal_name: "Small pilot", amount: 50 })).status).toBe(201)
    expect((await api("POST", "/api/deals", { deal_name: "Beta expansion", amount: 900, region: "South" })).status).toBe(201)
    await visit("/deals")
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("3 in total")
    await page.getByLabel("Search").fill("PILOT")
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("1 in total")
    await page.getByLabel("Search").fill("")
    await page.getByLabel("Order by").selectOption("amount")
    await page.getByLabel("Direction").selectOption("asc")
    await expect.poll(() => page.locator("tbody tr td:first-child").allTextContents()).toEqual(["Small pilot", "Acme renewal", "Beta expansion"])
    await page.getByRole("button", { name: "Add condition" }).click()
    await page.getByLabel("Property").selectOption("amount")
    await page.getByLabel("Operator").selectOption("gt")
    await page.getByLabel("Value").fill("100")
    await page.getByRole("button", { name: "Apply" }).click()
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("2 in total")
    await page.getByRole("button", { name: "Add “or” group" }).click()
    const group = page.locator(".or-group")
    await group.getByLabel("Property").nth(0).selectOption("region")
    await group.getByLabel("Value").nth(0).fill("north")
    await group.getByLabel("Property").nth(1).selectOption("deal_name")
    await group.getByLabel("Operator").nth(1).selectOption("starts_with")
    await group.getByLabel("Value").nth(1).fill("small")
    await page.getByRole("button", { name: "Apply" }).click()
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("1 in total")
    expect(await page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("Acme renewal")])
    await accessible("records list with filters")
    await screenshot(page, "deals")
    // A range and a list: between takes two inputs, in takes comma-separated values.
    await page.getByRole("button", { name: "Clear" }).click()
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("3 in total")
    await page.getByRole("button", { name: "Add condition" }).click()
    await page.getByLabel("Property").selectOption("amount")
    await page.getByLabel("Operator").selectOption("between")
    await page.getByLabel("From", { exact: true }).fill("40")
    await page.getByLabel("To", { exact: true }).fill("600")
    await page.getByRole("button", { name: "Apply" }).click()
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("2 in total")
    await page.getByRole("button", { name: "Add condition" }).click()
    await page.getByLabel("Property").nth(1).selectOption("deal_name")
    await page.getByLabel("Operator").nth(1).selectOption("in")
    await page.getByLabel("Value").fill("Small pilot, Beta expansion")
    await page.getByRole("button", { name: "Apply" }).click()
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("1 in total")
    expect(await page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("Small pilot")])
  })

  it("saves the deals' order and filters as a shared view and opens the list on it again, in English and Arabic", async () => {
    const total = () => page.getByTestId("total").textContent()
    // A select inside its label is named by the label and the option shown.
    const picker = (label: string) => page.getByRole("combobox", { name: new RegExp(`^${label}`) })
    const chosen = () => picker("View").locator("option:checked").textContent()
    await visit("/deals")
    await page.getByLabel("Order by").selectOption("amount")
    await page.getByLabel("Direction").selectOption("asc")
    await page.getByRole("button", { name: "Add condition" }).click()
    await page.getByLabel("Property").selectOption("amount")
    await page.getByLabel("Operator").selectOption("gt")
    await page.getByLabel("Value").fill("100")
    await page.getByRole("button", { name: "Apply" }).click()
    await expect.poll(total).toBe("2 in total")
    await page.getByRole("button", { name: "Save as view" }).click()
    await page.getByText("The name field is required.").waitFor()
    await page.getByLabel("View name").fill("Big deals")
    await page.getByLabel("Share with the account").check()
    await page.getByRole("button", { name: "Save as view" }).click()
    await expect.poll(chosen).toBe("Big deals (shared)")
    const [view] = (await api("GET", "/api/deals/views")).body.data
    expect(view).toMatchObject({ name: "Big deals", order: "amount", direction: "asc", shared: true })
    expect(view.complex_filters).toEqual([{ property: "amount", operator: "gt", value: 100 }])
    await expect.poll(async () => (await api("GET", "/api/me")).body.deals_view_id).toBe(view._id)

    await visit("/deals")
    await expect.poll(chosen).toBe("Big deals (shared)")
    await expect.poll(() => page.locator("tbody tr td:first-child").allTextContents()).toEqual(["Acme renewal", "Beta expansion"])
    expect(await page.getByLabel("Value").inputValue()).toBe("100")
    await accessible("records list on a saved view")
    await page.getByRole("button", { name: "العربية" }).click()
    await expect.poll(() => picker("طريقة العرض").locator("option:checked").textContent()).toBe("Big deals (مشتركة)")
    await page.getByRole("button", { name: "حفظ كطريقة عرض" }).waitFor()
    await page.getByRole("button", { name: "English" }).click()
    await picker("View").selectOption({ label: "All records" })
    await expect.poll(total).toBe("3 in total")
    await expect.poll(async () => (await api("GET", "/api/me")).body.deals_view_id).toBe(null)
  })

  it("shows every kind's list and form from the same generic pages", async () => {
    const kinds = { contacts: "Contacts", companies: "Companies", tickets: "Tickets", invoices: "Invoices", products: "Products" }
    for (const [kind, title] of Object.entries(kinds)) {
      await visit(`/${kind}`)
      expect(await page.locator("main h1").textContent()).toBe(title)
      await page.getByTestId("total").waitFor()
      await accessible(`${kind} list`)
      await visit(`/${kind}/new`)
      await accessible(`${kind} form`)
    }
    await page.getByLabel("Product name").fill("Rotor")
    await page.getByLabel("Price").fill("12.5")
    await page.getByRole("button", { name: "Create" }).click()
    await page.getByRole("heading", { name: "Rotor" }).waitFor()
    expect(await page.locator('dd[data-property="price"]').textContent()).toBe("12.5")
  })

  it("creates a webhook (secret shown once, with a copy button), validates and activates it", async () => {
    await visit("/webhooks")
    await page.getByRole("button", { name: "New" }).click()
    await page.getByLabel("URL").fill(receiver.url("/ok"))
    await page.getByLabel("Events").selectOption(["deal-created", "deal-note-created"])
    await page.getByRole("button", { name: "Save" }).click()
    const secret = (await page.getByTestId("secret").textContent()) ?? ""
    expect(secret).toHaveLength(32)
    await page.getByRole("button", { name: "Copy" }).waitFor()
    receiver.setSecret("/ok", secret)
    const card = page.getByRole("listitem", { name: receiver.url("/ok") })
    await card.getByRole("button", { name: "Validate" }).click()
    await card.getByText("Validated", { exact: true }).waitFor()
    await card.getByRole("button", { name: "Activate" }).click()
    await card.getByText("Active", { exact: true }).waitFor()
    await card.getByRole("button", { name: "Edit" }).click()
    await page.getByLabel("Events").selectOption(["deal-created", "deal-updated"])
    await page.getByRole("button", { name: "Save" }).click()
    await card.getByText("deal-created, deal-updated").waitFor()
    await accessible("webhooks page")
    await screenshot(page, "webhooks")
  })

  it("shows a failing endpoint's delivery log, and its deactivation arrives live as a toast and a browser notification", async () => {
    const created = await api("POST", "/api/account/webhooks", { URL: receiver.url("/failing"), events: ["product-created"] })
    expect(created.status, created.text).toBe(201)
    const { id, secret } = created.body.data
    receiver.setSecret("/failing", secret)
    expect((await api("POST", `/api/account/webhooks/${id}/validate`)).status).toBe(200)
    expect((await api("PUT", `/api/account/webhooks/${id}/activate`, { is_active: true })).status).toBe(200)
    receiver.setStatus("/failing", 500)
    await visit(`/webhooks/${id}`)
    for (const name of ["Widget", "Gadget", "Gizmo"]) {
      expect((await api("POST", "/api/products", { name })).status).toBe(201)
    }
    const toast = page.locator(".toast").filter({ hasText: "/failing" })
    await toast.waitFor({ timeout: 60_000 })
    expect(await toast.textContent()).toContain("Webhook deactivated")
    await eventually(async () => (await page.evaluate(() => (window as any).__notifications.length)) > 0, 10_000, "a browser notification")
    expect(await page.evaluate(() => (window as any).__notifications[0].title)).toBe("Webhook deactivated")
    await page.getByRole("button", { name: "Refresh" }).click()
    await expect.poll(() => page.locator('.delivery[data-status="failed"]').count()).toBe(3)
    const attempts = page.locator(".delivery").first().locator("tbody tr")
    expect(await attempts.count()).toBe(6)
    expect(await attempts.first().locator("td").nth(2).textContent()).toBe("500")
    expect(await page.getByTestId("health").textContent()).toContain("Inactive")
    await accessible("delivery log")
    await screenshot(page, "delivery-log")
    // A switched-off webhook recovers nothing: the API's message is shown.
    await page.getByLabel("Since").fill(new Date(Date.now() - 3_600_000).toISOString().slice(0, 16))
    await page.getByRole("button", { name: "Recover failed deliveries" }).click()
    await page.getByRole("form", { name: "Recover failed deliveries" }).getByRole("alert").waitFor()
    await page.locator(".delivery").first().getByRole("button", { name: "Redeliver" }).click()
    await expect.poll(() => page.locator(".delivery").count()).toBe(4)
    // Fixed and switched on again, the webhook recovers the period's failed deliveries.
    receiver.setStatus("/failing", 200)
    await page.getByRole("link", { name: "Back" }).click()
    await page.getByRole("listitem", { name: receiver.url("/failing") }).getByRole("button", { name: "Activate" }).click()
    await page.getByRole("listitem", { name: receiver.url("/failing") }).getByText("Active", { exact: true }).waitFor()
    await page.getByRole("listitem", { name: receiver.url("/failing") }).getByRole("link", { name: "Delivery log" }).click()
    await page.getByLabel("Since").fill(new Date(Date.now() - 3_600_000).toISOString().slice(0, 16))
    await page.getByRole("button", { name: "Recover failed deliveries" }).click()
    await page.getByRole("form", { name: "Recover failed deliveries" }).getByRole("status").waitFor()
    // The three that switched it off, and the redelivery if it has used its attempts by now.
    const queued = await page.getByRole("form", { name: "Recover failed deliveries" }).getByRole("status").textContent()
    expect(queued).toMatch(/^[34] queued$/)
    await expect.poll(() => page.locator('.delivery[data-status="succeeded"]').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3)
  })

  it("lists the notification in the inbox with the unread count, and marks it read", async () => {
    await visit("/notifications")
    expect(await page.getByTestId("unread").textContent()).toBe("1 unread")
    await page.getByRole("button", { name: "Mark as read" }).click()
    await expect.poll(() => page.getByTestId("unread").textContent()).toBe("0 unread")
    // The box follows the stored preference: it clears once the API has saved it.
    await page.getByLabel("Webhook deactivated: Pop-up").click()
    await expect.poll(() => page.getByLabel("Webhook deactivated: Pop-up").isChecked()).toBe(false)
    await expect.poll(async () =>
      (await api("GET", "/api/me")).body.notification_preferences.find((p: { name: string }) => p.name === "WebhookDeactivated").popup
    ).toBe(false)
    await accessible("notifications page")
    await screenshot(page, "notifications")
  })

  it("imports a CSV of contacts, following it to completion with its counts, its refused row and the refused rows' CSV", async () => {
    await visit("/contacts")
    await page.getByRole("button", { name: "Import CSV" }).click()
    const csv = "firstname,lastname,email\r\nLina,Saleh,lina@example.com\r\nOmar,Nasser,omar@example.com\r\nBad,Row,not an email\r\n"
    await page.getByLabel("CSV file").setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(csv) })
    await page.getByLabel("Match on").selectOption("email")
    await page.getByRole("button", { name: "Upload" }).click()
    const progress = page.getByTestId("import-progress")
    await expect.poll(() => progress.getByRole("status").textContent(), { timeout: 60_000 }).toBe("Status: Completed")
    expect(await progress.getByTestId("rows-read").textContent()).toBe("3 of 3")
    expect(await progress.getByTestId("created").textContent()).toBe("2")
    expect(await progress.getByTestId("updated").textContent()).toBe("0")
    expect(await progress.getByTestId("failed").textContent()).toBe("1")
    expect(await progress.getByRole("listitem").allTextContents()).toEqual([expect.stringMatching(/^Line 4: .*email/i)])
    // The list reloads once the import has ended.
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("3 in total")
    await accessible("import progress")
    await screenshot(page, "import")
    // A same-origin link: the session cookie alone signs the download in.
    const href = await progress.getByRole("link", { name: "Download the refused rows (CSV)" }).getAttribute("href")
    const errors = await page.request.get(`${baseUrl}${href}`)
    expect(errors.status()).toBe(200)
    expect(await errors.text()).toMatch(/^firstname,lastname,email,error\r\nBad,Row,not an email,.*email.*\r\n$/i)
  })

  it("exports the contacts as searched, with chosen columns, to a download with a byte order mark and a header", async () => {
    await page.getByLabel("Search").fill("lina")
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("1 in total")
    await page.getByRole("button", { name: "Export CSV" }).click()
    await page.getByLabel("Columns").selectOption(["firstname", "email"])
    await page.getByRole("button", { name: "Export", exact: true }).click()
    const progress = page.getByTestId("export-progress")
    const download = progress.getByRole("link", { name: "Download CSV" })
    await download.waitFor({ timeout: 60_000 })
    expect(await progress.getByRole("status").textContent()).toBe("Status: Completed")
    await accessible("export progress")
    await screenshot(page, "export")
    const response = await page.request.get(`${baseUrl}${await download.getAttribute("href")}`)
    expect(response.status()).toBe(200)
    const bytes = await response.body()
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(3)).split("\r\n")
    expect(lines[0]).toBe("_id,firstname,email,created_at,updated_at")
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^\w+,Lina,lina@example\.com,/), ""])
    // Unsearched, every contact, every column.
    await page.getByLabel("Search").fill("")
    await expect.poll(() => page.getByTestId("total").textContent()).toBe("3 in total")
    await page.getByLabel("Columns").selectOption([])
    await page.getByRole("button", { name: "Export", exact: true }).click()
    await expect.poll(() => progress.getByTestId("export-size").textContent(), { timeout: 60_000 }).toMatch(/^3 records, /)
  })

  it("creates a token with abilities, shown once, and revokes it", async () => {
    await visit("/tokens")
    await page.getByLabel("Name").fill("Reporting")
    await page.getByLabel("Abilities").selectOption(["deal-index", "deal-show"])
    await page.getByRole("button", { name: "Create" }).click()
    const token = (await page.getByTestId("secret").textContent()) ?? ""
    expect(token).toMatch(/^\d+\|\S{40}$/)
    const listed = await fetch(`${baseUrl}/api/deals`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } })
    expect(listed.status).toBe(200)
    await page.getByRole("cell", { name: "Reporting" }).waitFor()
    await accessible("tokens page")
    await screenshot(page, "tokens")
    await page.getByRole("row", { name: /Reporting/ }).getByRole("button", { name: "Revoke" }).click()
    await expect.poll(() => page.getByRole("cell", { name: "Reporting" }).count()).toBe(0)
    const refused = await fetch(`${baseUrl}/api/deals`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } })
    expect(refused.status).toBe(401)
  })

  describe("the inbox", () => {
    // A contact with a WhatsApp number, a template and a one-time password sent to it through the
    // sandbox, then the customer's message arriving as Meta's signed callback for the number.
    const NUMBER = "971500000000"
    const CUSTOMER = "971501234567"
    const QUESTION = "مرحبا، هل الطلب جاهز؟"
    let contactId = ""
    const cli = async (...args: ReadonlyArray<string>) => {
      const run = await runToEnd("wasl cli", cliMain, args, env)
      expect(run.code, `${args.join(" ")}\n${run.stdout}\n${run.stderr}`).toBe(0)
      return run.stdout
    }
    const fromMeta = async (payload: unknown) => {
      const body = metaJson(payload)
      const answer = await fetch(`${baseUrl}/api/whatsapp/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": signMeta(META_APP_SECRET, body) },
        body
      })
      expect(answer.status).toBe(200)
    }
    const conversation = () => page.locator(`.conversation[data-contact="${contactId}"]`)
    const bubbles = (direction: "inbound" | "outbound") => page.locator(`.bubble[data-direction="${direction}"]`)

    it("lists the conversation once a template and a code are sent: ticks, the code masked, the reply box closed outside the window", async () => {
      const platform = await api("POST", "/api/platforms", { name: "WhatsApp", display_phone_number: `+${NUMBER}`, provider: "sandbox" })
      expect(platform.status, platform.text).toBe(201)
      const platformId = platform.body.data.id
      const contact = await api("POST", "/api/contacts", { firstname: "Huda", lastname: "Karim", whatsapp_number: `+${CUSTOMER}` })
      expect(contact.status, contact.text).toBe(201)
      contactId = contact.body.data.properties._id
      const shipping = await api("POST", "/api/broadcasts", {
        name: "Shipping", language: "en", platform_id: platformId,
        template: { name: "order_update", category: "UTILITY", body: "Your order has shipped." }
      })
      expect(shipping.status, shipping.text).toBe(201)
      const sent = await api("POST", `/api/broadcasts/${shipping.body.data.id}/send`, { contact_id: contactId })
      expect(sent.status, sent.text).toBe(200)
      const me = await api("GET", "/api/me")
      await cli("credits", "add", "--account", String(me.body.account.id), "--amount", "5")
      const login = await api("POST", "/api/broadcasts", {
        name: "Login", language: "en", platform_id: platformId,
        template: { name: "login_code", category: "AUTHENTICATION", body: "{{1}} is your verification code.", code_expiration_minutes: 10 }
      })
      expect(login.status, login.text).toBe(201)
      const otp = await api("POST", `/api/broadcasts/${login.body.data.id}/send-otp`, { contact_id: contactId })
      expect(otp.status, otp.text).toBe(200)

      await visit("/inbox")
      await page.getByText("Choose a conversation.").waitFor()
      await conversation().waitFor()
      expect(await conversation().textContent()).toContain("Huda Karim")
      expect(await conversation().locator(".conversation-preview").textContent()).toBe("You: ****** is your verification code.")
      await accessible("inbox")
      await conversation().getByRole("link").click()
      await page.getByRole("heading", { name: "Huda Karim" }).waitFor()
      await expect.poll(() => bubbles("outbound").count()).toBe(2)
      const code = bubbles("outbound").last()
      expect(await code.locator(".bubble-text").textContent()).toBe("****** is your verification code.")
      expect(await code.locator(".ticks").getAttribute("data-status")).toMatch(/^(sent|delivered|read)$/)
      expect(await bubbles("inbound").count()).toBe(0)
      const reply = page.getByLabel("Reply", { exact: true })
      expect(await reply.isDisabled()).toBe(true)
      expect(await page.locator(".reply small").textContent()).toBe("The 24-hour window is closed: send a template")
      expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true)
      await accessible("inbox thread, window closed")
      await screenshot(page, "inbox-closed")
    })

    it("receives the customer's message live as an unread badge, marks it read once opened, and replies in the open window", async () => {
      await visit("/inbox")
      await conversation().waitFor()
      expect(await conversation().getByTestId("conversation-unread").count()).toBe(0)
      await fromMeta(metaWebhook.textMessage({ phoneNumberId: NUMBER, from: CUSTOMER, id: "wamid.browser-suite-question", text: QUESTION, profileName: "Huda" }))
      const badge = conversation().getByTestId("conversation-unread")
      await badge.waitFor({ timeout: 30_000 })
      expect(await badge.locator("[aria-hidden]").textContent()).toBe("1")
      await conversation().getByRole("link", { name: /Huda Karim.*1 unread/ }).waitFor()
      expect(await conversation().locator(".conversation-preview").textContent()).toBe(QUESTION)
      // The unread filter and the search narrow the list.
      await page.getByLabel("Unread only").check()
      await expect.poll(() => page.locator(".conversation").count()).toBe(1)
      await page.getByLabel("Search").fill("nobody-by-that-name")
      await page.getByText("No conversations yet.").waitFor()
      await page.getByLabel("Search").fill("Huda")
      await conversation().waitFor()
      await page.getByLabel("Unread only").uncheck()
      // From the keyboard: the conversation's link opens the thread.
      await conversation().getByRole("link").focus()
      await page.keyboard.press("Enter")
      await bubbles("inbound").first().waitFor()
      expect(await bubbles("inbound").first().locator(".bubble-text").textContent()).toBe(QUESTION)
      // The customer's message on the start side (left), the business's on the end side.
      const inbound = (await bubbles("inbound").first().boundingBox())!
      const outbound = (await bubbles("outbound").first().boundingBox())!
      expect(inbound.x).toBeLessThan(outbound.x)
      await expect.poll(() => conversation().getByTestId("conversation-unread").count()).toBe(0)
      await expect.poll(async () =>
        (await api("GET", "/api/conversations")).body.data.find((c: { contact: { _id: string } }) => c.contact._id === contactId)?.unread_count
      ).toBe(0)
      const reply = page.getByLabel("Reply", { exact: true })
      await expect.poll(() => reply.isEnabled()).toBe(true)
      expect(await page.locator(".reply small").textContent()).toMatch(/^Free-form replies are possible until /)
      // The API's refusal shows on the field.
      await page.getByRole("button", { name: "Send" }).click()
      await page.locator(".reply .field-error").waitFor()
      await accessible("reply refused")
      await reply.fill("Yes, it ships today.")
      await page.getByRole("button", { name: "Send" }).click()
      const answer = bubbles("outbound").filter({ hasText: "Yes, it ships today." })
      await answer.waitFor()
      expect(await reply.inputValue()).toBe("")
      expect(await page.locator(".reply .field-error").count()).toBe(0)
      // The sandbox walks the reply through delivered to read; the thread follows.
      await expect.poll(() => answer.locator(".ticks").getAttribute("data-status"), { timeout: 40_000 }).toBe("read")
      expect(await answer.locator(".ticks").textContent()).toBe("✓✓Read")
      await accessible("inbox thread, window open")
      await screenshot(page, "inbox")
    })

    it("shows the conversation on the contact's page", async () => {
      await visit(`/contacts/${contactId}`)
      const section = page.getByRole("region", { name: "Conversation" })
      await section.locator(`.bubble[data-direction="inbound"]`).first().waitFor()
      expect(await section.locator(".bubble").count()).toBe(4)
      // The reply box opens once the page has read the 24-hour window, which may come after the bubbles.
      await expect.poll(() => section.getByLabel("Reply", { exact: true }).isEnabled()).toBe(true)
      await section.getByRole("link", { name: "Open in the inbox" }).waitFor()
      await accessible("contact page with its conversation")
    })

    it("on a phone in Arabic, shows the list and the thread as two views, mirrored", async () => {
      await page.setViewportSize({ width: 390, height: 844 })
      await visit("/inbox")
      await page.getByRole("button", { name: "العربية" }).click()
      try {
        await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe("rtl")
        await page.getByRole("heading", { name: "صندوق الوارد" }).waitFor()
        await conversation().waitFor()
        expect(await page.locator(".inbox-thread").isVisible()).toBe(false)
        await accessible("inbox list in Arabic on a phone")
        await conversation().getByRole("link").click()
        await bubbles("inbound").first().waitFor()
        expect(await page.locator(".inbox-list").isVisible()).toBe(false)
        const inbound = (await bubbles("inbound").first().boundingBox())!
        const outbound = (await bubbles("outbound").first().boundingBox())!
        expect(inbound.x).toBeGreaterThan(outbound.x)
        expect(await page.getByLabel("الرد", { exact: true }).isEnabled()).toBe(true)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect(overflow).toBeLessThanOrEqual(0)
        await accessible("inbox thread in Arabic on a phone")
        await screenshot(page, "inbox-phone-arabic")
        await page.getByRole("link", { name: "كل المحادثات" }).click()
        await conversation().waitFor()
      } finally {
        // The tests after this one start in English on a desktop, whatever happened here.
        await page.evaluate(() => localStorage.setItem("wasl.language", "en"))
        await page.setViewportSize({ width: 1280, height: 800 })
      }
    })
  })

  it("merges a duplicate company, showing which value wins, then restores it from the trash, in English and Arabic", async () => {
    const kept = (await api("POST", "/api/companies", { name: "Nakheel Trading" })).body.data.properties._id as string
    const duplicate = (await api("POST", "/api/companies", { name: "Nakheel Trading LLC", city: "Jeddah", domain: "nakheel.example" }))
      .body.data.properties._id as string
    await visit(`/companies/${kept}`)
    await page.getByRole("button", { name: "Merge…" }).click()
    const dialog = page.getByRole("dialog", { name: "Merge a duplicate into this record" })
    await dialog.getByLabel("Search: Companies").fill("LLC")
    await dialog.getByLabel("Find a record to link: Companies").selectOption({ label: "Nakheel Trading LLC" })
    await dialog.locator('tr[data-property="city"]').waitFor()
    expect(await dialog.locator('tr[data-property="name"]').getAttribute("data-wins")).toBe("kept")
    expect(await dialog.locator('tr[data-property="city"]').getAttribute("data-wins")).toBe("other")
    await accessible("merge dialog")
    await dialog.getByRole("button", { name: "Merge", exact: true }).click()
    await dialog.waitFor({ state: "detached" })
    await expect.poll(() => page.locator('dd[data-property="city"]').textContent()).toBe("Jeddah")
    expect((await api("GET", `/api/companies/${duplicate}`)).status).toBe(404)

    await visit("/companies")
    await page.getByRole("link", { name: "Trash" }).click()
    const row = page.getByRole("row", { name: /Nakheel Trading LLC/ })
    await row.waitFor()
    expect(await row.textContent()).toContain("merged into another record")
    await accessible("trash")
    await page.getByRole("button", { name: "العربية" }).click()
    await page.getByRole("heading", { name: "سلة المحذوفات: الشركات" }).waitFor()
    await accessible("trash in Arabic")
    await page.getByRole("row", { name: /Nakheel Trading LLC/ }).getByRole("button", { name: "استعادة" }).click()
    await page.getByText("سلة المحذوفات فارغة.").waitFor()
    await page.getByRole("button", { name: "English" }).click()
    expect((await api("GET", `/api/companies/${duplicate}`)).status).toBe(200)
  })

  it("switches to Arabic with a right-to-left layout and Arabic labels, still accessible, and on a phone", async () => {
    await visit("/deals")
    await page.getByRole("button", { name: "العربية" }).click()
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe("rtl")
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ar")
    await page.getByRole("link", { name: "الصفقات" }).waitFor()
    await page.getByRole("columnheader", { name: "اسم الصفقة" }).waitFor()
    await accessible("deals in Arabic")
    await screenshot(page, "deals-arabic")
    await page.getByRole("button", { name: "استيراد CSV" }).click()
    await page.getByLabel("ملف CSV").waitFor()
    await accessible("import form in Arabic")
    await page.setViewportSize({ width: 390, height: 844 })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await screenshot(page, "phone-arabic")
    await page.getByRole("button", { name: "English" }).click()
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it("is usable from the keyboard: a skip link to the page, and focus on the new page after a link", async () => {
    await visit("/deals")
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content")
    await page.keyboard.press("Enter")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main")
    await page.getByRole("link", { name: "Webhooks" }).focus()
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Webhooks" }).waitFor()
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main")
  })

  it("goes back to the sign-in page when the session ends elsewhere", async () => {
    const ended = await page.request.post(`${baseUrl}/api/auth/logout`, { headers: { "X-Requested-With": "XMLHttpRequest" } })
    expect(ended.status()).toBe(204)
    await page.getByRole("link", { name: "API tokens" }).click()
    await page.getByRole("button", { name: "Sign in" }).waitFor()
  })

  it("signs in again and signs out", async () => {
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign in" }).waitFor()
    expect((await page.request.get(`${baseUrl}/api/me`)).status()).toBe(401)
  })

  it("signs in a user with two-factor on: a wrong code is refused on its field, a recovery code lets them in", async () => {
    const second = { email: "two-factor@dashboard.test", password: "a long enough password" }
    const made = await runToEnd("wasl bootstrap", cliMain, [
      "bootstrap", "--account", "Second account", "--email", second.email, "--password", second.password
    ], env)
    expect(made.code, made.stderr).toBe(0)
    // Enrol as the user would in a session: password, then the app's code.
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(second)
    })
    expect(login.status).toBe(200)
    const session = login.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ")
    const asUser = (path: string, body?: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { cookie: session, "x-requested-with": "XMLHttpRequest", "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }).then(async (reply) => ({ status: reply.status, body: await reply.json() as any }))
    const begun = await asUser("/api/me/two-factor")
    expect(begun.status).toBe(200)
    const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begun.body.data.secret) })
    const confirmed = await asUser("/api/me/two-factor/confirm", { code: app.generate() })
    expect(confirmed.status).toBe(200)
    const [recoveryCode] = confirmed.body.data.recovery_codes as ReadonlyArray<string>

    await page.getByLabel("Email").fill(second.email)
    await page.getByLabel("Password").fill(second.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByLabel("Authentication code").fill("000000")
    await accessible("two-factor step")
    await page.getByRole("button", { name: "Verify" }).click()
    await expect.poll(() => page.getByRole("alert").first().textContent()).toBeTruthy()
    await page.getByRole("button", { name: "Use a recovery code instead" }).click()
    await page.getByLabel("Recovery code").fill(recoveryCode!)
    await page.getByRole("button", { name: "Verify" }).click()
    await page.getByTestId("user").waitFor()
    expect(await page.getByTestId("user").textContent()).toContain(second.email)
    expect((await api("GET", "/api/me")).body.email).toBe(email)
  })

  describe("members, teams and the member's own pages", () => {
    const AGENT = { email: "agent@dashboard.test", password: "agent's long password" }
    const menu = () => page.getByRole("navigation", { name: "Menu" })
    /** Signs in as `who` from the sign-in page, whoever was signed in before. */
    const signInAs = async (who: { readonly email: string; readonly password: string }) => {
      await page.request.post(`${baseUrl}/api/auth/logout`, { headers: { "X-Requested-With": "XMLHttpRequest" } })
      await page.goto(`${baseUrl}/app`)
      await page.getByLabel("Email").fill(who.email)
      await page.getByLabel("Password").fill(who.password)
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.getByTestId("user").waitFor()
    }
    /** The link matching `pattern` in the last mail to `to` that has one, from the outbox. */
    const mailedLink = async (to: string, pattern: RegExp) => {
      let link: string | undefined
      await eventually(async () => {
        const lines = Fs.existsSync(env.WASL_MAIL_OUTBOX!) ? Fs.readFileSync(env.WASL_MAIL_OUTBOX!, "utf8").trim().split("\n") : []
        const texts = lines.map((line) => JSON.parse(line) as { to: string; text: string }).filter((m) => m.to === to).map((m) => m.text)
        link = texts.map((text) => pattern.exec(text)?.[1]).filter((found) => found !== undefined).at(-1)
        return link !== undefined
      }, 10_000, `a mail to ${to}`)
      return link!
    }

    it("invites a member into a deals-only team; from the mailed link they join, sign in, see deals but no webhooks, and the API refuses them webhooks", async () => {
      await signInAs({ email, password })
      await visit("/teams")
      await page.getByRole("button", { name: "New team" }).click()
      await page.getByLabel("Name").fill("Deal desk")
      await page.getByRole("checkbox", { name: "Deals: List" }).check()
      await page.getByRole("checkbox", { name: "Deals: View" }).check()
      await accessible("team form")
      await page.getByRole("button", { name: "Save" }).click()
      await page.getByRole("listitem", { name: "Deal desk" }).getByText("deal-index, deal-show").waitFor()
      await visit("/members")
      // The only member who can manage members cannot be suspended: the API's 422 is shown.
      const owner = page.locator(`tr[data-email="${email}"]`)
      await owner.getByRole("button", { name: "Suspend" }).click()
      await expect.poll(() => page.locator("main .problem").textContent()).toBeTruthy()
      expect(await owner.getByText("Active", { exact: true }).count()).toBe(1)
      const invite = page.getByRole("form", { name: "Invite a member" })
      await invite.getByLabel("Email").fill(AGENT.email)
      await invite.getByRole("checkbox", { name: "Deal desk" }).check()
      await invite.getByRole("button", { name: "Send invitation" }).click()
      const invited = page.locator(`tr[data-email="${AGENT.email}"]`)
      await invited.getByText("Invited", { exact: true }).waitFor()
      expect(await invited.textContent()).toContain("Deal desk")
      await accessible("members page")
      await screenshot(page, "members")
      // An invitation revoked from its row leaves the list.
      await invite.getByLabel("Email").fill("revoked@dashboard.test")
      await invite.getByRole("button", { name: "Send invitation" }).click()
      const revoked = page.locator(`tr[data-email="revoked@dashboard.test"]`)
      await revoked.getByRole("button", { name: "Revoke" }).click()
      await expect.poll(() => revoked.count()).toBe(0)

      const link = await mailedLink(AGENT.email, /Accept the invitation at (\S+)/)
      await page.getByRole("button", { name: "Sign out" }).click()
      await page.getByRole("button", { name: "Sign in" }).waitFor()
      await page.goto(`${baseUrl}${link}`)
      await page.getByRole("heading", { name: "Accept the invitation" }).waitFor()
      expect(new URL(page.url()).pathname).toMatch(/^\/app\/invitations\//)
      await page.getByLabel("First name").fill("Rana")
      await page.getByLabel("Last name").fill("Aziz")
      await page.getByLabel("Password").fill(AGENT.password)
      await accessible("invitation page")
      await page.getByRole("button", { name: "Accept the invitation" }).click()
      await page.getByRole("heading", { name: "Invitation accepted" }).waitFor()
      await page.getByLabel("Email").fill(AGENT.email)
      await page.getByLabel("Password").fill(AGENT.password)
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.getByRole("link", { name: "Open the dashboard" }).click()
      await page.getByRole("heading", { name: "Deals" }).waitFor()
      expect(await page.getByTestId("user").textContent()).toContain(AGENT.email)
      expect(await menu().getByRole("link").allTextContents()).toEqual(["Deals", expect.stringContaining("Notifications"), "Accounts", "Profile and security"])
      const refused = await page.request.get(`${baseUrl}/api/account/webhooks`, { headers: { "X-Requested-With": "XMLHttpRequest" } })
      expect(refused.status()).toBe(403)
    })

    it("turns two-factor on from the profile page: a QR code of the secret, then the 8 recovery codes shown once", async () => {
      await visit("/profile")
      await page.getByRole("button", { name: "Turn on two-factor" }).click()
      await page.getByTestId("qr-code").waitFor()
      expect(await page.getByTestId("qr-code").getAttribute("src")).toMatch(/^data:image\/svg\+xml/)
      const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32((await page.getByTestId("two-factor-secret").textContent())!) })
      await page.getByLabel("Authentication code").fill(app.generate())
      await page.getByRole("button", { name: "Turn on", exact: true }).click()
      await expect.poll(() => page.getByTestId("recovery-codes").locator("li").count()).toBe(8)
      await accessible("recovery codes")
      await page.getByRole("button", { name: "I have kept them" }).click()
      await page.getByText("On", { exact: true }).waitFor()
    })

    it("verifies the member's e-mail through the link mailed when they accepted the invitation", async () => {
      await page.getByText("Not verified", { exact: true }).waitFor()
      const link = await mailedLink(AGENT.email, /(\/email\/verify\?token=\S+)/)
      await page.goto(`${baseUrl}${link}`)
      await page.getByRole("heading", { name: "Verify your email" }).waitFor()
      expect(new URL(page.url()).pathname).toBe("/app/email/verify")
      await accessible("e-mail verification page")
      await page.getByRole("button", { name: "Verify the email" }).click()
      await page.getByRole("status").waitFor()
      await page.getByRole("link", { name: "Open the dashboard" }).click()
      await visit("/profile")
      await page.getByText("Verified", { exact: true }).waitFor()
    })

    it("lets an existing user accept after signing in, then switch to the new account from the top bar", async () => {
      const existing = { email: "existing@dashboard.test", password: "existing user's password" }
      const made = await runToEnd("wasl bootstrap", cliMain, [
        "bootstrap", "--account", "Existing's own", "--email", existing.email, "--password", existing.password
      ], env)
      expect(made.code, made.stderr).toBe(0)
      const teams = await api("GET", "/api/account/teams")
      const desk = teams.body.data.find((team: { name: string }) => team.name === "Deal desk")
      expect((await api("POST", "/api/account/invitations", { email: existing.email, team_ids: [desk.id] })).status).toBe(201)
      const link = await mailedLink(existing.email, /Accept the invitation at (\S+)/)
      await page.request.post(`${baseUrl}/api/auth/logout`, { headers: { "X-Requested-With": "XMLHttpRequest" } })
      await page.goto(`${baseUrl}${link}`)
      await page.getByRole("button", { name: "I already have a Wasl user" }).click()
      await page.getByLabel("Email").fill(existing.email)
      await page.getByLabel("Password").fill(existing.password)
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.getByRole("button", { name: "Accept the invitation" }).click()
      await page.getByRole("heading", { name: "Invitation accepted" }).waitFor()
      await page.getByRole("link", { name: "Open the dashboard" }).click()
      expect(await page.getByTestId("account").textContent()).toBe("Existing's own")
      const invitingAccount = (await api("GET", "/api/me")).body.account.name
      await page.getByLabel("Switch account").selectOption({ label: invitingAccount })
      await expect.poll(() => page.getByTestId("account").textContent()).toBe(invitingAccount)
      expect(await menu().getByRole("link", { name: "Webhooks" }).count()).toBe(0)
      await menu().getByRole("link", { name: "Deals" }).waitFor()
    })

    it("shows the account settings' field errors, and the team pages in Arabic, right to left and accessible", async () => {
      await signInAs({ email, password })
      await visit("/account")
      await page.getByLabel("Time zone").fill("Mars/Olympus")
      await page.getByRole("button", { name: "Save" }).click()
      await page.locator(".field-invalid").filter({ has: page.getByLabel("Time zone") }).locator(".field-error").waitFor()
      await page.getByLabel("Time zone").fill("Asia/Riyadh")
      await page.getByRole("button", { name: "Save" }).click()
      await expect.poll(async () => (await api("GET", "/api/me")).body.account.timeZone).toBe("Asia/Riyadh")
      await page.getByRole("button", { name: "العربية" }).click()
      try {
        await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe("rtl")
        const pages = { "/members": "الأعضاء", "/teams": "الفرق", "/account": "إعدادات الحساب", "/profile": "الملف الشخصي والأمان" }
        for (const [path, title] of Object.entries(pages)) {
          await visit(path)
          await page.getByRole("heading", { name: title, level: 1 }).waitFor()
          await accessible(`${path} in Arabic`)
        }
        await screenshot(page, "profile-arabic")
      } finally {
        await page.evaluate(() => localStorage.setItem("wasl.language", "en"))
      }
    })
  })
})
