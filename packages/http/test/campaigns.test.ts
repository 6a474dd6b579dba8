/**
 * Campaigns over HTTP, on PGlite and PostgreSQL, with the worker's runner driven step by step:
 * asking for one (202, its checks: permission, authentication template, approval, body), the
 * audience resolved when it starts (by ids or by the contacts list query; no number, opted out
 * or a variable's property empty: skipped and counted), each recipient sent once and counted by
 * its message's status, the allowance pausing and resuming it, cancel, the schedule, the
 * creator's notification, and a sending number with a campaign that has not ended kept. Resumable:
 * a worker interrupted mid-campaign, or one that died holding it, never sends anyone twice nor
 * leaves anyone out; the allowance stays exact with sends racing the campaign; Meta's throttling
 * (130429) makes it wait and resume.
 */
import { type FakeCloudApi, startFakeCloudApi } from "@wasl/adapters/testing"
import { setCustomMessageLimit, setPlan } from "@wasl/core/Accounts"
import { campaignTracking, makeCampaignRunner } from "@wasl/core/Messaging"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  approvedOnCloud,
  authenticationTemplate,
  createBroadcast,
  createContact,
  createPlatform,
  createToken,
  readOutbox,
  utilityTemplate
} from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const USED_UP = "The monthly message allowance is used up."

describe.each(DATABASES)("campaigns over HTTP on %s", (database) => {
  let server: TestServer
  let n = 0
  const runner = makeCampaignRunner({ sendRate: 1_000 })

  beforeAll(async () => {
    server = await startTestServer(database)
  })
  afterAll(async () => {
    await server?.close()
  })

  /** Runs the worker's campaign steps until no campaign waits (at most `max`). */
  const work = async (max = 50) => {
    for (let i = 0; i < max && await server.run(runner.runNext); i++) {
      // one step: a batch of the audience, a round of sends, or the completion
    }
  }

  /** A fresh account (business plan), a sandbox number and an approved utility broadcast with a variable. */
  const account = async () => {
    const owner = await server.bootstrap({ email: `campaigns-${++n}@example.test`, password: "pw-owner" })
    await server.run(setPlan(owner.account_id, "business", null))
    const platformId = (await createPlatform(server, owner.token)).id
    const broadcast = await createBroadcast(server, owner.token, platformId, utilityTemplate({ body: "Hello {{1}}, your order shipped." }))
    const campaign = (body: Record<string, unknown>, token = owner.token, id = broadcast.id) =>
      server.request("POST", `/api/broadcasts/${id}/campaigns`, { token, body })
    const show = async (id: string) => (await server.request("GET", `/api/campaigns/${id}`, { token: owner.token })).body.data
    const recipients = async (id: string, query = "") =>
      (await server.request("GET", `/api/campaigns/${id}/recipients${query}`, { token: owner.token })).body
    return { owner, platformId, broadcast, campaign, show, recipients }
  }

  const firstname = { body: [{ property: "firstname" }] }

  it("sends a broadcast to the contacts named, once each, skipping and counting those it cannot reach", async () => {
    const { owner, campaign, show, recipients } = await account()
    const sara = await createContact(server, owner.token, { firstname: "Sara", whatsapp_number: "+966500001001" })
    const omar = await createContact(server, owner.token, { firstname: "Omar", phone: "+966500001002" })
    const noNumber = await createContact(server, owner.token, { firstname: "Nada" })
    const optedOut = await createContact(server, owner.token, {
      firstname: "Huda",
      whatsapp_number: "+966500001003",
      whatsapp_opted_out: true
    })
    const noName = await createContact(server, owner.token, { whatsapp_number: "+966500001004" })
    const refused = await createContact(server, owner.token, { firstname: "Zed", whatsapp_number: "+999500001005" })

    const asked = await campaign({
      name: "Shipping notice",
      audience: { contact_ids: [sara, omar, noNumber, optedOut, noName, refused] },
      parameters: firstname
    })
    expect(asked.status).toBe(202)
    expect(asked.body.data).toMatchObject({
      name: "Shipping notice",
      status: "queued",
      reason: null,
      counts: { recipients: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 },
      scheduled_at: null,
      started_at: null,
      completed_at: null,
      user_id: owner.user_id
    })
    const id = asked.body.data._id as string
    const before = (await readOutbox(server.sandboxOutbox)).length

    await work()
    const done = await show(id)
    expect(done.status).toBe("completed")
    expect(done.started_at).not.toBeNull()
    expect(done.completed_at).not.toBeNull()
    expect(done.counts).toEqual({ recipients: 6, sent: 2, delivered: 0, read: 0, failed: 1, skipped: 3 })

    const sent = (await readOutbox(server.sandboxOutbox)).slice(before)
    expect(sent.map((line) => line.to).sort()).toEqual(["966500001001", "966500001002", "999500001005"])

    const page = await recipients(id)
    expect(page.meta.total).toBe(6)
    const byContact = new Map<string, any>(page.data.map((r: any) => [r.contact_id, r]))
    expect(byContact.get(sara)).toMatchObject({ status: "sent", reason: null })
    expect(byContact.get(sara).message_id).toMatch(/^[0-9a-f]{24}$/)
    expect(byContact.get(noNumber)).toMatchObject({ status: "skipped", reason: "The contact has no whatsapp_number or phone.", message_id: null })
    expect(byContact.get(optedOut)).toMatchObject({ status: "skipped", reason: "The contact opted out of WhatsApp messages (whatsapp_opted_out)." })
    expect(byContact.get(noName)).toMatchObject({ status: "skipped", reason: "The contact has no value for firstname." })
    expect(byContact.get(refused)).toMatchObject({ status: "failed", message_id: null })
    expect((await recipients(id, "?per_page=4&page=2")).data.map((r: any) => r.contact_id)).toEqual([noName, refused])

    // The stored message shows the filled text and is the recipient's.
    const message = await server.query("SELECT body, contact_id FROM messages WHERE account_id = $1 AND id = $2", [
      owner.account_id,
      byContact.get(sara).message_id
    ])
    expect(message[0]).toMatchObject({ body: "Hello Sara, your order shipped.", contact_id: sara })

    // The creator is told, once.
    const told = await server.query(
      "SELECT data FROM notifications WHERE account_id = $1 AND user_id = $2 AND type = 'WhatsappBroadcastCompleted'",
      [owner.account_id, owner.user_id]
    )
    expect(told).toHaveLength(1)
    expect(told[0].data).toMatchObject({ campaign_id: id, counts: done.counts })

    // Listed, newest first, in the account only.
    const listed = await server.request("GET", "/api/campaigns", { token: owner.token })
    expect(listed.body.data.map((c: any) => c._id)).toEqual([id])
    const stranger = await server.bootstrap({ email: `campaigns-stranger-${++n}@example.test`, password: "pw" })
    expect((await server.request("GET", `/api/campaigns/${id}`, { token: stranger.token })).status).toBe(404)
    expect((await server.request("GET", `/api/campaigns/${id}/recipients`, { token: stranger.token })).status).toBe(404)
    expect((await server.request("GET", "/api/campaigns", { token: stranger.token })).body.data).toEqual([])
  })

  it("resolves a list query's audience when the campaign starts, and counts messages by their statuses", async () => {
    const { owner, campaign, show, recipients } = await account()
    await createContact(server, owner.token, { firstname: "Lina", lastname: "Vip", whatsapp_number: "+966500002001" })
    await createContact(server, owner.token, { firstname: "Rami", lastname: "Plain", whatsapp_number: "+966500002002" })
    const asked = await campaign({
      name: "VIPs",
      audience: { complex_filters: [{ property: "lastname", operator: "eq", value: "Vip" }] },
      parameters: { body: ["friend"] }
    })
    expect(asked.status).toBe(202)
    // Made after the campaign was asked for, before it starts: in the audience.
    await createContact(server, owner.token, { firstname: "Maha", lastname: "Vip", whatsapp_number: "+966500002003" })
    await work()
    const done = await show(asked.body.data._id)
    expect(done.counts).toMatchObject({ recipients: 2, sent: 2, skipped: 0 })

    // A delivered and a read status move the counts.
    const [first, second] = (await recipients(asked.body.data._id)).data
    await server.query("UPDATE messages SET status = 'delivered' WHERE account_id = $1 AND id = $2", [owner.account_id, first.message_id])
    await server.query("UPDATE messages SET status = 'read' WHERE account_id = $1 AND id = $2", [owner.account_id, second.message_id])
    expect((await show(asked.body.data._id)).counts).toEqual({ recipients: 2, sent: 2, delivered: 2, read: 1, failed: 0, skipped: 0 })
    expect((await recipients(asked.body.data._id)).data.map((r: any) => r.status)).toEqual(["delivered", "read"])
  })

  it("pauses on the monthly allowance with its reason and resumes when allowance comes back", async () => {
    const { owner, campaign, show } = await account()
    await server.run(setPlan(owner.account_id, "custom", null))
    await server.run(setCustomMessageLimit(owner.account_id, 2))
    const ids: Array<string> = []
    for (let i = 0; i < 3; i++) {
      ids.push(await createContact(server, owner.token, { firstname: `C${i}`, whatsapp_number: `+96650000300${i}` }))
    }
    const asked = await campaign({ name: "Allowance", audience: { contact_ids: ids }, parameters: firstname })
    await work()
    const paused = await show(asked.body.data._id)
    expect(paused).toMatchObject({ status: "paused", reason: USED_UP })
    expect(paused.counts).toMatchObject({ recipients: 3, sent: 2 })
    const me = await server.request("GET", "/api/me", { token: owner.token })
    expect(me.body.account.message_allowance).toMatchObject({ limit: 2, used: 2 })

    await server.run(setCustomMessageLimit(owner.account_id, 3))
    // A paused campaign is looked at again a minute later: let its turn come now.
    await server.query("UPDATE campaigns SET resume_at = NULL WHERE account_id = $1", [owner.account_id])
    await work()
    const resumed = await show(asked.body.data._id)
    expect(resumed).toMatchObject({ status: "completed", reason: null })
    expect(resumed.counts).toMatchObject({ recipients: 3, sent: 3 })
  })

  it("cancels a campaign once, sends nothing of it after, and keeps a sending number while one has not ended", async () => {
    const { owner, platformId, campaign, show } = await account()
    const contact = await createContact(server, owner.token, { firstname: "Sara", whatsapp_number: "+966500004001" })
    const asked = await campaign({ name: "Later", audience: { contact_ids: [contact] }, parameters: firstname })
    const id = asked.body.data._id

    const kept = await server.request("DELETE", `/api/platforms/${platformId}`, { token: owner.token })
    expect(kept.status).toBe(422)
    expect(kept.body.errors.id).toEqual(["The sending number has a campaign that has not ended: cancel it first."])

    const canceled = await server.request("POST", `/api/campaigns/${id}/cancel`, { token: owner.token })
    expect(canceled.status).toBe(200)
    expect(canceled.body.data).toMatchObject({ status: "canceled" })
    expect(canceled.body.data.completed_at).not.toBeNull()
    const again = await server.request("POST", `/api/campaigns/${id}/cancel`, { token: owner.token })
    expect(again.status).toBe(422)
    expect(again.body.errors.status).toEqual(["The campaign has already ended."])
    await work()
    expect((await show(id)).counts.recipients).toBe(0)
    expect((await server.request("DELETE", `/api/platforms/${platformId}`, { token: owner.token })).status).toBe(200)
  })

  it("waits for scheduled_at before it starts", async () => {
    const { owner, campaign, show } = await account()
    const contact = await createContact(server, owner.token, { firstname: "Sara", whatsapp_number: "+966500005001" })
    const at = new Date(Date.now() + 3_600_000).toISOString()
    const asked = await campaign({ name: "Tomorrow", audience: { contact_ids: [contact] }, parameters: firstname, scheduled_at: at })
    expect(asked.status).toBe(202)
    expect(asked.body.data.status).toBe("scheduled")
    expect(Date.parse(asked.body.data.scheduled_at)).toBe(Date.parse(at))
    await work()
    expect((await show(asked.body.data._id)).status).toBe("scheduled")
    await server.query("UPDATE campaigns SET scheduled_at = now() - interval '1 second' WHERE account_id = $1", [owner.account_id])
    await work()
    expect((await show(asked.body.data._id)).status).toBe("completed")
  })

  /** Each number the sandbox was given since `from` lines, with how many times. */
  const sendsSince = async (from: number) => {
    const counts = new Map<string, number>()
    for (const line of (await readOutbox(server.sandboxOutbox)).slice(from)) counts.set(line.to, (counts.get(line.to) ?? 0) + 1)
    return counts
  }

  it("resumes a campaign its worker was interrupted in: nobody sent twice, nobody left out", async () => {
    const { owner, campaign, show } = await account()
    const ids: Array<string> = []
    for (let i = 0; i < 40; i++) {
      ids.push(await createContact(server, owner.token, { firstname: `R${i}`, whatsapp_number: `+9665000070${String(i).padStart(2, "0")}` }))
    }
    const asked = await campaign({ name: "Resumed", audience: { contact_ids: ids }, parameters: firstname })
    const from = (await readOutbox(server.sandboxOutbox)).length
    // 20 a second: the round of 40 takes two seconds; the worker is stopped after a fraction of it.
    const slow = makeCampaignRunner({ sendRate: 20 })
    await server.run(slow.runNext) // resolves the audience: running
    await server.run(Effect.timeout(slow.runNext, "600 millis").pipe(Effect.ignore))
    const partial = await show(asked.body.data._id)
    expect(partial.status).toBe("running")
    expect(partial.counts.sent).toBeGreaterThan(0)
    expect(partial.counts.sent).toBeLessThan(40)
    const pendingOrSending = await server.query(
      "SELECT status, count(*)::int AS n FROM campaign_recipients WHERE account_id = $1 GROUP BY status ORDER BY status",
      [owner.account_id]
    )
    expect(pendingOrSending.map((r) => r.status)).toEqual(["pending", "sent"])
    // The allowance counts what was sent, none of those given back.
    const used = async () => (await server.request("GET", "/api/me", { token: owner.token })).body.account.message_allowance.used
    expect(await used()).toBe(partial.counts.sent)

    await work()
    const done = await show(asked.body.data._id)
    expect(done).toMatchObject({ status: "completed" })
    expect(done.counts).toMatchObject({ recipients: 40, sent: 40, failed: 0 })
    const sends = await sendsSince(from)
    expect(sends.size).toBe(40)
    expect([...sends.values()].every((times) => times === 1)).toBe(true)
    expect(await used()).toBe(40)
  })

  /** A campaign of four contacts, running, whose recipient at place 1 a worker that died left `sending`. */
  const diedMidSend = async (name: string, prefix: string) => {
    const { owner, campaign, show, recipients } = await account()
    const ids: Array<string> = []
    for (let i = 0; i < 4; i++) ids.push(await createContact(server, owner.token, { firstname: `D${i}`, whatsapp_number: `+${prefix}${i}` }))
    const asked = await campaign({ name, audience: { contact_ids: ids }, parameters: firstname })
    const id = asked.body.data._id as string
    await server.run(runner.runNext) // resolves the audience: running
    await server.query(
      "UPDATE campaign_recipients SET status = 'sending', updated_at = now() WHERE account_id = $1 AND campaign_id = $2 AND seq = 1",
      [owner.account_id, id]
    )
    await server.query("UPDATE campaigns SET lease_until = now() - interval '1 second' WHERE account_id = $1", [owner.account_id])
    return { owner, id, ids, show, recipients, from: (await readOutbox(server.sandboxOutbox)).length }
  }

  it("stores from its status what a worker that died was sending, never sending it again, and sends the rest", async () => {
    const { owner, id, ids, show, recipients, from } = await diedMidSend("Died", "96650000800")
    // WhatsApp's status of the lost send, naming it by its tracking string, held for want of its message.
    await server.query(
      `INSERT INTO message_status_holds (account_id, provider_message_id, status, at, error, tracking, created_at)
       VALUES ($1, 'wamid.lost-1', 'delivered', now(), NULL, $2, now())`,
      [owner.account_id, campaignTracking(id, ids[1]!)]
    )
    await work()
    expect(await show(id)).toMatchObject({ status: "completed", counts: { recipients: 4, sent: 4, failed: 0 } })
    const lost = (await recipients(id)).data[1]
    // Its recipient shows its message's status: the held one, applied.
    expect(lost).toMatchObject({ contact_id: ids[1], status: "delivered" })
    const [message] = await server.query("SELECT provider_message_id, status FROM messages WHERE account_id = $1 AND id = $2", [
      owner.account_id,
      lost.message_id
    ])
    expect(message).toMatchObject({ provider_message_id: "wamid.lost-1", status: "delivered" })
    const sends = await sendsSince(from)
    expect(sends.has("966500008001")).toBe(false)
    expect(sends.size).toBe(3)
  })

  it("sends once, after the confirm window, what a worker that died was sending when no status names it", async () => {
    const { owner, id, ids, show, recipients, from } = await diedMidSend("Lost", "96650000810")
    await work()
    // Within the window the campaign waits for the send's status: nothing is sent to it.
    expect(await show(id)).toMatchObject({ status: "running", counts: { sent: 3, failed: 0 } })
    expect((await recipients(id)).data[1]).toMatchObject({ contact_id: ids[1], status: "sending" })
    expect((await sendsSince(from)).has("966500008101")).toBe(false)
    // The window past without a status: the provider never took it, so it is sent.
    await server.query(
      "UPDATE campaign_recipients SET updated_at = now() - interval '16 minutes' WHERE account_id = $1 AND campaign_id = $2 AND seq = 1",
      [owner.account_id, id]
    )
    await server.query("UPDATE campaigns SET resume_at = NULL WHERE account_id = $1", [owner.account_id])
    await work()
    expect(await show(id)).toMatchObject({ status: "completed", counts: { recipients: 4, sent: 4, failed: 0 } })
    const sends = await sendsSince(from)
    expect(sends.size).toBe(4)
    expect([...sends.values()].every((times) => times === 1)).toBe(true)
  })

  it("keeps the allowance exact when template sends race the campaign", async () => {
    const { owner, broadcast, campaign, show } = await account()
    await server.run(setPlan(owner.account_id, "custom", null))
    await server.run(setCustomMessageLimit(owner.account_id, 6))
    const ids: Array<string> = []
    for (let i = 0; i < 6; i++) ids.push(await createContact(server, owner.token, { firstname: `A${i}`, whatsapp_number: `+96650000900${i}` }))
    const asked = await campaign({ name: "Race", audience: { contact_ids: ids }, parameters: firstname })
    await server.run(runner.runNext) // resolves the audience: running
    const sends = ids.map((contact_id) =>
      server.request("POST", `/api/broadcasts/${broadcast.id}/send`, {
        token: owner.token,
        body: { contact_id, parameters: { body: ["racer"] } }
      })
    )
    const [answers] = await Promise.all([Promise.all(sends), work()])
    const accepted = answers.filter((a) => a.status === 200).length
    expect(answers.every((a) => a.status === 200 || a.status === 402)).toBe(true)
    const counts = (await show(asked.body.data._id)).counts
    expect(accepted + counts.sent).toBe(6)
    const me = await server.request("GET", "/api/me", { token: owner.token })
    expect(me.body.account.message_allowance).toMatchObject({ limit: 6, used: 6 })
  })

  it("refuses what it cannot send: 403 without broadcast-send, for an authentication or unapproved template; 404; 422", async () => {
    const { owner, platformId, broadcast, campaign } = await account()
    const contact = await createContact(server, owner.token, { firstname: "Sara", whatsapp_number: "+966500006001" })
    const body = { name: "Ok", audience: { contact_ids: [contact] }, parameters: firstname }

    const readOnly = await createToken(server, owner.token, ["broadcast-index"])
    expect((await campaign(body, readOnly)).status).toBe(403)
    const otp = await createBroadcast(server, owner.token, platformId, authenticationTemplate())
    const auth = await campaign(body, owner.token, otp.id)
    expect(auth.status).toBe(403)
    expect(auth.body.message).toBe("Authentication templates can only be sent through send-otp.")
    await server.query("UPDATE broadcasts SET status = 'PAUSED' WHERE account_id = $1 AND id = $2", [owner.account_id, broadcast.id])
    const paused = await campaign(body)
    expect(paused.status).toBe(403)
    expect(paused.body.message).toBe("The template is not approved.")
    await server.query("UPDATE broadcasts SET status = 'APPROVED' WHERE account_id = $1 AND id = $2", [owner.account_id, broadcast.id])
    expect((await campaign(body, owner.token, 987_654)).status).toBe(404)

    const invalid = await campaign({
      audience: { contact_ids: [contact, "nope"], search: "x" },
      parameters: { body: ["a", "b"] },
      scheduled_at: "not a date"
    })
    expect(invalid.status).toBe(422)
    expect(Object.keys(invalid.body.errors).sort()).toEqual([
      "audience.contact_ids",
      "audience.contact_ids.1",
      "name",
      "parameters.body.1",
      "scheduled_at"
    ])
    const badQuery = await campaign({ name: "Q", audience: { complex_filters: [{ property: "nope", operator: "eq", value: 1 }] }, parameters: firstname })
    expect(badQuery.status).toBe(422)
    expect(Object.keys(badQuery.body.errors).every((key) => key.startsWith("audience."))).toBe(true)
    const noAudience = await campaign({ name: "Q", parameters: firstname })
    expect(noAudience.body.errors).toEqual({ audience: ["The audience field is required."] })
    const unknownProperty = await campaign({ name: "Q", audience: { contact_ids: [contact] }, parameters: { body: [{ property: "nope" }] } })
    expect(unknownProperty.body.errors).toEqual({ "parameters.body.0.property": ["The selected parameters.body.0.property is invalid."] })
    expect(await server.query("SELECT 1 FROM campaigns WHERE account_id = $1", [owner.account_id])).toHaveLength(0)
  })
})

describe.each(DATABASES)("campaigns through the WhatsApp Cloud API on %s", (database) => {
  const ACCESS_TOKEN = "EAAG-campaigns"
  let api: FakeCloudApi
  let server: TestServer

  beforeAll(async () => {
    api = await startFakeCloudApi(ACCESS_TOKEN)
    server = await startTestServer(database, { graphUrl: api.url })
  })
  afterAll(async () => {
    await server?.close()
    await api?.close()
  })

  it("waits on Meta's throughput error (130429) and resumes: each recipient's message accepted once", async () => {
    const owner = await server.bootstrap({ email: "campaigns-cloud@example.test", password: "pw" })
    await server.run(setPlan(owner.account_id, "business", null))
    const platformId = (await createPlatform(server, owner.token, {
      name: "Cloud number",
      display_phone_number: "+1 555 000 2222",
      provider: "whatsapp_cloud",
      phone_id: "106540352242933",
      waba_id: "102290129340399",
      access_token: ACCESS_TOKEN
    })).id
    const broadcast = await approvedOnCloud(server, api, owner.token, await createBroadcast(server, owner.token, platformId, utilityTemplate()))
    const ids: Array<string> = []
    for (let i = 0; i < 3; i++) ids.push(await createContact(server, owner.token, { firstname: `T${i}`, whatsapp_number: `+96650001000${i}` }))
    const asked = await server.request("POST", `/api/broadcasts/${broadcast.id}/campaigns`, {
      token: owner.token,
      body: { name: "Throttled", audience: { contact_ids: ids } }
    })
    expect(asked.status).toBe(202)
    const runner = makeCampaignRunner({ sendRate: 1_000 })
    api.failures.set("966500010001", [400, 130429])
    await server.run(runner.runNext) // resolves the audience
    await server.run(runner.runNext) // a round: one throttled
    const [row] = await server.query("SELECT status, resume_at > now() + interval '30 seconds' AS waits FROM campaigns WHERE account_id = $1", [
      owner.account_id
    ])
    expect(row).toMatchObject({ status: "running", waits: true })
    const waiting = await server.request("GET", `/api/campaigns/${asked.body.data._id}/recipients`, { token: owner.token })
    expect(waiting.body.data.find((r: any) => r.contact_id === ids[1]).status).toBe("pending")
    expect(await server.run(runner.runNext)).toBe(false) // nothing to do until Meta's retry time

    api.failures.delete("966500010001")
    // A second back: now() has microseconds, the worker's clock milliseconds, and a worker taking
    // the campaign within the same millisecond would still find it waiting.
    await server.query("UPDATE campaigns SET resume_at = now() - interval '1 second' WHERE account_id = $1", [owner.account_id])
    while (await server.run(runner.runNext)) {
      // the rest of the campaign
    }
    const done = await server.request("GET", `/api/campaigns/${asked.body.data._id}`, { token: owner.token })
    expect(done.body.data).toMatchObject({ status: "completed", counts: { recipients: 3, sent: 3, failed: 0 } })
    const calls = api.calls.filter((c) => c.path.endsWith("/106540352242933/messages")).map((c) => c.json.to)
    expect(calls.filter((to) => to === "966500010000")).toHaveLength(1)
    expect(calls.filter((to) => to === "966500010001")).toHaveLength(2) // refused once, then accepted
    expect(calls.filter((to) => to === "966500010002")).toHaveLength(1)
  })
})
