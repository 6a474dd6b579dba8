/**
 * The API's introduction has one text: docs/api-introduction.md, which the README links and from
 * which `npm run docs:api-introduction` writes the module the OpenAPI document (and so `/docs`)
 * opens with.
 */
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { WaslApi } from "@wasl/http/Endpoints"
import { API_INTRODUCTION } from "../src/api-introduction.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const markdown = Fs.readFileSync(`${root}docs/api-introduction.md`, "utf8")

describe("the API's introduction", () => {
  it("is docs/api-introduction.md, as generated (run npm run docs:api-introduction after editing it)", () => {
    expect(API_INTRODUCTION).toBe(markdown)
  })

  it("opens the OpenAPI document, so /docs", () => {
    expect(OpenApi.fromApi(WaslApi).info.description).toBe(markdown)
  })

  it("is linked from the README", () => {
    expect(Fs.readFileSync(`${root}README.md`, "utf8")).toContain("](docs/api-introduction.md)")
  })

  it("covers authentication, pagination, filters, errors, webhooks and their verification, and OTP", () => {
    for (const heading of ["## Authentication", "## Lists and pagination", "## Search, order and filters", "## Errors", "## Webhooks", "## One-time passwords"]) {
      expect(markdown).toContain(heading)
    }
    expect(markdown).toMatch(/X-Wasl-Signature/)
    expect(markdown).not.toMatch(/\u00a7|\bdecisions\b|\bspec\b/i)
  })
})
