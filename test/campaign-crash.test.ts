/**
 * A campaign survives its worker's death: apps/server and apps/worker processes on a scratch
 * database of TEST_DATABASE_URL, a `whatsapp_cloud` number on the fake Cloud API answering each
 * message after 200 ms, 3,000 contacts sent to at 500 a second.
 *
 * The worker is SIGKILLed a third of the way in, with about a hundred calls in flight. Meta then
 * reports the `sent` status of each message the fake accepted whose recipient the dead worker
 * left `sending` — its signed callback to Wasl's receiver, naming the send by the
 * `biz_opaque_callback_data` it carried. Once its lease has run out (set in the past here,
 * standing in for its 2 minutes) a new worker resumes the campaign: it stores those messages from
 * their statuses, and, once the confirm window has passed (moved into the past here, standing in
 * for its 15 minutes), sends the few the dead worker had claimed and never called; the campaign
 * completes. Nobody twice: no number reaches the fake Cloud API twice. Nobody left out: every
 * recipient reached it exactly once and is `sent` in Wasl with that call's message. The counts and
 * the allowance agree.
 *
 * Runs only when TEST_DATABASE_URL is set (the embedded database admits one process).
 */
import { type FakeCloudApi, startFakeCloudApi } from "@wasl/adapters/testing"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  apiClient,
  bootstrapToken,
  eventually,
  exitWithin,
  freePort,
  killAll,
  launch,
  launchServer,
  queryDatabase,
  scratchDatabase,
  serverEnv,
  testPostgresUrl,
  workerMain
} from "./support/processes.ts"

const WORKER_STARTED = /Wasl delivery worker started/
const APP_SECRET = "a-meta-app-secret-for-the-crash"
const ACCESS_TOKEN = "EAAG-campaign-crash"
const PHONE_ID = "106540352242977"
const WABA_ID = "102290129340377"
const CONTACTS = 3_000
const RATE = 500
const LATENCY_MS = 200
/**
 * The most recipients the dead worker may have claimed without calling the fake: the rest of its
 * last claim (20 ms of sends at the pace) and those between the claim's commit and their call.
 */
const CLAIMED_NOT_CALLED = 20

describe.runIf(testPostgresUrl() !== undefined)("a campaign whose worker is SIGKILLed mid-send", () => {
  let dir = ""
  let database: { url: string; drop: () => Promise<void> } | undefined
  let cloud: FakeCloudApi
  let env: NodeJS.ProcessEnv
  let api: ReturnType<typeof apiClient>
  let accountId = 0

  const sends = () => cloud.calls.filter((c) => c.path.endsWith(`/${PHONE_ID}/messages`))
  const startWorker = async (name: string) => {
    const worker = launch(name, workerMain, [], env)
    await worker.waitForStdout(WORKER_STARTED, 60_000)
    return worker
  }

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-campaign-crash-"))
    database = await scratchDatabase(testPostgresUrl()!)
    cloud = await startFakeCloudApi(ACCESS_TOKEN)
    cloud.latencyMs = LATENCY_MS
    const port = await freePort()
    env = serverEnv(dir, database.url, port, {
      WASL_WHATSAPP_GRAPH_URL: cloud.url,
      WASL_WHATSAPP_SEND_RATE: String(RATE),
      WASL_WHATSAPP_APP_SECRET: APP_SECRET,
      WASL_WHATSAPP_VERIFY_TOKEN: "a-verify-token-for-the-crash",
      WASL_MAIL_OUTBOX: Path.join(dir, "mail.jsonl")
    })
    await launchServer(env)
    cloud.webhook = { url: `http://127.0.0.1:${port}/api/whatsapp/webhook`, appSecret: APP_SECRET }
    api = apiClient(`http://127.0.0.1:${port}`, await bootstrapToken(env, "Crash", "crash@example.test"))
    accountId = Number((await queryDatabase(database.url, "SELECT id FROM accounts"))[0].id)
    await queryDatabase(
      database.url,
      `INSERT INTO contacts (account_id, id, firstname, whatsapp_number, created_at, updated_at)
       SELECT $1::int8, lpad(to_hex(g), 24, '0'), 'Contact ' || g, '+9665' || lpad(g::text, 8, '0'), now(), now()
       FROM generate_series(1, $2::int) g`,
      [accountId, CONTACTS]
    )
  }, 120_000)

  afterAll(async () => {
    await killAll()
    await cloud?.close()
    await database?.drop()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("resumes on a new worker and completes: nobody twice, nobody left out, the counts agree", async () => {
    const platform = await api("POST", "/api/platforms", {
      name: "Cloud number",
      display_phone_number: "+1 555 000 7777",
      provider: "whatsapp_cloud",
      phone_id: PHONE_ID,
      waba_id: WABA_ID,
      access_token: ACCESS_TOKEN
    })
    expect(platform.status, platform.text).toBe(201)
    const broadcast = await api("POST", "/api/broadcasts", {
      name: "Spring sale",
      language: "en",
      platform_id: platform.body.data.id,
      template: { name: "spring_sale", category: "MARKETING", body: "The spring sale has started." }
    })
    expect(broadcast.status, broadcast.text).toBe(201)
    await cloud.reviewTemplate(broadcast.body.data.template.external_id, "APPROVED", { silently: true })
    expect((await api("POST", "/api/broadcasts/sync")).status).toBe(200)
    const asked = await api("POST", `/api/broadcasts/${broadcast.body.data.id}/campaigns`, {
      name: "Spring",
      audience: { complex_filters: [] }
    })
    expect(asked.status, asked.text).toBe(202)
    const campaignId: string = asked.body.data._id

    const victim = await startWorker("worker 1")
    await eventually(() => sends().length >= CONTACTS / 3, 60_000, "a third of the campaign sent")
    victim.kill("SIGKILL")
    expect((await exitWithin(victim, 10_000)).signal).toBe("SIGKILL")
    const calledBeforeKill = sends().length
    const held = await queryDatabase(
      database!.url,
      "SELECT status, count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1 GROUP BY status",
      [campaignId]
    )
    // Sends were under way: the kill came mid-campaign, with calls in flight.
    expect(held.find((r) => r.status === "sending")?.n ?? 0).toBeGreaterThan(0)
    expect(held.find((r) => r.status === "pending")?.n ?? 0).toBeGreaterThan(0)

    // Meta answers the calls in flight all the same, and reports their statuses.
    await eventually(() => sends().every((c) => c.messageId !== undefined), 10_000, "every call answered")
    const leftSending = new Set(
      (await queryDatabase(database!.url, "SELECT digits FROM campaign_recipients WHERE campaign_id = $1 AND status = 'sending'", [
        campaignId
      ])).map((r) => String(r.digits))
    )
    const reported = sends().filter((c) => leftSending.has(String(c.json.to)))
    expect(reported.length).toBeGreaterThan(0)
    expect(reported.every((c) => typeof c.json.biz_opaque_callback_data === "string")).toBe(true)
    for (const call of reported) expect(await cloud.reportStatus(call, "sent")).toBe(200)
    await queryDatabase(database!.url, "UPDATE campaigns SET lease_until = now() - interval '1 second' WHERE id = $1", [campaignId])

    const successor = await startWorker("worker 2")
    // Once the statuses are taken in, the confirm window of those that never reached Meta passes.
    await eventually(
      async () => (await queryDatabase(database!.url, "SELECT count(*)::int AS n FROM whatsapp_inbox"))[0].n === 0,
      30_000,
      "the statuses taken in"
    )
    await queryDatabase(
      database!.url,
      `UPDATE campaign_recipients r SET updated_at = now() - interval '16 minutes'
       WHERE campaign_id = $1 AND status = 'sending' AND NOT EXISTS (
         SELECT 1 FROM message_status_holds h
         WHERE h.account_id = r.account_id AND h.tracking = 'wasl-campaign:' || r.campaign_id || ':' || r.contact_id
       )`,
      [campaignId]
    )
    await queryDatabase(database!.url, "UPDATE campaigns SET resume_at = NULL WHERE id = $1", [campaignId])
    await eventually(
      async () => (await api("GET", `/api/campaigns/${campaignId}`)).body.data.status === "completed",
      60_000,
      `the campaign completed\n${successor.output()}`
    )
    const campaign = (await api("GET", `/api/campaigns/${campaignId}`)).body.data

    // Nobody twice.
    const byNumber = Map.groupBy(sends(), (c) => String(c.json.to))
    const twice = [...byNumber].filter(([, calls]) => calls.length > 1).map(([to]) => to)
    expect(twice).toEqual([])
    expect(calledBeforeKill).toBeLessThan(CONTACTS)

    // Nobody left out: each recipient reached the fake once and is sent with that call's message.
    const recipients = await queryDatabase(
      database!.url,
      `SELECT r.digits, r.status, m.provider_message_id FROM campaign_recipients r
       LEFT JOIN messages m ON m.account_id = r.account_id AND m.id = r.message_id
       WHERE r.campaign_id = $1`,
      [campaignId]
    )
    expect(recipients).toHaveLength(CONTACTS)
    expect(recipients.filter((r) => r.status !== "sent")).toEqual([])
    expect(byNumber.size).toBe(CONTACTS)
    for (const r of recipients) expect(r.provider_message_id, r.digits).toBe(byNumber.get(r.digits)![0]!.messageId)
    // The dead worker's claimed recipients it never called: sent by its successor, and few.
    const calledAfter = leftSending.size - reported.length
    expect(calledAfter).toBeLessThanOrEqual(CLAIMED_NOT_CALLED)

    // The counts and the month's allowance: one message for each recipient.
    expect(campaign.counts).toMatchObject({ recipients: CONTACTS, sent: CONTACTS, failed: 0, skipped: 0 })
    const me = await api("GET", "/api/me")
    expect(me.body.account.message_allowance.used).toBe(CONTACTS)
    successor.kill("SIGTERM")
    expect(await exitWithin(successor, 30_000), successor.output()).toEqual({ code: 0, signal: null })
  }, 120_000)
})
