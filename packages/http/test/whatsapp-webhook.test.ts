/**
 * The WhatsApp receiver over real sockets, on each database: Meta's verification of the callback
 * URL, and its callbacks: the signature checked on the raw bytes before anything reads them (401
 * and nothing stored when missing, wrong or the body tampered with), a signed callback stored
 * once as it came and answered 200, a signed body that is not Meta's shape answered 200 and
 * counted but not stored, over 1 MiB 413, no rate limit, and 404 without the settings.
 */
import { Duration } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { metaWebhook, signMeta } from "@wasl/adapters/testing"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const APP_SECRET = "meta-app-secret-for-tests"
const VERIFY_TOKEN = "verify-token-for-tests"
const PATH = "/api/whatsapp/webhook"
const NOT_FOUND = { message: "Not found." }
const METRICS_TOKEN = "metrics-token-for-tests"

const textCallback = (id: string) =>
  JSON.stringify(metaWebhook.textMessage({ phoneNumberId: "106540352242922", from: "16505551234", id, text: "Hi", profileName: "Sheena" }))

/** Posts raw bytes to the callback URL with the given signature header (none when undefined). */
const post = async (server: TestServer, body: string | Uint8Array, signature: string | undefined, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + PATH, {
    method: "POST",
    headers: { "content-type": "application/json", ...(signature === undefined ? {} : { "x-hub-signature-256": signature }), ...headers },
    body
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: text === "" ? undefined : JSON.parse(text) }
}

const stored = async (server: TestServer) =>
  (await server.query("SELECT body, attempts, claimed_until FROM whatsapp_inbox ORDER BY id")).map((row) => row.body as string)

/** The counter of callbacks with this outcome, as `GET /metrics` shows it. */
const counted = async (server: TestServer, outcome: string) => {
  const text = (await server.request("GET", "/metrics", { token: METRICS_TOKEN })).text
  const line = text.split("\n").find((l) => l.startsWith(`wasl_whatsapp_webhooks_total{`) && l.includes(`outcome="${outcome}"`))
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1))
}

describe.each(DATABASES)("the WhatsApp receiver (%s)", (database) => {
  let server: TestServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  const start = () =>
    startTestServer(database, {
      whatsappWebhook: { appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN },
      // Scrapes with the token are not counted against the (tight) caller limit.
      metricsToken: METRICS_TOKEN,
      rateLimits: { caller: { limit: 1, window: Duration.minutes(1) } }
    })

  it("without both settings, both routes answer 404 Not found.", async () => {
    server = await startTestServer(database)
    const verify = await server.request("GET", `${PATH}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`)
    expect([verify.status, verify.body]).toEqual([404, NOT_FOUND])
    const body = textCallback("wamid.none")
    const reply = await post(server, body, signMeta(APP_SECRET, body))
    expect([reply.status, reply.body]).toEqual([404, NOT_FOUND])
    expect(await stored(server)).toEqual([])
  })

  it("verification answers the challenge exactly, as text/plain, for the right token and mode; else 403", async () => {
    server = await start()
    const challenge = "1158201444"
    const right = await server.request("GET", `${PATH}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=${challenge}`)
    expect(right.status).toBe(200)
    expect(right.text).toBe(challenge)
    expect(right.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(right.headers.get("ratelimit-limit")).toBeNull()
    // Twice more: no rate limit (the caller limit here is 1 a minute).
    for (let i = 0; i < 2; i++) expect((await server.request("GET", `${PATH}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=x`)).text).toBe("x")

    for (
      const query of [
        `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}x&hub.challenge=${challenge}`,
        `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN.slice(0, -1)}&hub.challenge=${challenge}`,
        `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=${challenge}`,
        `hub.verify_token=${VERIFY_TOKEN}&hub.challenge=${challenge}`,
        `hub.mode=subscribe&hub.challenge=${challenge}`,
        `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`
      ]
    ) {
      const wrong = await server.request("GET", `${PATH}?${query}`)
      expect(wrong.status, query).toBe(403)
      expect(typeof wrong.body.message).toBe("string")
      expect(wrong.text).not.toContain(challenge)
    }
  })

  it("a callback without its signature, with a wrong one, or tampered after signing is 401 and stores nothing", async () => {
    server = await start()
    const body = textCallback("wamid.forged")
    const signature = signMeta(APP_SECRET, body)
    const refused = [
      await post(server, body, undefined),
      await post(server, body, ""),
      await post(server, body, signMeta("another-secret", body)),
      await post(server, body, signature.toUpperCase().replace("SHA256=", "sha256=")),
      await post(server, body, signature.slice("sha256=".length)),
      await post(server, body, `sha1=${signature.slice("sha256=".length)}`),
      await post(server, body.replace("Hi", "Ho"), signature),
      await post(server, `${body} `, signature)
    ]
    for (const reply of refused) {
      expect(reply.status).toBe(401)
      expect(typeof reply.body.message).toBe("string")
    }
    expect(await stored(server)).toEqual([])
  })

  it("a signed callback is stored once, exactly as sent, and answered 200 at once; any number, without a rate limit", async () => {
    server = await start()
    const before = await counted(server, "stored")
    // Whitespace, key order and escapes as Meta's serializer chose them, a NUL escape and a
    // nesting deeper than the API's JSON bodies take: the bytes are what is kept.
    const odd = `{"entry":[{"changes":[{"value":{"text":"\\u0000 \\ud83d\\ude00 عربي","deep":${"[".repeat(40)}${"]".repeat(40)}}}]}], "object" : "whatsapp_business_account"}`
    const bodies = [textCallback("wamid.1"), textCallback("wamid.2"), odd]
    for (const [i, body] of bodies.entries()) {
      // The content type's parameters change nothing.
      const headers = i === 2 ? { "content-type": "application/json; charset=UTF-8" } : {}
      const reply = await post(server, body, signMeta(APP_SECRET, body), headers)
      expect(reply.status).toBe(200)
      expect(reply.text).toBe("")
      expect(reply.headers.get("ratelimit-limit")).toBeNull()
    }
    expect(await stored(server)).toEqual(bodies)
    expect(await counted(server, "stored")).toBe(before + 3)
    const [row] = await server.query("SELECT attempts, claimed_until FROM whatsapp_inbox ORDER BY id LIMIT 1")
    expect([row.attempts, row.claimed_until]).toEqual([0, null])
  })

  it("a signed body that is not Meta's shape is answered 200, counted, and not stored", async () => {
    server = await start()
    const before = await counted(server, "ignored")
    const bodies: ReadonlyArray<string | Uint8Array> = [
      "not json",
      "",
      "[]",
      "null",
      `{"object":"page","entry":[]}`,
      `{"object":"whatsapp_business_account"}`,
      `{"object":"whatsapp_business_account","entry":{}}`,
      new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])
    ]
    for (const body of bodies) {
      const reply = await post(server, body, signMeta(APP_SECRET, body))
      expect(reply.status, String(body)).toBe(200)
    }
    expect(await stored(server)).toEqual([])
    expect(await counted(server, "ignored")).toBe(before + bodies.length)
  })

  it("a body over 1 MiB is 413 and stores nothing; 1 MiB is taken", async () => {
    server = await start()
    const envelope = (fill: number) => `{"object":"whatsapp_business_account","entry":[],"pad":"${"x".repeat(fill)}"}`
    const overhead = envelope(0).length
    const largest = envelope(1024 * 1024 - overhead)
    const tooLarge = envelope(1024 * 1024 - overhead + 1)
    const over = await post(server, tooLarge, signMeta(APP_SECRET, tooLarge))
    expect(over.status).toBe(413)
    expect(typeof over.body.message).toBe("string")
    expect(await stored(server)).toEqual([])
    expect((await post(server, largest, signMeta(APP_SECRET, largest))).status).toBe(200)
    expect((await stored(server)).length).toBe(1)
  })
})
