/**
 * WebhookTransportHttp against local HTTPS servers with the test
 * certificate (test/fixtures/tls): byte-exact bodies, the SSRF rule applied to the address the
 * socket dials, IP literals and http refused, redirects not followed, the timeout, the extra CA,
 * keep-alive reuse and the 4 KiB excerpt.
 */
import { assert, describe, it } from "@effect/vitest"
import { type WebhookResponse, WebhookTransport } from "@wasl/core/Webhooks"
import { Duration, Effect } from "effect"
import * as Fs from "node:fs"
import type * as Http from "node:http"
import * as Https from "node:https"
import { fileURLToPath } from "node:url"
import { guardedLookup, WebhookTransportHttp } from "../../src/Webhooks.ts"

const TLS = fileURLToPath(new URL("../../../../test/fixtures/tls/", import.meta.url))
const CA_FILE = `${TLS}ca.pem`

interface Seen {
  readonly path: string
  readonly headers: Http.IncomingHttpHeaders
  readonly body: Buffer
}

/** An HTTPS server on 127.0.0.1 (reached as `localhost`) whose handler the test gives. */
const withServer = <A, E, R>(
  handler: (req: Http.IncomingMessage, res: Http.ServerResponse, body: Buffer) => void,
  use: (server: { readonly url: (path: string) => string; readonly seen: Array<Seen>; readonly connections: () => number }) => Effect.Effect<A, E, R>
) =>
  Effect.acquireUseRelease(
    Effect.promise(() =>
      new Promise<{ server: Https.Server; seen: Array<Seen>; connections: { n: number } }>((resolve) => {
        const seen: Array<Seen> = []
        const connections = { n: 0 }
        const server = Https.createServer({
          key: Fs.readFileSync(`${TLS}localhost-key.pem`),
          cert: Fs.readFileSync(`${TLS}localhost.pem`)
        }, (req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (c: Buffer) => chunks.push(c))
          req.on("end", () => {
            const body = Buffer.concat(chunks)
            seen.push({ path: req.url ?? "/", headers: req.headers, body })
            handler(req, res, body)
          })
        })
        server.on("secureConnection", () => connections.n++)
        server.listen(0, "127.0.0.1", () => resolve({ server, seen, connections }))
      })
    ),
    ({ server, seen, connections }) => {
      const port = (server.address() as { port: number }).port
      return use({ url: (path) => `https://localhost:${port}${path}`, seen, connections: () => connections.n })
    },
    ({ server }) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
      )
  )

const post = (url: string, body = "{}", timeout = Duration.seconds(5)) =>
  WebhookTransport.use((t) => t.post({ url, headers: { "Content-Type": "application/json", "X-Wasl-Event": "deal-created" }, body, timeout }))

const trusted = WebhookTransportHttp({ allowPrivate: true, caFile: CA_FILE })
const strict = WebhookTransportHttp({ caFile: CA_FILE })

const ok = (_req: Http.IncomingMessage, res: Http.ServerResponse) => {
  res.writeHead(200, { "content-type": "text/plain" })
  res.end("received")
}

const failed = (response: WebhookResponse): string => {
  assert.strictEqual(response._tag, "Failed", JSON.stringify(response))
  return response._tag === "Failed" ? response.error : ""
}

describe("WebhookTransportHttp", () => {
  it.effect("sends the body byte-exact with the headers and answers status, excerpt and duration", () =>
    withServer(ok, ({ url, seen }) =>
      Effect.gen(function*() {
        const body = `{"time":1.000001,"event":"deal-created","deal":{"name":"ü😀\\u0000"}}`
        const response = yield* post(url("/hook"), body)
        assert.strictEqual(response._tag, "Answered")
        if (response._tag !== "Answered") return
        assert.strictEqual(response.status, 200)
        assert.strictEqual(response.body, "received")
        assert.isAtLeast(response.durationMillis, 0)
        assert.strictEqual(seen.length, 1)
        assert.isTrue(seen[0]!.body.equals(Buffer.from(body, "utf8")))
        assert.strictEqual(seen[0]!.headers["x-wasl-event"], "deal-created")
        assert.strictEqual(seen[0]!.headers["content-length"], String(Buffer.byteLength(body)))
      })).pipe(Effect.provide(trusted)))

  it.effect("refuses at connection time a name that resolves to a loopback address (nothing reaches the server)", () =>
    withServer(ok, ({ url, seen }) =>
      Effect.gen(function*() {
        // Twice: the second request, to a URL the transport has seen, is checked at its connection too.
        for (let round = 0; round < 2; round++) {
          const error = failed(yield* post(url("/hook")))
          assert.match(error, /localhost resolves to 127\.0\.0\.1, an address webhooks may not reach \(loopback\)/)
        }
        assert.strictEqual(seen.length, 0)
      })).pipe(Effect.provide(strict)))

  it("the guarded lookup checks every address and hands on exactly the ones it checked", async () => {
    const refused = await new Promise<Error | null>((resolve) =>
      guardedLookup(false)("localhost", { all: true }, (error) => resolve(error))
    )
    assert.match(String(refused?.message), /loopback/)
    const allowed = await new Promise<unknown>((resolve) =>
      guardedLookup(true)("localhost", { all: true }, (_error, addresses) => resolve(addresses))
    )
    assert.deepStrictEqual(allowed, [{ address: "127.0.0.1", family: 4 }])
    const single = await new Promise<unknown>((resolve) =>
      guardedLookup(true)("localhost", {}, (_error, address, family) => resolve([address, family]))
    )
    assert.deepStrictEqual(single, ["127.0.0.1", 4])
  })

  it.effect("refuses IP-literal hosts even when private addresses are allowed, and anything but https", () =>
    Effect.gen(function*() {
      // Twice each: the second from the transport's cache of URL verdicts.
      for (let round = 0; round < 2; round++) {
        for (const url of ["https://127.0.0.1:9/x", "https://[::1]:9/x", "https://169.254.169.254/latest", "https://10.0.0.1/"]) {
          assert.match(failed(yield* post(url)), /IP address/, url)
        }
        assert.match(failed(yield* post("http://localhost:9/x")), /Only https/)
        assert.match(failed(yield* post("not a url")), /not valid/)
      }
    }).pipe(Effect.provide(trusted)))

  it.effect("never follows a redirect: a 3xx is the answer", () =>
    withServer((req, res) => {
      if (req.url === "/moved") {
        res.writeHead(307, { location: "/target" })
        res.end()
      } else ok(req, res)
    }, ({ url, seen }) =>
      Effect.gen(function*() {
        const response = yield* post(url("/moved"))
        assert.strictEqual(response._tag === "Answered" ? response.status : 0, 307)
        assert.deepStrictEqual(seen.map((s) => s.path), ["/moved"])
      })).pipe(Effect.provide(trusted)))

  it.effect("gives up at the timeout", () =>
    withServer((_req, res) => {
      setTimeout(() => ok(_req, res), 3000)
    }, ({ url }) =>
      Effect.gen(function*() {
        const response = yield* post(url("/slow"), "{}", Duration.millis(300))
        assert.match(failed(response), /Timed out after 300 ms/)
        assert.isBelow(response.durationMillis, 2500)
      })).pipe(Effect.provide(trusted)))

  it.effect("does not trust the receiver's certificate without the extra CA", () =>
    withServer(ok, ({ url, seen }) =>
      Effect.gen(function*() {
        assert.match(failed(yield* post(url("/hook"))), /TLS certificate of localhost is not trusted/)
        assert.strictEqual(seen.length, 0)
      })).pipe(Effect.provide(WebhookTransportHttp({ allowPrivate: true }))))

  it.effect("reuses one TLS connection for consecutive requests (keep-alive)", () =>
    withServer(ok, ({ url, connections }) =>
      Effect.gen(function*() {
        for (let i = 0; i < 5; i++) {
          const response = yield* post(url(`/hook/${i}`))
          assert.strictEqual(response._tag, "Answered")
        }
        assert.strictEqual(connections(), 1)
      })).pipe(Effect.provide(trusted)))

  it.effect("keeps only the first 4 KiB of a large answer", () =>
    withServer((_req, res) => {
      res.writeHead(500)
      res.end("x".repeat(200_000))
    }, ({ url }) =>
      Effect.gen(function*() {
        const response = yield* post(url("/big"))
        assert.strictEqual(response._tag, "Answered")
        if (response._tag !== "Answered") return
        assert.strictEqual(response.status, 500)
        assert.strictEqual(response.body.length, 4096)
      })).pipe(Effect.provide(trusted)))

  it.effect("a refused connection is a failed attempt with a reason", () =>
    Effect.gen(function*() {
      // Port 9 (discard) is closed on the test machine.
      assert.match(failed(yield* post("https://localhost:9/x")), /Connection refused|closed|reset/)
    }).pipe(Effect.provide(trusted)))
})

