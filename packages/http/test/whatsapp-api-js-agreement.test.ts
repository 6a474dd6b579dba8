/**
 * Wasl's receiver beside the `whatsapp-api-js` package's webhook handler (`WhatsAppAPI.post` and
 * `get`), fed the same signed callbacks of the fake Meta (a message of every type, every status):
 * they agree on which are authentic (signed right; signed with another secret; unsigned; tampered
 * with after signing) and on the verification of the callback URL, and the body Wasl hands its
 * processing names the message ids and types (statuses) that whatsapp-api-js extracts.
 *
 * The bodies are as Meta writes them (`metaJson`: ASCII, every other character escaped). The two
 * differ beyond that: whatsapp-api-js escapes a raw body's non-ASCII characters before checking its
 * signature (for frameworks that decoded it), and takes an upper-case signature; Wasl checks the
 * bytes as received, and Meta's lower-case hex only.
 */
import { Duration, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WhatsAppAPI } from "whatsapp-api-js"
import { everyMetaMessage, everyMetaStatus, metaJson, metaWebhook, signMeta } from "@wasl/adapters/testing"
import { drainWhatsAppInbox } from "@wasl/core/WhatsApp"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const APP_SECRET = "meta-app-secret-for-agreement"
const VERIFY_TOKEN = "verify-token-for-agreement"
const PHONE_NUMBER_ID = "106540352242922"
const CUSTOMER = "16505551234"

/** What one side made of a callback: authentic or not, and the message or status it named. */
interface Verdict {
  readonly authentic: boolean
  readonly id?: string
  readonly kind?: string
}

const callbacks: ReadonlyArray<{ readonly name: string; readonly body: string }> = [
  ...everyMetaMessage(CUSTOMER, "agree").map((message) => ({
    name: `message ${message.type} ${message.id}`,
    body: metaJson(metaWebhook.messages({ phoneNumberId: PHONE_NUMBER_ID, profileName: "Zoë ليلى 🙂", messages: [message] }))
  })),
  ...everyMetaStatus(CUSTOMER, "agree").map((status) => ({
    name: `status ${status.status} ${status.id}`,
    body: metaJson(metaWebhook.status({ phoneNumberId: PHONE_NUMBER_ID, ...status }))
  }))
]

/** The ways a callback can be signed: right, with another secret, not at all, or tampered with after signing. */
const signings = [
  { name: "signed right", sign: (body: string) => ({ body, signature: signMeta(APP_SECRET, body) as string | undefined }) },
  { name: "another secret", sign: (body: string) => ({ body, signature: signMeta("not-the-app-secret", body) as string | undefined }) },
  { name: "unsigned", sign: (body: string) => ({ body, signature: undefined as string | undefined }) },
  {
    name: "tampered",
    sign: (body: string) => ({ body: body.replace(CUSTOMER, "16505550000"), signature: signMeta(APP_SECRET, body) as string | undefined })
  }
] as const

/** whatsapp-api-js's verdict: `post` resolves for an authentic callback (and calls its emitter), throws otherwise. */
const theirs = async (body: string, signature: string | undefined): Promise<Verdict> => {
  let named: Verdict = { authentic: true }
  const api = new WhatsAppAPI({ token: "unused", appSecret: APP_SECRET, webhookVerifyToken: VERIFY_TOKEN, v: "v24.0" })
  api.on.message = ({ message }) => {
    named = { authentic: true, id: message.id, kind: message.type }
  }
  api.on.status = ({ id, status }) => {
    named = { authentic: true, id, kind: status }
  }
  try {
    await api.post(JSON.parse(body), body, signature as string)
    return named
  } catch {
    return { authentic: false }
  }
}

/** What Wasl's processing is handed for a stored callback: the message or status it names. */
const namedIn = (stored: string): Omit<Verdict, "authentic"> => {
  const value = JSON.parse(stored).entry[0].changes[0].value
  const message = value.messages?.[0]
  if (message !== undefined) return { id: message.id, kind: message.type }
  return { id: value.statuses[0].id, kind: value.statuses[0].status }
}

describe.each(DATABASES)("Wasl and whatsapp-api-js agree (%s)", (database) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(database, { whatsappWebhook: { appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN } })
  })
  afterAll(() => server.close())

  /** Wasl's verdict: 200 or 401; an authentic one is named by the body its processing is handed. */
  const ours = async (body: string, signature: string | undefined): Promise<Verdict> => {
    const response = await fetch(`${server.url}/api/whatsapp/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature === undefined ? {} : { "x-hub-signature-256": signature }) },
      body
    })
    expect([200, 401]).toContain(response.status)
    if (response.status === 401) return { authentic: false }
    const handed: Array<string> = []
    await server.run(drainWhatsAppInbox(
      { batch: 10, concurrency: 1, lease: Duration.minutes(1) },
      (stored) => Effect.sync(() => void handed.push(stored))
    ))
    expect(handed).toEqual([body])
    return { authentic: true, ...namedIn(handed[0]!) }
  }

  it("on which callbacks are authentic, and on the ids and types of the messages and statuses", async () => {
    let authentic = 0
    for (const callback of callbacks) {
      for (const signing of signings) {
        const { body, signature } = signing.sign(callback.body)
        const [wasl, other] = [await ours(body, signature), await theirs(body, signature)]
        expect(wasl, `${callback.name}, ${signing.name}`).toEqual(other)
        expect(wasl.authentic, `${callback.name}, ${signing.name}`).toBe(signing.name === "signed right")
        if (wasl.authentic) authentic++
      }
    }
    // Every type and status was seen by both, named alike.
    expect(authentic).toBe(callbacks.length)
  })

  it("on the verification of the callback URL", async () => {
    const api = new WhatsAppAPI({ token: "unused", appSecret: APP_SECRET, webhookVerifyToken: VERIFY_TOKEN, v: "v24.0" })
    const cases = [
      { "hub.mode": "subscribe" as const, "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1158201444" },
      { "hub.mode": "subscribe" as const, "hub.verify_token": `${VERIFY_TOKEN}!`, "hub.challenge": "1158201444" },
      { "hub.mode": "subscribe" as const, "hub.verify_token": "", "hub.challenge": "1158201444" }
    ]
    for (const params of cases) {
      const reply = await server.request("GET", `/api/whatsapp/webhook?${new URLSearchParams(params)}`)
      let their: string | undefined
      try {
        their = api.get(params)
      } catch {
        their = undefined
      }
      expect(reply.status === 200 ? reply.text : undefined, params["hub.verify_token"]).toBe(their)
    }
  })
})
