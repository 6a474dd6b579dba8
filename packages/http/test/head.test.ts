/**
 * `HEAD` answers wherever `GET` does, with GET's status and headers and no body; a 405 lists
 * HEAD in its `Allow` header wherever GET is allowed. The notification stream answers HEAD at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type TestServer } from "./support/server.ts"

/** Headers that differ between any two answers (or, for content-length, may be left out of a HEAD). */
const PER_ANSWER = new Set(["date", "x-request-id", "x-trace-id", "content-length", "connection", "keep-alive"])

const comparable = (headers: Headers) =>
  Object.fromEntries([...headers].filter(([name]) => !PER_ANSWER.has(name)))

describe("HEAD", () => {
  let server: TestServer
  let token: string
  let contactId: string

  beforeAll(async () => {
    server = await startTestServer("pglite")
    token = (await server.bootstrap({ email: "head-owner@example.test", password: "pw-owner" })).token
    const contact = await server.request("POST", "/api/contacts", { token, body: { firstname: "Head", lastname: "Request" } })
    contactId = String(contact.body.data.properties._id)
  })
  afterAll(() => server.close())

  const call = (method: string, path: string) =>
    fetch(server.url + path, { method, headers: { authorization: `Bearer ${token}`, accept: "application/json" } })

  it("answers every GET path of the OpenAPI document like GET, without a body", async () => {
    const document = (await (await call("GET", "/api/openapi.json")).json()) as { paths: Record<string, any> }
    const paths = Object.entries<any>(document.paths).filter(([path, item]) =>
      item.get !== undefined && path !== "/api/notifications/stream"
    )
    expect(paths.length).toBeGreaterThan(10)
    const differences: Array<string> = []
    for (const [template, item] of paths) {
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const parameter = (item.get.parameters ?? []).find((p: any) => p.in === "path" && p.name === name)
        const values: ReadonlyArray<string> | undefined = parameter?.schema?.enum
        return values?.includes("contacts") ? "contacts" : values?.[0] ?? contactId
      })
      const get = await call("GET", path)
      await get.arrayBuffer()
      const head = await call("HEAD", path)
      const body = await head.text()
      if (head.status !== get.status) differences.push(`${path}: HEAD ${head.status}, GET ${get.status}`)
      else if (JSON.stringify(comparable(head.headers)) !== JSON.stringify(comparable(get.headers))) {
        differences.push(`${path}: headers ${JSON.stringify(comparable(head.headers))} vs ${JSON.stringify(comparable(get.headers))}`)
      } else if (body !== "") differences.push(`${path}: a body on HEAD`)
      const length = head.headers.get("content-length")
      if (length !== null && length !== get.headers.get("content-length")) differences.push(`${path}: content-length ${length}`)
    }
    expect(differences).toEqual([])
  })

  it("answers the health probe and a record's notes", async () => {
    for (const path of ["/health/live", "/api/me", `/api/contacts/${contactId}/notes`, "/api/contacts"]) {
      const head = await call("HEAD", path)
      expect([path, head.status]).toEqual([path, 200])
      expect(await head.text()).toBe("")
    }
  })

  it("answers HEAD on the notification stream without holding it open", async () => {
    const head = await call("HEAD", "/api/notifications/stream")
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toMatch(/text\/event-stream/)
    expect(await head.text()).toBe("")
  }, 5_000)

  it("lists HEAD in a 405's Allow wherever GET is allowed", async () => {
    for (const path of ["/api/tokens", "/api/deals", `/api/contacts/${contactId}/notes`]) {
      const wrong = await call("PUT", path)
      expect(wrong.status).toBe(405)
      const allowed = (wrong.headers.get("allow") ?? "").split(/,\s*/)
      expect(allowed).toContain("GET")
      expect(allowed).toContain("HEAD")
    }
  })
})
