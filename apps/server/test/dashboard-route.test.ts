/**
 * The web console's mount at /app beside the API: the built files with their content types and
 * caching, index.html for the console's own paths, a 404 for a missing asset, nothing outside the
 * build's folder whatever the path says, and the API and Wasl's 404 untouched.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import * as Fs from "node:fs"
import { createServer, request as httpRequest } from "node:http"
import * as Os from "node:os"
import * as Path from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WaslPostgres } from "@wasl/adapters/Deployment"
import { TestDatabase } from "@wasl/adapters/testing"
import { serveWaslWith } from "@wasl/http/Routes"
import { DashboardRoute } from "../src/dashboard-route.ts"

const INDEX = "<!doctype html><title>console</title>"
const SCRIPT = "console.log('hashed')\n".repeat(200)

/** A GET with the path sent as written (fetch would resolve `..` segments first), its body as received. */
const get = (port: number, path: string, headers: Record<string, string> = {}) =>
  new Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    body: string
    bytes: Buffer
  }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "GET", headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const bytes = Buffer.concat(chunks)
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString("utf8"), bytes })
      })
    })
    req.on("error", reject)
    req.end()
  })

describe("the console at /app", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let port: number
  let root: string

  beforeAll(async () => {
    root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-dashboard-"))
    const dist = Path.join(root, "dist")
    Fs.mkdirSync(Path.join(dist, "assets"), { recursive: true })
    Fs.writeFileSync(Path.join(dist, "index.html"), INDEX)
    Fs.writeFileSync(Path.join(dist, "assets", "index-Ab12.js"), SCRIPT)
    Fs.writeFileSync(Path.join(dist, "assets", "index-Cd34.css"), "body{}")
    Fs.writeFileSync(Path.join(root, "secret.txt"), "outside the build")
    runtime = ManagedRuntime.make(
      serveWaslWith(DashboardRoute(dist)).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
        Layer.provideMerge(WaslPostgres.layerClient({ secretKey: "08".repeat(32) })),
        Layer.provideMerge(TestDatabase.pglite)
      )
    )
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    port = address.port
  })
  afterAll(async () => {
    await runtime?.dispose()
    if (root !== undefined) Fs.rmSync(root, { recursive: true, force: true })
  })

  it("answers index.html at /app and at every client-side route under it, revalidated on each load", async () => {
    for (const path of ["/app", "/app/", "/app/deals", "/app/deals/0123456789abcdef01234567/edit", "/app/webhooks/3?x=1"]) {
      const page = await get(port, path)
      expect([path, page.status, page.body]).toEqual([path, 200, INDEX])
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(page.headers["cache-control"]).toBe("no-cache")
      expect(page.headers["x-content-type-options"]).toBe("nosniff")
      expect(page.headers["content-security-policy"]).toContain("default-src 'self'")
    }
  })

  it("serves the hashed assets with their content types, cached for good", async () => {
    const script = await get(port, "/app/assets/index-Ab12.js")
    expect([script.status, script.body, script.headers["content-type"]]).toEqual([200, SCRIPT, "text/javascript; charset=utf-8"])
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    const style = await get(port, "/app/assets/index-Cd34.css")
    expect([style.status, style.headers["content-type"]]).toEqual([200, "text/css; charset=utf-8"])
  })

  it("answers text compressed as Accept-Encoding prefers (brotli, gzip), with Vary", async () => {
    const path = "/app/assets/index-Ab12.js"
    const br = await get(port, path, { "accept-encoding": "gzip, deflate, br" })
    expect([br.status, br.headers["content-encoding"], br.headers["vary"]]).toEqual([200, "br", "Accept-Encoding"])
    expect(brotliDecompressSync(br.bytes).toString("utf8")).toBe(SCRIPT)
    expect(br.bytes.length).toBeLessThan(SCRIPT.length / 4)
    const gzip = await get(port, path, { "accept-encoding": "gzip" })
    expect([gzip.headers["content-encoding"], gunzipSync(gzip.bytes).toString("utf8")]).toEqual(["gzip", SCRIPT])
    const notBr = await get(port, path, { "accept-encoding": "br;q=0, gzip;q=0.5" })
    expect(notBr.headers["content-encoding"]).toBe("gzip")
    const plain = await get(port, path)
    expect([plain.headers["content-encoding"], plain.headers["vary"], plain.body]).toEqual([undefined, "Accept-Encoding", SCRIPT])
    const page = await get(port, "/app/deals", { "accept-encoding": "br" })
    expect([page.headers["content-encoding"], brotliDecompressSync(page.bytes).toString("utf8")]).toEqual(["br", INDEX])
    // The same bytes on every request: compressed once, kept.
    expect((await get(port, path, { "accept-encoding": "br" })).bytes.equals(br.bytes)).toBe(true)
  })

  it("redirects / to the console", async () => {
    const root = await get(port, "/")
    expect([root.status, root.headers["location"]]).toEqual([302, "/app"])
  })

  it("sends the paths Wasl's mails link to on to the console's pages for them, the token kept", async () => {
    const links = {
      "/invitations/AbC123xyz": "/app/invitations/AbC123xyz",
      "/email/confirm?token=T0k3n": "/app/email/confirm?token=T0k3n",
      "/email/verify?token=T0k3n": "/app/email/verify?token=T0k3n"
    }
    for (const [path, location] of Object.entries(links)) {
      const link = await get(port, path)
      expect([path, link.status, link.headers["location"]]).toEqual([path, 302, location])
    }
    expect((await get(port, "/app/invitations/AbC123xyz")).body).toBe(INDEX)
  })

  it("answers a missing asset with a 404, not the page", async () => {
    const missing = await get(port, "/app/assets/index-Old0.js")
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.body)).toEqual({ message: "Not found." })
  })

  it("never serves a file outside the build's folder", async () => {
    for (const path of ["/app/../secret.txt", "/app/%2e%2e/secret.txt", "/app/..%2fsecret.txt", "/app/assets/..%2f..%2fsecret.txt", "/app/%2E%2E%5Csecret.txt"]) {
      const answer = await get(port, path)
      expect(answer.body).not.toContain("outside the build")
    }
  })

  it("leaves the API and Wasl's 404 as they are", async () => {
    const me = await get(port, "/api/me")
    expect([me.status, JSON.parse(me.body)]).toEqual([401, { message: "Unauthenticated." }])
    const other = await get(port, "/application")
    expect(other.status).toBe(404)
    expect(JSON.parse(other.body)).toEqual({ message: "Not found." })
  })
})
