/**
 * A client that is not Effect's: types generated from the served OpenAPI document with
 * openapi-typescript, and an openapi-fetch client over them that lists deals with filters and
 * creates a record. The client file type-checks (and a wrong filter operator or direction, or a
 * deal value of the wrong type, does not), then runs against the server.
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import openapiTS, { astToString } from "openapi-typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type TestServer } from "./support/server.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const tsc = Path.join(root, "node_modules", "typescript", "bin", "tsc")

/** What a user writes: a typed client, a filtered list and a create. */
const CLIENT = `import createClient from "openapi-fetch"
import type { components, paths } from "./schema.ts"

type Schemas = components["schemas"]
type CreateBody = NonNullable<paths["/api/{kind}"]["post"]["requestBody"]>["content"]["application/json"]
type UpdateBody = NonNullable<paths["/api/{kind}/{id}"]["put"]["requestBody"]>["content"]["application/json"]
type Shown = paths["/api/{kind}/{id}"]["get"]["responses"][200]["content"]["application/json"]["data"]

// A deal's built-ins are named in the create and update bodies, custom properties still taken.
export const newDeal: Schemas["NewDealValues"] = { deal_name: "Typed", amount: 250, deal_stage: "qualified_to_buy", region: "north" }
export const createBody: CreateBody = newDeal
export const dealChange: Schemas["DealValues"] = { amount: null, deal_stage: "closed_won" }
export const updateBody: UpdateBody = dealChange
export const newDealMistakes = [
  // @ts-expect-error: deal_name is a string
  { deal_name: 5 } satisfies Schemas["NewDealValues"],
  // @ts-expect-error: amount is a number
  { deal_name: "Typed", amount: "many" } satisfies Schemas["NewDealValues"],
  // @ts-expect-error: a stage is named by its internal_name, a string
  { deal_name: "Typed", deal_stage: 5 } satisfies Schemas["NewDealValues"],
  // @ts-expect-error: a create names the deal
  { amount: 250 } satisfies Schemas["NewDealValues"]
]

// A deal as read: its properties typed, and one of the forms the read answer takes.
export const readDeal = (deal: Schemas["Deal"]) => {
  const shown: Shown = deal
  const name: string | null = deal.properties.deal_name
  const amount: number | null = deal.properties.amount
  const stage: string | null = deal.properties.deal_stage
  // @ts-expect-error: amount is a number
  const wrong: string | null = deal.properties.amount
  return { shown, name, amount, stage, wrong }
}

export const useWasl = async (baseUrl: string, token: string) => {
  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: \`Bearer \${token}\` },
    // openapi-fetch writes one level of brackets; complex_filters nests, so it goes as JSON.
    querySerializer: (query) =>
      new URLSearchParams(
        Object.entries(query).map(([key, value]) => [key, typeof value === "object" ? JSON.stringify(value) : String(value)])
      ).toString()
  })

  const created = await client.POST("/api/{kind}", {
    params: { path: { kind: "deals" } },
    body: { deal_name: "Typed renewal", amount: 250 }
  })
  if (created.error) throw new Error(created.error.message)
  const id: string = created.data.data.properties._id

  const listed = await client.GET("/api/{kind}", {
    params: {
      path: { kind: "deals" },
      query: {
        page: 1,
        per_page: 50,
        search: "renewal",
        order: "amount",
        direction: "asc",
        complex_filters: [
          { property: "amount", operator: "between", value: [100, 500] },
          { or: [{ property: "deal_name", operator: "contains", value: "typed" }, { property: "amount", operator: "is_empty" }] }
        ]
      }
    }
  })
  if (listed.error) throw new Error(listed.error.message)
  const total: number = listed.data.meta.total

  const refused = await client.GET("/api/{kind}", {
    params: { path: { kind: "deals" }, query: { complex_filters: [{ property: "amount", operator: "between", value: 3 }] } }
  })
  const errors: Record<string, ReadonlyArray<string>> | undefined = refused.error && "errors" in refused.error ? refused.error.errors : undefined

  return { id, total, ids: listed.data.data.map((deal) => deal.properties._id), status: refused.response.status, errors }
}

export const mistakes = (client: ReturnType<typeof createClient<paths>>) => [
  // @ts-expect-error: direction is asc or desc
  client.GET("/api/{kind}", { params: { path: { kind: "deals" }, query: { direction: "up" } } }),
  // @ts-expect-error: no such operator
  client.GET("/api/{kind}", { params: { path: { kind: "deals" }, query: { complex_filters: [{ property: "amount", operator: "bigger" }] } } }),
  // @ts-expect-error: no such kind
  client.GET("/api/{kind}", { params: { path: { kind: "leads" } } })
]
`

describe("a client generated from the OpenAPI document (openapi-typescript, openapi-fetch)", () => {
  let server: TestServer
  let token: string
  let dir: string
  let document: string

  beforeAll(async () => {
    server = await startTestServer("pglite")
    token = (await server.bootstrap({ email: "generated@example.test", password: "pw-generated" })).token
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-openapi-client-"))
    document = await (await fetch(`${server.url}/api/openapi.json`)).text()
    Fs.writeFileSync(Path.join(dir, "schema.ts"), astToString(await openapiTS(document)))
    Fs.writeFileSync(Path.join(dir, "client.ts"), CLIENT)
    Fs.mkdirSync(Path.join(dir, "node_modules"))
    Fs.symlinkSync(Path.join(root, "node_modules", "openapi-fetch"), Path.join(dir, "node_modules", "openapi-fetch"), "dir")
    Fs.writeFileSync(
      Path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          lib: ["es2022", "dom"],
          types: []
        },
        files: ["client.ts"]
      })
    )
  })
  afterAll(async () => {
    await server?.close()
    if (dir !== undefined) Fs.rmSync(dir, { recursive: true, force: true })
  })

  it("type-checks: typed parameters, filters, bodies and answers", () => {
    const result = spawnSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8" })
    expect(`${result.stdout}${result.stderr}`).toBe("")
    expect(result.status).toBe(0)
  })

  it("creates a deal and finds it with search, order and complex_filters; a bad filter is a 422 naming its key", async () => {
    const { useWasl } = await import(pathToFileURL(Path.join(dir, "client.ts")).href)
    const result = await useWasl(server.url, token)
    expect(result.ids).toContain(result.id)
    expect(result.total).toBeGreaterThanOrEqual(1)
    expect(result.status).toBe(422)
    expect(Object.keys(result.errors ?? {})).toEqual(["complex_filters.0.value"])
  })
  it("accepts the document's request examples as they are", async () => {
    const paths = JSON.parse(document).paths
    const example = (path: string, name: string) => paths[path].post.requestBody.content["application/json"].examples[name].value
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
      return { status: response.status, body: await response.json() as { data: { properties: { _id: string } } } }
    }
    const deal = await post("/api/deals", example("/api/{kind}", "deal"))
    expect(deal.status).toBe(201)
    expect((await post("/api/contacts", example("/api/{kind}", "contact"))).status).toBe(201)
    expect((await post(`/api/deals/${deal.body.data.properties._id}/notes`, example("/api/{kind}/{id}/notes", "note"))).status).toBe(201)
    expect((await post("/api/tokens", example("/api/tokens", "readDeals"))).status).toBe(201)
  })
})
