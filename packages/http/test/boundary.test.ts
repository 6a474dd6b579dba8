/** The boundary renders defects as 500 "Server Error." with a trace id, never the defect's text. */
import { Effect, Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { makeBoundary } from "../src/boundary.ts"
import { routeTableOf } from "../src/route-table.ts"

const api = HttpApi.make("probe").add(
  HttpApiGroup.make("probe").add(HttpApiEndpoint.get("boom", "/api/boom"))
)

describe("boundary", () => {
  it("answers a defect with 500 and a trace id, hiding the message", async () => {
    const app = Layer.mergeAll(
      HttpRouter.add("GET", "/api/boom", Effect.die(new Error("secret SQL: SELECT * FROM users"))),
      HttpRouter.add("GET", "/api/ok", HttpServerResponse.text("ok")),
      makeBoundary(routeTableOf(api))
    ).pipe(Layer.provide(SecureRandom.layerWebCrypto))
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
    try {
      const response = await handler(new Request("http://localhost/api/boom"))

      expect(response.status).toBe(500)
      const text = await response.text()
      expect(JSON.parse(text)).toEqual({ message: "Server Error." })
      expect(text).not.toContain("SELECT")
      expect(response.headers.get("x-trace-id")).toMatch(/^[0-9a-f-]{36}$/)
      const ok = await handler(new Request("http://localhost/api/ok")); console.log("ok", [...ok.headers.entries()])
      expect(ok.status).toBe(200)
    } finally {
      await dispose()
    }
  })
})
