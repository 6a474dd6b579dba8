/**
 * CSV imports over HTTP: the multipart upload streamed into a queued import, the worker's
 * records with their events, the status with the refused rows' 422 messages, the errors CSV (its
 * cells guarded against formulas as an export's are), a file refused whole with nothing stored,
 * permissions, and another account's import.
 */
import { runNextExport } from "@wasl/core/Exports"
import { processNextImport } from "@wasl/core/Imports"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

describe.each(DATABASES)("CSV imports over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; token: string }
  let other: { account_id: number; token: string }

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "imports-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "imports-other@example.test", password: "pw-other" })
  })
  afterAll(async () => {
    await server?.close()
  })

  /** Uploads `csv` (fields in the given order, the file where `file` is). */
  const upload = async (path: string, csv: string | Uint8Array, fields: Record<string, string> = {}, token = owner.token) => {
    const body = new FormData()
    for (const [key, value] of Object.entries(fields)) body.append(key, value)
    body.append("file", new Blob([csv], { type: "text/csv" }), "people.csv")
    const response = await fetch(server.url + path, { method: "POST", headers: { authorization: `Bearer ${token}`, accept: "application/json" }, body })
    return { status: response.status, body: await response.json() as any }
  }
  const drain = async () => {
    while (await server.run(processNextImport())) {
      // next import
    }
  }
  const imports = async () => Number((await server.query("SELECT count(*)::int AS n FROM imports"))[0].n)

  it("queues the file (202), writes its rows as the API would, with their events, and lists the refused ones", async () => {
    const csv = "firstname,email\r\nAmal,amal@imports.test\r\nBad,not an email\r\n\"Haddad, Omar\",omar@imports.test\r\n"
    const started = await upload("/api/contacts/imports", csv)
    expect(started.status).toBe(202)
    expect(started.body.data).toMatchObject({ status: "queued", rows_total: 3, rows_read: 0, object_type: "contact", match_on: null })
    const id = started.body.data._id as string

    await drain()
    const single = await server.request("POST", "/api/contacts", { token: owner.token, body: { firstname: "Bad", email: "not an email" } })
    expect(single.status).toBe(422)
    const status = await server.request("GET", `/api/contacts/imports/${id}`, { token: owner.token })
    expect(status.status).toBe(200)
    expect(status.body.data).toMatchObject({ status: "completed", rows_read: 3, created: 2, updated: 0, failed: 1 })
    expect(status.body.data.failures).toEqual([{ line: 3, errors: single.body.errors }])

    const events = await server.query(
      "SELECT name, payload FROM outbox_events WHERE account_id = $1 AND name = 'contact-created' ORDER BY seq",
      [owner.account_id]
    )
    const emails = events.map((e) => (typeof e.payload === "string" ? JSON.parse(e.payload) : e.payload).properties.email)
    expect(emails).toEqual(expect.arrayContaining(["amal@imports.test", "omar@imports.test"]))

    const errors = await fetch(`${server.url}/api/contacts/imports/${id}/errors`, { headers: { authorization: `Bearer ${owner.token}` } })
    expect(errors.status).toBe(200)
    expect(errors.headers.get("content-type")).toMatch(/^text\/csv/)
    expect(await errors.text()).toBe(`firstname,email,error\r\nBad,not an email,${single.body.errors.email.join(" ")}\r\n`)

    const notifications = await server.request("GET", "/api/notifications", { token: owner.token })
    expect(notifications.body.data.find((n: { type: string }) => n.type === "ObjectsImport")?.data).toMatchObject({ import_id: id, created: 2 })
  })

  it("the errors CSV guards a refused cell that a spreadsheet would run as a formula, as an export guards it", async () => {
    const guarded = await server.bootstrap({ email: "imports-formulas@example.test", password: "pw-formulas" })
    const formulas = ["=HYPERLINK(\"https://evil.test\",\"click\")", "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"]
    /** A cell as RFC 4180 writes it: quoted when it holds a quote, a comma or a line break. */
    const quoted = (cell: string) => /[",\r\n]/.test(cell) ? `"${cell.replaceAll("\"", "\"\"")}"` : cell
    // Each formula twice: a row the import takes (a contact to export) and a row it refuses.
    const rows = formulas.flatMap((f, i) => [`${quoted(f)},ok${i}@formulas.test`, `${quoted(f)},not an email`])
    // A tab or a carriage return before the formula: a spreadsheet may run it too.
    rows.push(`${quoted("\t=1+1")},not an email`, `${quoted("\r=1+1")},not an email`, "plain,not an email")
    const started = await upload("/api/contacts/imports", `firstname,email\r\n${rows.join("\r\n")}\r\n`, {}, guarded.token)
    expect(started.status).toBe(202)
    await drain()
    const message = (await server.request("POST", "/api/contacts", { token: guarded.token, body: { email: "not an email" } }))
      .body.errors.email.join(" ")

    const errors = await fetch(`${server.url}/api/contacts/imports/${started.body.data._id}/errors`, {
      headers: { authorization: `Bearer ${guarded.token}` }
    })
    const refused = [...formulas, "\t=1+1", "\r=1+1"].map((f) => `${quoted(`'${f}`)},not an email,${message}`)
    expect(await errors.text()).toBe(["firstname,email,error", ...refused, `plain,not an email,${message}`, ""].join("\r\n"))

    // The same texts in an export of the contacts the import made.
    const asked = await server.request("POST", "/api/contacts/exports", { token: guarded.token, body: { properties: ["firstname"] } })
    expect(asked.status).toBe(202)
    expect(await server.run(runNextExport())).toBe(true)
    const file = await fetch(`${server.url}/api/exports/${asked.body.data._id}/download`, { headers: { authorization: `Bearer ${guarded.token}` } })
    const exported = (await file.text()).split("\r\n").slice(1, -1).map((line) => line.split(",").slice(1, -2).join(","))
    expect(exported.toSorted()).toEqual(formulas.map((f) => quoted(`'${f}`)).toSorted())
  })

  it("match_on (sent after the file or before) updates the record it finds, firing contact-updated", async () => {
    await server.request("POST", "/api/contacts", { token: owner.token, body: { firstname: "Known", email: "known@imports.test" } })
    const body = new FormData()
    body.append("file", new Blob(["email,lastname\nknown@imports.test,Updated\n"]), "known.csv")
    body.append("match_on", "email")
    const response = await fetch(`${server.url}/api/contacts/imports`, { method: "POST", headers: { authorization: `Bearer ${owner.token}` }, body })
    expect(response.status).toBe(202)
    const id = (await response.json() as any).data._id
    await drain()
    const status = await server.request("GET", `/api/contacts/imports/${id}`, { token: owner.token })
    expect(status.body.data).toMatchObject({ status: "completed", created: 0, updated: 1, match_on: "email" })
    const updated = await server.query(
      "SELECT payload FROM outbox_events WHERE account_id = $1 AND name = 'contact-updated' ORDER BY seq DESC LIMIT 1",
      [owner.account_id]
    )
    const payload = typeof updated[0].payload === "string" ? JSON.parse(updated[0].payload) : updated[0].payload
    expect(payload.properties).toMatchObject({ firstname: "Known", lastname: "Updated" })
  })

  it("a file that cannot be imported whole is a 422 keyed file or match_on, and stores nothing", async () => {
    const before = await imports()
    const cases: Array<[string | Uint8Array, Record<string, string>, string, RegExp]> = [
      ["firstname,shoe_size\nA,42\n", {}, "file", /column shoe_size is not a contact property/],
      [new Uint8Array([0x66, 0x69, 0x72, 0x73, 0x74, 0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x0a]), {}, "file", /UTF-8/],
      ["firstname,email\n\"open,a@imports.test\n", {}, "file", /not valid CSV/],
      ["firstname,email\nA,a@imports.test,extra\n", {}, "file", /line 2 has 3 cells/],
      // PostgreSQL text cannot hold U+0000: a file holding one is refused like one that is not UTF-8.
      ["firstname,email\nA\u0000B,a@imports.test\n", {}, "file", /^The file must not contain NUL characters\.$/],
      ["firstname,email\n\"A\nB\",a@imports.test\nC,c@imports.test\u0000\n", {}, "file", /^The file must not contain NUL characters\.$/],
      ["firstname\nA\n", { match_on: "email" }, "match_on", /The selected match on is invalid/]
    ]
    for (const [csv, fields, key, message] of cases) {
      const refused = await upload("/api/contacts/imports", csv, fields)
      expect(refused.status).toBe(422)
      expect(Object.keys(refused.body.errors)).toEqual([key])
      expect(refused.body.errors[key][0]).toMatch(message)
    }
    // A file name with a NUL (RFC 5987's filename* can spell it) is not stored either.
    const named = await fetch(`${server.url}/api/contacts/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}`, "content-type": "multipart/form-data; boundary=XX" },
      body: "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''a%00b.csv\r\n" +
        "Content-Type: text/csv\r\n\r\nfirstname\nA\n\r\n--XX--\r\n"
    })
    expect(named.status).toBe(422)
    expect(await named.json()).toEqual({
      message: "The file's name must be a valid UTF-8 string.",
      errors: { file: ["The file's name must be a valid UTF-8 string."] }
    })
    expect(await imports()).toBe(before)
  })

  it("needs contact-create; another account's import is 404", async () => {
    const started = await upload("/api/contacts/imports", "firstname\nSolo\n")
    const id = started.body.data._id as string
    expect((await server.request("GET", `/api/contacts/imports/${id}`, { token: other.token })).status).toBe(404)
    expect((await server.request("GET", `/api/contacts/imports/${id}/errors`, { token: other.token })).status).toBe(404)
    expect((await server.request("GET", `/api/deals/imports/${id}`, { token: owner.token })).status).toBe(404)
    const limited = await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "reader", abilities: ["contact-index"] } })
    const refused = await upload("/api/contacts/imports", "firstname\nNo\n", {}, limited.body.token)
    expect(refused.status).toBe(403)
    await drain()
  })
})
