/**
 * Pipelines of deals and tickets over HTTP on both databases: the endpoints' shapes and
 * messages, records in a pipeline and its stages (422 with the validation body), the board's
 * filters, move_to on delete, permissions and another account's pipeline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const RECORD_ID = /^[0-9a-f]{24}$/

const renewals = {
  name: { en: "Renewals", ar: "التجديدات" },
  stages: [
    { internal_name: "renewal_due", name: { en: "Due", ar: "مستحق" }, probability: 0.5, closed: false },
    { internal_name: "renewed", name: { en: "Renewed", ar: "جُدّد" }, probability: 1, closed: true, won: true }
  ]
}

describe.each(DATABASES)("pipelines over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let reader: string

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "pipelines-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "pipelines-other@example.test", password: "pw-other" })
    const created = await server.request("POST", "/api/tokens", { token: owner.token, body: { name: "reader", abilities: ["deal-index"] } })
    reader = created.body.token
  })
  afterAll(async () => {
    await server?.close()
  })

  it("lists the built-in pipelines of deals and tickets", async () => {
    const deals = await server.request("GET", "/api/deals/pipelines", { token: owner.token })
    expect(deals.status).toBe(200)
    expect(deals.body.data).toHaveLength(1)
    expect(deals.body.data[0]).toMatchObject({ _id: "default", account_id: null, created_at: null, name: { en: "Sales pipeline" } })
    expect(deals.body.data[0].stages[0]).toEqual({
      internal_name: "appointment_scheduled",
      name: { en: "Appointment scheduled", ar: "تم تحديد موعد" },
      probability: 0.2,
      closed: false,
      won: false
    })
    const tickets = await server.request("GET", "/api/tickets/pipelines/default", { token: owner.token })
    expect(tickets.body.data.stages.map((s: { internal_name: string }) => s.internal_name)).toEqual(["new", "waiting", "in_progress", "closed"])
    expect((await server.request("GET", "/api/contacts/pipelines", { token: owner.token })).status).toBe(404)
  })

  it("creates a pipeline, puts a deal in it, filters on it, and deletes it with move_to", async () => {
    const created = await server.request("POST", "/api/deals/pipelines", { token: owner.token, body: renewals })
    expect(created.status).toBe(201)
    expect(created.body.message).toBe("Entity was created Successfully")
    const id = created.body.data._id
    expect(id).toMatch(RECORD_ID)
    expect(created.body.data).toMatchObject({ account_id: owner.account_id, stages: [{ internal_name: "renewal_due" }, { won: true }] })

    const wrong = await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "R", deal_stage: "renewed" } })
    expect(wrong.status).toBe(422)
    expect(wrong.body).toEqual({
      message: "The selected deal stage is invalid.",
      errors: { deal_stage: ["The selected deal stage is invalid."] }
    })
    const deal = await server.request("POST", "/api/deals", {
      token: owner.token,
      body: { deal_name: "R", amount: 10, pipeline: id, deal_stage: "renewal_due" }
    })
    expect(deal.status).toBe(201)
    expect(deal.body.data.properties).toMatchObject({ pipeline: id, deal_stage: "renewal_due" })
    await server.request("POST", "/api/deals", { token: owner.token, body: { deal_name: "S", deal_stage: "closed_won" } })

    const filters = encodeURIComponent(JSON.stringify([{ property: "pipeline", operator: "eq", value: id }]))
    const board = await server.request("GET", `/api/deals?complex_filters=${filters}`, { token: owner.token })
    expect(board.body.meta.total).toBe(1)
    const byStage = await server.request(
      "GET",
      `/api/deals?complex_filters[0][property]=deal_stage&complex_filters[0][operator]=eq&complex_filters[0][value]=renewal_due`,
      { token: owner.token }
    )
    expect(byStage.body.data.map((d: { properties: { deal_name: string } }) => d.properties.deal_name)).toEqual(["R"])

    const refused = await server.request("DELETE", `/api/deals/pipelines/${id}`, { token: owner.token })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toHaveProperty("_id")
    const deleted = await server.request("DELETE", `/api/deals/pipelines/${id}?move_to=contract_sent`, { token: owner.token })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ message: "Entity was deleted Successfully", data: [] })
    const moved = await server.request("GET", `/api/deals/${deal.body.data.properties._id}`, { token: owner.token })
    expect(moved.body.data.properties).toMatchObject({ pipeline: "default", deal_stage: "contract_sent" })
    expect((await server.request("GET", `/api/deals/pipelines/${id}`, { token: owner.token })).status).toBe(404)
  })

  it("renames and extends the default ticket pipeline; a stage in use goes with move_to; the default one is never deleted", async () => {
    const ticket = await server.request("POST", "/api/tickets", { token: owner.token, body: { ticket_name: "Help" } })
    expect(ticket.body.data.properties).toMatchObject({ pipeline: "default", ticket_stage: "new" })
    const builtin = (await server.request("GET", "/api/tickets/pipelines/default", { token: owner.token })).body.data
    const without = { name: { en: "Support", ar: "الدعم" }, stages: builtin.stages.filter((s: { internal_name: string }) => s.internal_name !== "new") }
    const refused = await server.request("PUT", "/api/tickets/pipelines/default", { token: owner.token, body: without })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toHaveProperty("stages")
    const updated = await server.request("PUT", "/api/tickets/pipelines/default", {
      token: owner.token,
      body: { ...without, move_to: "waiting" }
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ message: "Entity was modified Successfully", data: { _id: "default", name: { en: "Support" } } })
    const read = await server.request("GET", `/api/tickets/${ticket.body.data.properties._id}`, { token: owner.token })
    expect(read.body.data.properties.ticket_stage).toBe("waiting")
    const kept = await server.request("DELETE", "/api/tickets/pipelines/default", { token: owner.token })
    expect(kept.status).toBe(403)
  })

  it("validates the body with the keys of the stages", async () => {
    const reply = await server.request("POST", "/api/deals/pipelines", {
      token: owner.token,
      body: { name: { en: "Bad" }, stages: [{ internal_name: "closed_won", name: { en: "Won" }, probability: 1, closed: true }, { name: { en: "x" } }] }
    })
    expect(reply.status).toBe(422)
    expect(reply.body.errors).toEqual({
      "stages.0.internal_name": ["The stages.0.internal name has already been taken."],
      "stages.1.internal_name": ["The stages.1.internal name field is required."],
      "stages.1.probability": ["The stages.1.probability field is required."]
    })
  })

  it("writes need property-manage; another account's pipeline is not found", async () => {
    expect((await server.request("GET", "/api/deals/pipelines", { token: reader })).status).toBe(200)
    expect((await server.request("POST", "/api/deals/pipelines", { token: reader, body: renewals })).status).toBe(403)
    const mine = await server.request("POST", "/api/deals/pipelines", { token: owner.token, body: { ...renewals, stages: [{ ...renewals.stages[0], internal_name: "mine_only" }] } })
    const id = mine.body.data._id
    expect((await server.request("GET", `/api/deals/pipelines/${id}`, { token: other.token })).status).toBe(404)
    expect((await server.request("DELETE", `/api/deals/pipelines/${id}`, { token: other.token })).status).toBe(404)
    const foreign = await server.request("POST", "/api/deals", { token: other.token, body: { deal_name: "X", pipeline: id } })
    expect(foreign.status).toBe(422)
    expect(foreign.body.errors).toEqual({ pipeline: ["The selected pipeline is invalid."] })
    expect((await server.request("GET", "/api/deals/pipelines/not-an-id", { token: owner.token })).status).toBe(404)
  })
})
