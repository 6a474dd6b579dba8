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
})
