/** The boundary renders defects as 500 "Server Error." with a trace id, never the defect's text. */
import { Effect, Layer, Tracer } from "effect"
import { SecureRandom } from "effect/crypto"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { makeBoundary } from "../src/boundary.ts"
import { Forbidden403, TooManyRequests429, Validation422 } from "../src/errors.ts"
import { routeTableOf } from "../src/route-table.ts"

const api = HttpApi.make("probe").add(
  HttpApiGroup.make("probe").add(HttpApiEndpoint.get("boom", "/api/boom"))
)

describe("boundary", () => {
  it("answers a defect with 500 and a trace id, hiding the message", async () => {
    const app = Layer.mergeAll(
      HttpRouter.add("GET", "/api/boom", Effect.die(new Error("secret SQL: SELECT * FROM users"))),
      HttpRouter.add("GET", "/api/ok", HttpServerResponse.text("ok"))
    ).pipe(Layer.provide(makeBoundary(routeTableOf(api)).layer), Layer.provide(SecureRandom.layerWebCrypto))
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
    try {
      const response = await handler(new Request("http://localhost/api/boom"))

      expect(response.status).toBe(500)
      const text = await response.text()
      expect(JSON.parse(text)).toEqual({ message: "Server Error." })
      expect(text).not.toContain("SELECT")
      expect(response.headers.get("x-trace-id")).toMatch(/^[0-9a-f-]{36}$/)
      const ok = await handler(new Request("http://localhost/api/ok"))
      expect(ok.status).toBe(200)
    } finally {
      await dispose()
    }
  })

  it("answers a defect with the request's trace id when traces are exported", async () => {
    const app = HttpRouter.add("GET", "/api/boom", Effect.die(new Error("boom"))).pipe(
      Layer.provide(makeBoundary(routeTableOf(api)).layer),
      Layer.provide(SecureRandom.layerWebCrypto),
      Layer.provideMerge(Layer.succeed(Tracer.Tracer, Tracer.make({ span: (options) => new Tracer.NativeSpan(options) })))
    )
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
    try {
      // The caller's trace, continued by the request's server span.
      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
      const response = await handler(new Request("http://localhost/api/boom", {
        headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }
      }))
      expect(response.status).toBe(500)
      expect(response.headers.get("x-trace-id")).toBe(traceId)
    } finally {
      await dispose()
    }
  })

  it("renders our HTTP errors that escape undeclared, with the Laravel body and Retry-After", async () => {
    const app = Layer.mergeAll(
      HttpRouter.add("GET", "/api/forbidden", Effect.fail(new Forbidden403({ message: "No." }))),
      HttpRouter.add("GET", "/api/slow-down", Effect.fail(new TooManyRequests429({ message: "Too many.", retryAfter: 42 }))),
      HttpRouter.add("GET", "/api/invalid", Effect.fail(new Validation422({ message: "Bad.", errors: { a: ["Bad."] } })))
    ).pipe(Layer.provide(makeBoundary(routeTableOf(api)).layer), Layer.provide(SecureRandom.layerWebCrypto))
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
    try {
      const forbidden = await handler(new Request("http://localhost/api/forbidden"))
      expect(forbidden.status).toBe(403)
      expect(await forbidden.json()).toEqual({ message: "No." })
      const slow = await handler(new Request("http://localhost/api/slow-down"))
      expect(slow.status).toBe(429)
      expect(slow.headers.get("retry-after")).toBe("42")
      expect(await slow.json()).toEqual({ message: "Too many." })
      const invalid = await handler(new Request("http://localhost/api/invalid"))
      expect(invalid.status).toBe(422)
      expect(await invalid.json()).toEqual({ message: "Bad.", errors: { a: ["Bad."] } })
    } finally {
      await dispose()
    }
  })
})
