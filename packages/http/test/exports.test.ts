/**
 * CSV exports over HTTP: the request answers 202 with the export queued and refuses a bad query
 * with the list's own 422; the worker's run writes the file; the download streams it as an
 * attachment (UTF-8 with a BOM, RFC 4180, formulas guarded), 404 before it exists, 410 once
 * expired; another account's export is 404; the requester gets an ObjectsExport notification. The
 * file is written a batch per transaction: other requests run between two batches (also on
 * PGlite, which runs one transaction at a time), and a worker stopped mid-export is taken over by
 * the next one into the file a run in one go writes.
 */
import { EXPORT_LEASE, ExportRepository, runNextExport } from "@wasl/core/Exports"
import { DateTime, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

describe.each(DATABASES)("CSV exports over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; token: string }
  let other: { account_id: number; token: string }

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "exports-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "exports-other@example.test", password: "pw-other" })
    for (const deal of [{ deal_name: "Small", amount: 50 }, { deal_name: "=cmd|' /C calc'!A0", amount: 500 }, { deal_name: "Acme, \"big\"\nrenewal", amount: 900 }]) {
      expect((await server.request("POST", "/api/deals", { token: owner.token, body: deal })).status).toBe(201)
    }
  })
  afterAll(async () => {
    await server?.close()
  })

  const download = (id: string, token = owner.token) =>
    fetch(`${server.url}/api/exports/${id}/download`, { headers: { authorization: `Bearer ${token}`, accept: "*/*" } })

  it("refuses a bad query with the 422 the list gives it, and unknown properties under properties.N", async () => {
    const filters = [{ property: "no_such", operator: "eq", value: 1 }]
    const listed = await server.request(
      "GET",
      `/api/deals?order=nope&direction=up&complex_filters=${encodeURIComponent(JSON.stringify(filters))}`,
      { token: owner.token }
    )
    expect(listed.status).toBe(422)
    const refused = await server.request("POST", "/api/deals/exports", {
      token: owner.token,
      body: { order: "nope", direction: "up", complex_filters: filters, properties: ["amount", "nope"] }
    })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual({ ...listed.body.errors, "properties.1": ["The selected properties.1 is invalid."] })
    expect((await server.query("SELECT count(*)::int AS n FROM exports"))[0].n).toBe(0)
  })

  it("queues (202), writes and serves the file: BOM, header, RFC 4180 quoting, the formula guarded, the list's order", async () => {
    const asked = await server.request("POST", "/api/deals/exports", {
      token: owner.token,
      body: { order: "amount", direction: "desc", complex_filters: [{ property: "amount", operator: "gt", value: 60 }], properties: ["deal_name", "amount"] }
    })
    expect(asked.status).toBe(202)
    expect(asked.body.data).toMatchObject({ status: "queued", object_type: "deal", row_count: null, expires_at: null })
    const id = asked.body.data._id as string
    expect((await download(id)).status).toBe(404)

    expect(await server.run(runNextExport())).toBe(true)
    const shown = await server.request("GET", `/api/exports/${id}`, { token: owner.token })
    expect(shown.status).toBe(200)
    expect(shown.body.data).toMatchObject({ status: "completed", row_count: 2, columns: ["_id", "deal_name", "amount", "created_at", "updated_at"] })

    const file = await download(id)
    expect(file.status).toBe(200)
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8")
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="deals-${id}.csv"`)
    const bytes = new Uint8Array(await file.arrayBuffer())
    expect(bytes.length).toBe(shown.body.data.byte_size)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(3))
    const deals = (await server.request("GET", "/api/deals?order=amount&direction=desc", { token: owner.token })).body.data
      .map((d: any) => d.properties)
    expect(text).toBe(
      "_id,deal_name,amount,created_at,updated_at\r\n" +
        `${deals[0]._id},"Acme, ""big""\nrenewal",900,${deals[0].created_at},${deals[0].updated_at}\r\n` +
        `${deals[1]._id},'=cmd|' /C calc'!A0,500,${deals[1].created_at},${deals[1].updated_at}\r\n`
    )

    const notifications = (await server.request("GET", "/api/notifications", { token: owner.token })).body.data
    expect(notifications.filter((n: any) => n.type === "ObjectsExport").map((n: any) => n.data)).toEqual([
      { export_id: id, object_type: "deal", row_count: 2, message: "Your export of 2 deals is ready to download." }
    ])
  })

  it("another account's export is 404; an expired file is 410 with its status, and the export shows expired", async () => {
    const asked = await server.request("POST", "/api/deals/exports", { token: owner.token, body: {} })
    const id = asked.body.data._id as string
    await server.run(runNextExport())
    expect((await server.request("GET", `/api/exports/${id}`, { token: other.token })).status).toBe(404)
    expect((await download(id, other.token)).status).toBe(404)
    expect((await server.request("GET", "/api/exports/not-an-export", { token: owner.token })).status).toBe(404)

    await server.query("UPDATE exports SET expires_at = now() - interval '1 second' WHERE id = $1", [id])
    expect((await server.request("GET", `/api/exports/${id}`, { token: owner.token })).body.data.status).toBe("expired")
    const gone = await download(id)
    expect(gone.status).toBe(410)
    expect(await gone.json()).toEqual({ message: "The export's file has expired.", status: "expired" })
  })

  describe("a batch per transaction", () => {
    let seller: { account_id: number; token: string }
    const DEALS = 300
    const BATCH = 40
    const body = { order: "amount", direction: "asc", properties: ["deal_name", "amount"] }
    const progressOf = async (id: string) =>
      (await server.query("SELECT status, attempts, written_rows::int AS rows, written_chunks AS chunks FROM exports WHERE id = $1", [id]))[0]
    const fileOf = async (id: string, token: string) => {
      const file = await fetch(`${server.url}/api/exports/${id}/download`, { headers: { authorization: `Bearer ${token}` } })
      expect(file.status).toBe(200)
      return new Uint8Array(await file.arrayBuffer())
    }

    beforeAll(async () => {
      seller = await server.bootstrap({ email: "exports-batches@example.test", password: "pw-batches" })
      for (let from = 0; from < DEALS; from += 100) {
        // Ties and deals without an amount: the batches cross both branches of the order.
        const inputs = Array.from({ length: 100 }, (_, i) => from + i).map((i) => ({
          properties: { deal_name: `Deal ${i}`, ...(i % 7 === 0 ? {} : { amount: i % 13 }) }
        }))
        expect((await server.request("POST", "/api/deals/batch/create", { token: seller.token, body: { inputs } })).status).toBe(201)
      }
    })

    it("lets another request write between two batches: the export is still running, with progress stored", async () => {
      const asked = await server.request("POST", "/api/deals/exports", { token: seller.token, body })
      const id = asked.body.data._id as string
      expect(await server.run(runNextExport(BATCH))).toBe(true)
      expect(await server.run(runNextExport(BATCH))).toBe(true)
      const created = await server.request("POST", "/api/contacts", { token: seller.token, body: { firstname: "Between", lastname: "Batches" } })
      expect(created.status).toBe(201)
      expect(await progressOf(id)).toMatchObject({ status: "running", attempts: 1, rows: 2 * BATCH, chunks: 2 })
      while (await server.run(runNextExport(BATCH))) {
        // the next batch
      }
      expect((await server.request("GET", `/api/exports/${id}`, { token: seller.token })).body.data)
        .toMatchObject({ status: "completed", row_count: DEALS })
    })

    it("a worker stopped mid-export is taken over from its progress: each deal once, the file byte for byte a one-go run's", async () => {
      const stopped = (await server.request("POST", "/api/deals/exports", { token: seller.token, body })).body.data._id as string
      for (let batch = 0; batch < 3; batch++) expect(await server.run(runNextExport(BATCH))).toBe(true)
      // The next worker claims it and dies before its batch commits.
      await server.run(ExportRepository.use((repo) =>
        Effect.flatMap(DateTime.now, (now) => repo.claim(now, DateTime.addDuration(now, EXPORT_LEASE)))))
      expect(await progressOf(stopped)).toEqual({ status: "running", attempts: 1, rows: 3 * BATCH, chunks: 3 })
      expect(await server.run(runNextExport(BATCH))).toBe(false)

      // Its worker is gone: once the lease has run out, the next run takes it over.
      await server.query("UPDATE exports SET lease_until = now() - interval '1 second' WHERE id = $1", [stopped])
      const oneGo = (await server.request("POST", "/api/deals/exports", { token: seller.token, body })).body.data._id as string
      while (await server.run(runNextExport(BATCH))) {
        // both exports, batch after batch
      }
      expect(await progressOf(stopped)).toMatchObject({ status: "completed", attempts: 2 })

      const resumed = await fileOf(stopped, seller.token)
      expect(resumed).toEqual(await fileOf(oneGo, seller.token))
      const lines = new TextDecoder().decode(resumed).split("\r\n").slice(1, -1)
      expect(lines.length).toBe(DEALS)
      expect(new Set(lines.map((line) => line.split(",")[0])).size).toBe(DEALS)
      const shown = (await server.request("GET", `/api/exports/${stopped}`, { token: seller.token })).body.data
      expect([shown.row_count, shown.byte_size]).toEqual([DEALS, resumed.length])
    })
  })
})
