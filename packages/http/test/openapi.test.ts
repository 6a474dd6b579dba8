/**
 * The OpenAPI document is written for its readers: every operation says what it does, and no text
 * points at internal documents (section signs, "decisions", numbered "spec" sections) a reader does not have.
 */
import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { WaslApi } from "@wasl/http/Endpoints"
import { DEFAULT_PER_PAGE, FILTER_OPERATORS, MAX_FILTER_CONDITIONS, MAX_PER_PAGE } from "@wasl/core/Records"

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
    expect(text).not.toMatch(/\u00a7|decisions\s*\u00a7|\bspec\s+\d/i)
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

  it("sums up every operation, describes every tag, and says where it is served and under which license", () => {
    const unsummarised = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { summary?: string }>)
        .filter(([, operation]) => typeof operation === "object" && !operation.summary)
        .map(([method]) => `${method.toUpperCase()} ${path}`)
    )
    expect(unsummarised).toEqual([])
    expect(document.tags.filter((tag) => !tag.description).map((tag) => tag.name)).toEqual([])
    expect(document.servers).toEqual([{ url: "/", description: expect.any(String) }])
    expect(document.info.license).toMatchObject({ name: "MIT", identifier: "MIT" })
  })

  it("declares the query parameters of every paginated list, with their bounds and defaults", () => {
    const paths = document.paths as Record<string, any>
    const query = (operation: { parameters: Array<{ in: string; name: string; schema: any }> }) =>
      Object.fromEntries(operation.parameters.filter((p) => p.in === "query").map((p) => [p.name, p]))
    const pages = { page: { minimum: 1, default: 1 }, per_page: { minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE } }
    for (
      const operation of [
        paths["/api/{kind}"].get,
        paths["/api/{kind}/{id}/notes"].get,
        paths["/api/account/webhooks/{id}/deliveries"].get,
        paths["/api/notifications"].get
      ]
    ) {
      const params = query(operation)
      expect(params.page.schema).toMatchObject({ type: "integer", ...pages.page })
      expect(params.per_page.schema).toMatchObject({ type: "integer", ...pages.per_page })
    }
    const records = query(paths["/api/{kind}"].get)
    expect(Object.keys(records)).toEqual(["page", "per_page", "search", "order", "direction", "complex_filters", "view"])
    expect(records.view.schema).toEqual({ type: "string", pattern: "^[0-9a-f]{24}$" })
    expect(records.direction.schema).toEqual({ type: "string", enum: ["asc", "desc"], default: "desc" })
    expect(records.complex_filters).toMatchObject({ style: "deepObject", explode: true })
    expect(records.complex_filters.schema.maxItems).toBe(MAX_FILTER_CONDITIONS)
    const [condition, orGroup] = records.complex_filters.schema.items.anyOf
    expect(condition.properties.operator.enum).toEqual([...FILTER_OPERATORS])
    expect(orGroup.properties.or.items).toEqual(condition)
    // Documented only: the list still reads its query itself (no query schema on the endpoint).
    expect(WaslApi.groups.records.endpoints.list.query).toBeUndefined()
  })

  it("shows an example of each error answer, and free-form bodies as objects taking any property", () => {
    const paths = document.paths as Record<string, any>
    const create = paths["/api/{kind}"].post
    for (const status of ["401", "403", "404", "422", "429"]) {
      expect(create.responses[status].content["application/json"].example.message).toEqual(expect.any(String))
    }
    expect(create.responses["422"].content["application/json"].example.errors).toEqual(expect.any(Object))
    expect(paths["/api/platforms"].post.requestBody.content["application/json"].schema).toMatchObject({
      type: "object",
      additionalProperties: true
    })
  })

  it("names each kind's writable built-ins in the record create and update bodies, custom properties still taken", () => {
    const paths = document.paths as Record<string, any>
    const schemas = (document.components as Record<string, any>).schemas
    const refs = (schema: { anyOf: ReadonlyArray<{ $ref: string }> }) => schema.anyOf.map((s) => s.$ref.split("/").pop())
    const body = (operation: any) => operation.requestBody.content["application/json"]
    expect(refs(body(paths["/api/{kind}"].post).schema)).toEqual(
      ["NewContactValues", "NewCompanyValues", "NewDealValues", "NewTicketValues", "NewInvoiceValues", "NewProductValues"]
    )
    expect(refs(body(paths["/api/{kind}/{id}"].put).schema)).toEqual(
      ["ContactValues", "CompanyValues", "DealValues", "TicketValues", "InvoiceValues", "ProductValues"]
    )
    expect(Object.keys(body(paths["/api/{kind}"].post).examples)).toEqual(["deal", "contact"])
    const deal = schemas.NewDealValues
    expect(deal).toMatchObject({ type: "object", required: ["deal_name"], additionalProperties: true })
    expect(Object.keys(deal.properties)).toEqual(["deal_name", "amount", "pipeline", "deal_stage", "close_date", "forecast_amount", "next_steps"])
    expect(deal.properties.amount.anyOf).toEqual([{ type: "number" }, { type: "null" }])
    expect(deal.properties.deal_stage.anyOf[0].examples).toContain("closed_won")
    expect(schemas.NewTicketValues.properties.category.anyOf[0].enum).toContain("billing_issue")
    expect(schemas.DealValues.required).toBeUndefined()
    // Read-only built-ins are no body values.
    expect(Object.keys(schemas.ContactValues.properties)).not.toContain("fullname")
    expect(Object.keys(schemas.ContactValues.properties)).not.toContain("created_by")
  })

  it("declares a 4xx answer on every operation but the health probes (the lint rule redocly.yaml turns off)", () => {
    const without4xx = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { responses?: Record<string, unknown> }>)
        .filter(([, operation]) => !Object.keys(operation.responses ?? {}).some((status) => status.startsWith("4")))
        .map(([method]) => `${method.toUpperCase()} ${path}`)
    )
    expect(without4xx).toEqual(["GET /health/live", "GET /health/ready"])
  })
  it("types ids, counts and `*_by` fields as integers, and offers no Infinity or NaN anywhere", () => {
    // A property named like a whole number (an id, a count, who made it) that the document types
    // `number` makes generated clients take fractions; the strings Infinity/NaN are no JSON value
    // the API sends or takes.
    const integerName = /(^id$|_id$|_by$|count|_minutes$)/
    const numberTyped: Array<string> = []
    const nonFinite: Array<string> = []
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`))
      if (typeof node !== "object" || node === null) return
      const schema = node as Record<string, unknown>
      if (Array.isArray(schema["enum"]) && schema["enum"].some((v) => v === "Infinity" || v === "-Infinity" || v === "NaN")) {
        nonFinite.push(at)
      }
      const properties = schema["properties"]
      if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
        for (const [name, property] of Object.entries(properties)) {
          if (integerName.test(name) && /"type":"number"/.test(JSON.stringify(property))) numberTyped.push(`${at}/properties/${name}`)
        }
      }
      for (const [key, value] of Object.entries(schema)) if (key !== "example" && key !== "examples") walk(value, `${at}/${key}`)
    }
    walk(document, "")
    expect(numberTyped).toEqual([])
    expect(nonFinite).toEqual([])
  })
})
