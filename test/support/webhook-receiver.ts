/**
 * A local HTTPS webhook receiver for tests and benchmarks, written the way a customer would write
 * one, with node: modules only:
 *
 * - it serves `https://localhost:<port>` with the certificate in test/fixtures/tls (the apps
 *   trust its CA through `WASL_WEBHOOK_CA_FILE`);
 * - every POST's signature is checked over `<X-Wasl-Timestamp>:<raw body>` with the secret
 *   registered for its path, compared in constant time, and the timestamp must be within 300 s:
 *   otherwise 401;
 * - it answers the validation challenge (`event: "webhook-validation"`) with
 *   `{ signature: "sha256=" + HMAC(secret, challenge) }`;
 * - each path answers 200 unless told otherwise (`setStatus`), and every request is recorded;
 * - every POST is also checked the Standard Webhooks way, with the official `standardwebhooks`
 *   verifier given base64 of the secret's UTF-8 bytes (what the README tells a receiver), and the
 *   outcome recorded (`standardVerified`); the answer still follows the `X-Wasl-Signature` check.
 */
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import type * as Http from "node:http"
import * as Https from "node:https"
import { Webhook } from "standardwebhooks"
import { LOCALHOST_CERT_FILE, LOCALHOST_KEY_FILE, TEST_CA_FILE } from "./test-tls.ts"

/** The CA that signed the receiver's certificate: pass it as `WASL_WEBHOOK_CA_FILE`. */
export const RECEIVER_CA_FILE = TEST_CA_FILE

/** The receiver's timestamp tolerance, as the README's receiver uses it. */
export const TOLERANCE_SECONDS = 300

export interface ReceivedRequest {
  readonly path: string
  readonly headers: Http.IncomingHttpHeaders
  readonly rawBody: string
  /** The parsed body (undefined when it is not JSON). */
  readonly body: any
  /** The signature matched and the timestamp was fresh. */
  readonly verified: boolean
  /** The official Standard Webhooks verifier accepted the request (`webhook-*` headers). */
  readonly standardVerified: boolean
  /** The status it was answered with. */
  readonly status: number
  /** Date.now() when it arrived. */
  readonly receivedAt: number
}

export interface WebhookReceiver {
  readonly port: number
  /** `https://localhost:<port><path>`. */
  readonly url: (path: string) => string
  /** The secret the receiver checks signatures with for `path`. */
  readonly setSecret: (path: string, secret: string) => void
  /** The status `path` answers deliveries with from now on (200 by default). */
  readonly setStatus: (path: string, status: number) => void
  /** How long `path` takes to answer a delivery from now on, in milliseconds (0 by default), as a slow endpoint would. */
  readonly setDelay: (path: string, millis: number) => void
  /** Every request so far, in arrival order (optionally only those of `path`). */
  readonly received: (path?: string) => ReadonlyArray<ReceivedRequest>
  /** Called for every request as it arrives (the benchmark counts with it). */
  readonly onRequest: (listener: (request: ReceivedRequest) => void) => void
  /** Resolves once `predicate` holds over the requests (checked on every arrival), or rejects after `timeoutMs`. */
  readonly waitFor: (predicate: (all: ReadonlyArray<ReceivedRequest>) => boolean, timeoutMs: number, what?: string) => Promise<void>
  readonly close: () => Promise<void>
}

const hmacHex = (secret: string, message: string | Buffer) =>
  Crypto.createHmac("sha256", secret).update(message).digest("hex")

/** Whether `new Webhook(base64 of the secret).verify(raw body, headers)` accepts the request. */
const standardWebhookVerifies = (secret: string, raw: Buffer, headers: Http.IncomingHttpHeaders): boolean => {
  const single: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (typeof value === "string") single[name] = value
  try {
    new Webhook(Buffer.from(secret, "utf8").toString("base64")).verify(raw, single)
    return true
  } catch {
    return false
  }
}

/** Constant-time comparison of two signatures. */
const sameSignature = (expected: string, received: string): boolean => {
  const a = Buffer.from(expected, "utf8")
  const b = Buffer.from(received, "utf8")
  return a.length === b.length && Crypto.timingSafeEqual(a, b)
}

export const startWebhookReceiver = async (options: { readonly record?: boolean } = {}): Promise<WebhookReceiver> => {
  const record = options.record ?? true
  const secrets = new Map<string, string>()
  const statuses = new Map<string, number>()
  const delays = new Map<string, number>()
  const requests: Array<ReceivedRequest> = []
  const listeners: Array<(request: ReceivedRequest) => void> = []
  const waiters = new Set<() => void>()

  const server = Https.createServer({
    key: Fs.readFileSync(LOCALHOST_KEY_FILE),
    cert: Fs.readFileSync(LOCALHOST_CERT_FILE),
    keepAliveTimeout: 60_000
  }, (req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const raw = Buffer.concat(chunks)
      const rawBody = raw.toString("utf8")
      const path = (req.url ?? "/").split("?")[0]!
      let body: any = undefined
      try {
        body = JSON.parse(rawBody)
      } catch {
        body = undefined
      }
      const secret = secrets.get(path)
      const timestamp = String(req.headers["x-wasl-timestamp"] ?? "")
      const signature = String(req.headers["x-wasl-signature"] ?? "")
      const fresh = /^\d+$/.test(timestamp) && Math.abs(Date.now() / 1000 - Number(timestamp)) <= TOLERANCE_SECONDS
      // The raw bytes as received, never a re-encoding of the parsed body.
      const verified = secret !== undefined && fresh &&
        sameSignature(`sha256=${hmacHex(secret, Buffer.concat([Buffer.from(`${timestamp}:`), raw]))}`, signature)
      const standardVerified = secret !== undefined && standardWebhookVerifies(secret, raw, req.headers)

      let status: number
      let answer = ""
      if (req.method !== "POST") status = 405
      else if (!verified) status = 401
      else if (body?.event === "webhook-validation" && typeof body.challenge === "string") {
        status = 200
        answer = JSON.stringify({ signature: `sha256=${hmacHex(secret!, body.challenge)}` })
      } else status = statuses.get(path) ?? 200

      const entry: ReceivedRequest = {
        path, headers: req.headers, rawBody, body, verified, standardVerified, status, receivedAt: Date.now()
      }
      if (record) requests.push(entry)
      for (const listener of listeners) listener(entry)
      const respond = () => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(answer === "" ? JSON.stringify({ ok: status < 300 }) : answer)
      }
      const delay = delays.get(path) ?? 0
      if (delay > 0) setTimeout(respond, delay)
      else respond()
      for (const waiter of [...waiters]) waiter()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0

  return {
    port,
    url: (path) => `https://localhost:${port}${path}`,
    setSecret: (path, secret) => void secrets.set(path, secret),
    setStatus: (path, status) => void statuses.set(path, status),
    setDelay: (path, millis) => void delays.set(path, millis),
    received: (path) => (path === undefined ? [...requests] : requests.filter((r) => r.path === path)),
    onRequest: (listener) => void listeners.push(listener),
    waitFor: (predicate, timeoutMs, what = "the expected requests") =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(requests)) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`receiver: no ${what} within ${timeoutMs} ms (${requests.length} requests received)`))
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
