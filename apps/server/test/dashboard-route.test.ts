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
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WaslPostgres } from "@wasl/adapters"
import { TestDatabase } from "@wasl/adapters/testing"
import { serveWaslWith } from "@wasl/http"
import { DashboardRoute } from "../src/dashboard-route.ts"

const INDEX = "<!doctype html><title>console</title>"
const SCRIPT = "console.log('hashed')"

/** A GET with the path sent as written (fetch would resolve `..` segments first). */
const get = (port: number, path: string) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "GET" }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
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
