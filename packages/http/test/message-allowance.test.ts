/**
 * The monthly message allowance over HTTP, on PGlite and PostgreSQL: template sends use it (402
 * with nothing sent or stored once used up, exact under concurrent sends), one-time passwords and
 * replies inside the 24-hour window never do, a refused send gives its message back, a past
 * month's count does not count, and `GET /api/me` shows it.
 */
import { addOtpCredits, setCustomMessageLimit, setPlan } from "@wasl/core/Accounts"
import { MessageRepository } from "@wasl/core/Messaging"
import { DateTime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  authenticationTemplate,
  countRows,
  createBroadcast,
  createContact,
  createPlatform,
  createToken,
  inboundMessage,
  readOutbox,
  utilityTemplate
} from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const USED_UP = { message: "The monthly message allowance is used up." }

/** The first instant of the UTC month after now, as the API writes timestamps. */
const nextMonthStart = () => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().replace(".000Z", ".000000Z")
}

describe.each(DATABASES)("the monthly message allowance over HTTP on %s", (database) => {
  let server: TestServer
  let n = 0

  beforeAll(async () => {
    server = await startTestServer(database)
  })
  afterAll(async () => {
    await server?.close()
  })

  /** A fresh account on the custom plan with `limit` messages a month, a sandbox number, a broadcast and a contact. */
  const account = async (limit: number) => {
    const owner = await server.bootstrap({ email: `allowance-${++n}@example.test`, password: "pw-owner" })
    await server.run(setPlan(owner.account_id, "custom", null))
    await server.run(setCustomMessageLimit(owner.account_id, limit))
    const platformId = (await createPlatform(server, owner.token)).id
    const broadcast = await createBroadcast(server, owner.token, platformId, utilityTemplate())
    const contactId = await createContact(server, owner.token, { firstname: "Sara", whatsapp_number: "+966500000001" })
    const send = (contact = contactId) =>
      server.request("POST", `/api/broadcasts/${broadcast.id}/send`, { token: owner.token, body: { contact_id: contact } })
    const allowance = async () => (await server.request("GET", "/api/me", { token: owner.token })).body.account.message_allowance
    return { owner, platformId, contactId, send, allowance }
  }

  it("shows the plan's allowance in GET /api/me: free 100, starter 1,000, business 10,000, custom its own", async () => {
    const owner = await server.bootstrap({ email: `allowance-me-${++n}@example.test`, password: "pw", plan: "free" })
    const me = async () => (await server.request("GET", "/api/me", { token: owner.token })).body.account.message_allowance
    expect(await me()).toEqual({ limit: 100, used: 0, resets_at: nextMonthStart() })
    await server.run(setPlan(owner.account_id, "starter", null))
    expect((await me()).limit).toBe(1_000)
    await server.run(setPlan(owner.account_id, "business", null))
    expect((await me()).limit).toBe(10_000)
    await server.run(setPlan(owner.account_id, "custom", null))
    expect((await me()).limit).toBe(0)
    await server.run(setCustomMessageLimit(owner.account_id, 2_500))
    expect((await me()).limit).toBe(2_500)
  })

  it("uses one per template send and answers 402 once used up, sending and storing nothing", async () => {
    const { owner, send, allowance } = await account(2)
    expect((await send()).status).toBe(200)
    expect(await allowance()).toMatchObject({ limit: 2, used: 1 })
    expect((await send()).status).toBe(200)
    const messages = await countRows(server, "messages", owner.account_id)
    const outbox = (await readOutbox(server.sandboxOutbox)).length
    const refused = await send()
    expect(refused.status).toBe(402)
    expect(refused.body).toEqual(USED_UP)
    expect(await countRows(server, "messages", owner.account_id)).toBe(messages)
    expect((await readOutbox(server.sandboxOutbox)).length).toBe(outbox)
    expect(await allowance()).toMatchObject({ limit: 2, used: 2 })
    // Allowance comes back with a plan that gives more.
    await server.run(setCustomMessageLimit(owner.account_id, 3))
    expect((await send()).status).toBe(200)
  })

  it("gives the message back when the provider refuses the send", async () => {
    const { owner, send, allowance } = await account(1)
    const undeliverable = await createContact(server, owner.token, { firstname: "No", whatsapp_number: "+999500000001" })
    expect((await send(undeliverable)).status).toBe(422)
    expect(await allowance()).toMatchObject({ used: 0 })
    expect((await send()).status).toBe(200)
  })

  it("does not count a past month's sends", async () => {
    const { owner, send, allowance } = await account(1)
    await server.query(
      `INSERT INTO message_allowance_usage (account_id, month, used)
       VALUES ($1, (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date, 1)`,
      [owner.account_id]
    )
    expect(await allowance()).toMatchObject({ used: 0 })
    expect((await send()).status).toBe(200)
    expect((await send()).status).toBe(402)
  })

  it("never counts one-time passwords: they use OTP credits", async () => {
    const { owner, platformId, contactId, allowance } = await account(0)
    await server.run(addOtpCredits(owner.account_id, 2))
    const otp = await createBroadcast(server, owner.token, platformId, authenticationTemplate())
    const token = await createToken(server, owner.token, ["broadcast-send-otp"])
    const sent = await server.request("POST", `/api/broadcasts/${otp.id}/send-otp`, {
      token,
      body: { contact_id: contactId, code: "1234" }
    })
    expect(sent.status).toBe(200)
    expect(await allowance()).toEqual({ limit: 0, used: 0, resets_at: nextMonthStart() })
  })

  it("never counts a reply inside the 24-hour window", async () => {
    const { owner, platformId, contactId, allowance } = await account(0)
    const at = DateTime.makeUnsafe(Date.now() - 3_600_000)
    const inbound = inboundMessage({ accountId: owner.account_id, platformId, contactId, at }, { body: "Is my order ready?" })
    await server.run(MessageRepository.use((repo) => repo.insert(inbound)))
    const reply = await server.request("POST", `/api/contacts/${contactId}/messages`, {
      token: owner.token,
      body: { text: "Yes, it ships today." }
    })
    expect(reply.status).toBe(201)
    expect(await allowance()).toMatchObject({ limit: 0, used: 0 })
  })

  it("lets exactly the allowance through when sends race", async () => {
    const { owner, send, allowance } = await account(5)
    const replies = await Promise.all(Array.from({ length: 20 }, () => send()))
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    expect(statuses.filter((s) => s === 402)).toHaveLength(15)
    expect(await allowance()).toMatchObject({ limit: 5, used: 5 })
    expect(await countRows(server, "messages", owner.account_id)).toBe(5)
  })
})
