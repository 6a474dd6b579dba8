/**
 * The whole WhatsApp loop as a team uses it, end to end, with real processes: `npm start` on a
 * fresh embedded data directory with a Meta app's secret and verify token, a sandbox number, and
 * Meta's side played by signed HTTP requests shaped like Meta's webhook reference.
 *
 * Meta verifies the callback URL, a customer writes, the message is in the inbox with its new
 * contact and channel, a member replies within the 24-hour window, the sandbox walks the reply
 * through sent, delivered and read, the thread is marked read, and `wasl sandbox receive` brings a
 * second customer's message the same way. A body signed with another secret is refused and
 * changes nothing.
 *
 * Black box: this file imports nothing from the workspace.
 */
import { createHmac } from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  apiClient,
  cliMain,
  eventually,
  FIRST_RUN,
  freePort,
  killAll,
  launch,
  LISTENING,
  type Reply,
  runToEnd,
  waslMain
} from "./support/processes.ts"

const APP_SECRET = "a-meta-app-secret-for-the-loop"
const VERIFY_TOKEN = "verify-me-please"
const NUMBER = "+966110000077"
const NUMBER_DIGITS = "966110000077"

/** Meta's `messages` webhook of one text message, as its reference shows it. */
const textWebhook = (from: string, name: string, id: string, text: string, at: Date) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{
      id: "102290129340398",
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: NUMBER_DIGITS, phone_number_id: NUMBER_DIGITS },
          contacts: [{ profile: { name }, wa_id: from }],
          messages: [{ from, id, timestamp: String(Math.floor(at.getTime() / 1000)), type: "text", text: { body: text } }]
        }
      }]
    }]
  })

const signature = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`

describe("WhatsApp both ways, end to end on npm start", () => {
  let dir = ""
  let baseUrl = ""
  let api: (method: string, path: string, body?: unknown) => Promise<Reply>
  let env: NodeJS.ProcessEnv = {}
  let platformId = 0

  const postWebhook = (body: string, sig: string | undefined) =>
    fetch(`${baseUrl}/api/whatsapp/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(sig === undefined ? {} : { "x-hub-signature-256": sig }) },
      body
    })

  const conversations = async () => {
    const reply = await api("GET", "/api/conversations")
    expect(reply.status, reply.text).toBe(200)
    return reply.body.data as ReadonlyArray<any>
  }

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-whatsapp-"))
    const port = await freePort()
    env = {
      ...process.env,
      WASL_DATA_DIR: dir,
      HOST: "127.0.0.1",
      PORT: String(port),
      WASL_WHATSAPP_APP_SECRET: APP_SECRET,
      WASL_WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      WASL_SANDBOX_OUTBOX: Path.join(dir, "sandbox-outbox.jsonl")
    }
    delete env.DATABASE_URL
    const server = launch("wasl (npm start)", waslMain, [], env)
    await server.waitForStdout(LISTENING, 90_000)
    const block = FIRST_RUN.exec(server.stdout())
    if (block === null) throw new Error(`no first-run block\n${server.output()}`)
    baseUrl = `http://127.0.0.1:${port}`
    api = apiClient(baseUrl, block[3]!)
    const platform = await api("POST", "/api/platforms", { name: "Support", display_phone_number: NUMBER, provider: "sandbox" })
    expect(platform.status, platform.text).toBe(201)
    platformId = platform.body.data.id
  }, 120_000)

  afterAll(async () => {
    await killAll()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  it("answers Meta's verification of the callback URL with the challenge, and refuses a wrong token", async () => {
    const ok = await fetch(`${baseUrl}/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`)
    expect(ok.status).toBe(200)
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(await ok.text()).toBe("1158201444")
    const wrong = await fetch(`${baseUrl}/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`)
    expect(wrong.status).toBe(403)
  })

  it("receives a customer's message into the inbox, with a new contact and its channel; a forged body changes nothing", async () => {
    const forged = textWebhook("966500000031", "Mallory", "wamid.forged-1", "let me in", new Date())
    expect((await postWebhook(forged, signature("another secret", forged))).status).toBe(401)
    expect((await postWebhook(forged, undefined)).status).toBe(401)

    const sentAt = new Date(Date.now() - 60_000)
    const body = textWebhook("966500000032", "Layla Haddad", "wamid.loop-inbound-1", "Is my order on its way?", sentAt)
    const answer = await postWebhook(body, signature(APP_SECRET, body))
    expect(answer.status).toBe(200)
    // Meta retries: the same message twice is one message.
    expect((await postWebhook(body, signature(APP_SECRET, body))).status).toBe(200)

    await eventually(async () => (await conversations()).length === 1, 10_000, "the conversation is in the inbox")
    const [entry] = await conversations()
    expect(entry.contact).toMatchObject({ fullname: "Layla Haddad" })
    expect(entry.unread_count).toBe(1)
    expect(entry.window_expires_at).not.toBeNull()
    expect(entry.last_message).toMatchObject({
      id: "wamid.loop-inbound-1",
      type: "text",
      body: "Is my order on its way?",
      status: "received",
      is_sent_by_the_business: false
    })
    expect((await conversations()).some((c) => c.contact.fullname === "Mallory")).toBe(false)

    const contact = await api("GET", `/api/contacts/${entry.contact._id}`)
    expect(contact.status, contact.text).toBe(200)
    expect(contact.body.data.channels).toEqual([expect.objectContaining({
      platform_third_party_id: NUMBER_DIGITS,
      contact_third_party_id: "966500000032"
    })])
    expect(contact.body.data.properties.first_received_message_at).not.toBeNull()
    expect(entry.last_message.contact_channel_id).toBe(contact.body.data.channels[0]._id)
  }, 60_000)

  it("replies within the window; the sandbox walks the reply to read; the thread is then marked read", async () => {
    const [entry] = await conversations()
    const reply = await api("POST", `/api/contacts/${entry.contact._id}/messages`, { text: "Yes, it arrives tomorrow." })
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body.data).toMatchObject({ type: "text", is_sent_by_the_business: true, broadcast_id: null })

    const thread = async () => (await api("GET", `/api/contacts/${entry.contact._id}/messages`)).body.data as ReadonlyArray<any>
    await eventually(async () => (await thread())[0]?.status === "read", 15_000, "the reply walked to read")
    const [latest, first] = await thread()
    expect(latest).toMatchObject({ _id: reply.body.data._id, status: "read" })
    expect(latest.delivered_at).not.toBeNull()
    expect(first).toMatchObject({ id: "wamid.loop-inbound-1", is_sent_by_the_business: false })

    const read = await api("POST", `/api/conversations/${entry.contact._id}/read`)
    expect(read.status, read.text).toBe(200)
    expect((await conversations())[0].unread_count).toBe(0)
  }, 60_000)

  it("brings a second customer's message in with wasl sandbox receive", async () => {
    const result = await runToEnd("wasl sandbox receive", cliMain, [
      "sandbox", "receive", "--platform", String(platformId), "--from", "966500000033", "--text", "Hello from the sandbox"
    ], env)
    expect(result.code, result.stderr).toBe(0)
    await eventually(
      async () => (await conversations()).some((c) => c.last_message.body === "Hello from the sandbox" && c.unread_count === 1),
      10_000,
      "the sandbox message is in the inbox"
    )
  }, 60_000)
})
