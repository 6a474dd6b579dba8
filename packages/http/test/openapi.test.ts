/**
 * The OpenAPI document is written for its readers: every operation says what it does, and no text
 * points at internal documents (section signs, "decisions", "spec §") a reader does not have.
 */
import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { WaslApi } from "@wasl/http"

const document = OpenApi.fromApi(WaslApi)

describe("the OpenAPI document", () => {
  it("describes every operation", () => {
    const undescribed = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { description?: string }>)
        .filter(([, operation]) => typeof operation === "object" && !operation.description)
        .map(([method]) => `${method.toUpperCase()} ${path}`)
    )
    expect(undescribed).toEqual([])
  })

  it("cites no internal section numbers", () => {
    const text = JSON.stringify(document)
    expect(text).not.toMatch(/§|decisions\s*§|\bspec\s+\d/i)
  })

  it("offers the Idempotency-Key header, its 409 and its 422 on every authenticated operation that changes state", () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, any>)
        .filter(([method, operation]) => typeof operation === "object" && !Array.isArray(operation) && method !== "parameters")
        .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method, path, operation }))
    )
    const keyed = operations.filter(({ operation }) =>
      (operation.parameters ?? []).some((p: { name: string; in: string }) => p.name === "Idempotency-Key" && p.in === "header")
    )
    const expected = operations.filter(({ method, path, operation }) =>
      method !== "get" && (operation.security ?? []).length > 0 && path !== "/api/auth/logout"
    )
    expect(keyed.map((o) => o.name).sort()).toEqual(expected.map((o) => o.name).sort())
    expect(keyed.map((o) => o.name)).toEqual(expect.arrayContaining([
      "POST /api/{kind}",
      "PUT /api/{kind}/{id}",
      "DELETE /api/{kind}/{id}",
      "POST /api/tokens",
      "POST /api/account/webhooks",
      "POST /api/broadcasts/{id}/send",
      "POST /api/broadcasts/{id}/send-otp"
    ]))
    for (const { operation } of keyed) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["409", "422"]))
    }
  })

  it("names every header of a webhook delivery and challenge, the Standard Webhooks ones included", () => {
    const paths = document.paths as Record<string, any>
    const create: string = paths["/api/account/webhooks"].post.description
    for (const header of ["X-Wasl-Event", "X-Wasl-Delivery", "X-Wasl-Timestamp", "X-Wasl-Signature", "webhook-id", "webhook-timestamp", "webhook-signature"]) {
      expect(create).toContain(header)
    }
    expect(create).toContain("whsec_")
    expect(paths["/api/account/webhooks/{id}/validate"].post.description).toContain("webhook-*")
  })

  it("declares the rate-limit headers on limited operations, and their 429 with Retry-After", () => {
    const paths = document.paths as Record<string, any>
    for (const operation of [paths["/api/me"].get, paths["/api/auth/login"].post, paths["/api/verifications/{id}/verify"].post]) {
      expect(operation.responses["200"].headers).toHaveProperty("RateLimit-Remaining")
      expect(operation.responses["429"].content["application/json"].schema.properties).toHaveProperty("message")
      expect(operation.responses["429"].headers["retry-after"].description).toMatch(/seconds/i)
      expect(Object.keys(operation.responses["429"].headers)).toEqual(
        expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"])
      )
    }
    expect(paths["/api/me"].get.responses["401"].headers).toBeUndefined()
  })
})
