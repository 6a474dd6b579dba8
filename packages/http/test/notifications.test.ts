/**
 * Notifications, preferences and the Webhook Deactivated notice (by mail and in the dashboard) over
 * HTTP, on PGlite and PostgreSQL. The notice is raised through the use-case the delivery worker
 * calls (notifyWebhookDeactivated), then observed through the API and the mail outbox.
 */
import { TeamRepository, UserRepository } from "@wasl/core/Accounts"
import { sendPendingEmails } from "@wasl/core/Notifications"
import { notifyWebhookDeactivated } from "@wasl/core/Webhooks"
import { Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

describe.each(DATABASES)("notifications over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let viewer: number
  let suspended: number

  const addMember = (email: string, permissions: ReadonlyArray<"webhook-update" | "deal-index">, status: "active" | "suspended") =>
    server.run(Effect.gen(function*() {
      const users = yield* UserRepository
      const user = yield* users.create({ email, passwordHash: "x", firstname: "M", lastname: "M" })
      yield* users.addMembership(owner.account_id, user.id)
      yield* (yield* TeamRepository).create(
        { accountId: owner.account_id, name: email, description: null, madeBy: null, permissions },
        [user.id]
      )
      return user.id
    })).then(async (id) => {
      if (status === "suspended") {
        await server.query("UPDATE account_user SET status = 'suspended' WHERE account_id = $1 AND user_id = $2", [owner.account_id, id])
      }
      return id
    })

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "notice-owner@example.test", password: "pw" })
    other = await server.bootstrap({ email: "notice-other@example.test", password: "pw" })
    viewer = await addMember("notice-viewer@example.test", ["deal-index"], "active")
    suspended = await addMember("notice-suspended@example.test", ["webhook-update"], "suspended")
  })
  afterAll(async () => {
    await server?.close()
  })

  const mails = () =>
    existsSync(server.mailOutbox)
      ? readFileSync(server.mailOutbox, "utf8").trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
      : []

  it("tells every active member holding webhook-update, on every channel by default", async () => {
    const told = await server.run(notifyWebhookDeactivated(owner.account_id, 41, "https://hooks.example.test/in"))
    expect(told).toBe(1)
    const list = await server.request("GET", "/api/notifications", { token: owner.token })
    expect(list.status).toBe(200)
    expect(list.body.meta).toMatchObject({ total: 1, current_page: 1, per_page: 15 })
    const [notice] = list.body.data
    expect(notice).toMatchObject({
      type: "WebhookDeactivated",
      popup: true,
      browser: true,
      read_at: null,
      data: { webhook_id: 41, url: "https://hooks.example.test/in" }
    })
    expect(notice.data.message).toContain("https://hooks.example.test/in")
    const me = await server.request("GET", "/api/me", { token: owner.token })
    expect(me.body.unread_notifications_count).toBe(1)
    // Members without the permission, suspended ones and other accounts get nothing.
    const rows = await server.query("SELECT user_id, account_id FROM notifications")
    expect(rows.map((r) => Number(r.user_id))).toEqual([owner.user_id])
    expect(rows.map((r) => Number(r.user_id))).not.toContain(viewer)
    expect(rows.map((r) => Number(r.user_id))).not.toContain(suspended)
    expect((await server.request("GET", "/api/notifications", { token: other.token })).body.data).toEqual([])
    // The mail is queued in the transaction and sent by the mail loop, once.
    expect(mails()).toEqual([])
    expect(await server.run(sendPendingEmails(10))).toBe(1)
    expect(await server.run(sendPendingEmails(10))).toBe(0)
    const [mail] = mails()
    expect(mail).toMatchObject({ to: "notice-owner@example.test", subject: "Webhook deactivated" })
    expect(mail.text).toContain("https://hooks.example.test/in")
    expect(mail.text).toContain("/api/account/webhooks/41/activate")
  })

  it("marks a notification read (idempotent) and answers 404 for another user's", async () => {
    const [notice] = (await server.request("GET", "/api/notifications", { token: owner.token })).body.data
    const read = await server.request("POST", `/api/notifications/${notice.id}/read`, { token: owner.token })
    expect(read.status).toBe(200)
    expect(read.body.data.read_at).toMatch(/Z$/)
    const again = await server.request("POST", `/api/notifications/${notice.id}/read`, { token: owner.token })
    expect(again.body.data.read_at).toBe(read.body.data.read_at)
    expect((await server.request("GET", "/api/me", { token: owner.token })).body.unread_notifications_count).toBe(0)
    for (const [token, id] of [[other.token, notice.id], [owner.token, 999999], [owner.token, "abc"]] as const) {
      const reply = await server.request("POST", `/api/notifications/${id}/read`, { token })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({ message: "Not found." })
    }
  })

  it("stores preferences and honours them: silenced channels are skipped", async () => {
    const put = await server.request("PUT", "/api/me/notification-preferences", {
      token: owner.token,
      body: { name: "WebhookDeactivated", stored: false, popup: false, browser: false, email: true }
    })
    expect(put.status).toBe(200)
    expect(put.body.data).toMatchObject({ name: "WebhookDeactivated", stored: false, popup: false, browser: false, email: true })
    const me = await server.request("GET", "/api/me", { token: owner.token })
    expect(me.body.notification_preferences.find((p: { name: string }) => p.name === "WebhookDeactivated"))
      .toMatchObject({ stored: false, email: true, user_id: owner.user_id })
    await server.run(notifyWebhookDeactivated(owner.account_id, 42, "https://hooks.example.test/two"))
    const list = await server.request("GET", "/api/notifications", { token: owner.token })
    expect(list.body.meta.total).toBe(1)
    expect(await server.run(sendPendingEmails(10))).toBe(1)
    expect(mails().at(-1).text).toContain("https://hooks.example.test/two")
    // Silence everything: nothing at all.
    await server.request("PUT", "/api/me/notification-preferences", {
      token: owner.token,
      body: { name: "WebhookDeactivated", stored: false, popup: false, browser: false, email: false }
    })
    const before = (await server.query("SELECT count(*)::int AS n FROM notifications"))[0].n
    await server.run(notifyWebhookDeactivated(owner.account_id, 43, "https://hooks.example.test/three"))
    expect((await server.query("SELECT count(*)::int AS n FROM notifications"))[0].n).toBe(before)
    // Stored only: listed, no mail.
    await server.request("PUT", "/api/me/notification-preferences", {
      token: owner.token,
      body: { name: "WebhookDeactivated", stored: true, popup: false, browser: true, email: false }
    })
    await server.run(notifyWebhookDeactivated(owner.account_id, 44, "https://hooks.example.test/four"))
    const newest = (await server.request("GET", "/api/notifications", { token: owner.token })).body.data[0]
    expect(newest).toMatchObject({ popup: false, browser: true, data: { webhook_id: 44 } })
    expect(await server.run(sendPendingEmails(10))).toBe(0)
  })

  it("validates the preference body (422)", async () => {
    const cases: ReadonlyArray<readonly [unknown, string, string]> = [
      [{ stored: true, popup: true, browser: true, email: true }, "name", "The name field is required."],
      [{ name: "Nope", stored: true, popup: true, browser: true, email: true }, "name", "The selected name is invalid."],
      [{ name: "WebhookDeactivated", popup: true, browser: true, email: true }, "stored", "The stored field is required."],
      [{ name: "WebhookDeactivated", stored: "yes", popup: true, browser: true, email: true }, "stored", "The stored field must be true or false."]
    ]
    for (const [body, key, message] of cases) {
      const reply = await server.request("PUT", "/api/me/notification-preferences", { token: owner.token, body })
      expect(reply.status).toBe(422)
      expect(reply.body.errors[key]).toEqual([message])
    }
  })

  it("paginates newest first with the Laravel body", async () => {
    for (let i = 0; i < 3; i++) await server.run(notifyWebhookDeactivated(owner.account_id, 100 + i, `https://h.example.test/${i}`))
    const page = await server.request("GET", "/api/notifications?per_page=2&page=1", { token: owner.token })
    expect(page.body.data.map((n: { data: { webhook_id: number } }) => n.data.webhook_id)).toEqual([102, 101])
    expect(page.body.links.next).toContain("page=2")
    expect(page.body.meta).toMatchObject({ per_page: 2, from: 1, to: 2 })
    const bad = await server.request("GET", "/api/notifications?per_page=0", { token: owner.token })
    expect(bad.status).toBe(422)
    expect((await server.request("GET", "/api/notifications")).status).toBe(401)
  })
})
