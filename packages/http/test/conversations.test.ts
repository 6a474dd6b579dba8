/**
 * Conversations over HTTP, on PGlite and PostgreSQL: a contact's messages both ways, the inbox,
 * free-form replies inside the 24-hour window (sent through the sandbox), and marking a
 * conversation read (with the read receipt to the channel). Inbound messages are stored through
 * the MessageRepository, as the inbound processing stores them.
 */
import { MediaStore, mediaKey, type Message, MessageRepository } from "@wasl/core/Messaging"
import { DateTime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  bootstrapOwnerAndOther,
  countRows,
  createContact,
  createPlatform,
  createToken,
  readOutbox
} from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const HOUR = 3_600_000
let seq = 0
const hex24 = () => (Date.now().toString(16) + (++seq).toString(16).padStart(6, "0") + "0".repeat(24)).slice(0, 24)

describe.each(DATABASES)("conversations over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let platformId: number

  beforeAll(async () => {
    server = await startTestServer(database)
    ;({ owner, other } = await bootstrapOwnerAndOther(server, "conv"))
    platformId = (await createPlatform(server, owner.token)).id
  })
  afterAll(async () => {
    await server?.close()
  })

  /** Stores a message the contact sent `hoursAgo` hours ago from `from`, to the sandbox number. */
  const received = async (
    contactId: string,
    hoursAgo: number,
    body = "hello",
    from = "966500000001",
    account = { accountId: owner.account_id, platformId }
  ) => {
    const at = DateTime.makeUnsafe(Date.now() - hoursAgo * HOUR)
    const message: Message = {
      _id: hex24(),
      account_id: account.accountId,
      provider_message_id: `wamid.IN${hex24()}`,
      contact_id: contactId,
      contact_channel_id: hex24(),
      broadcast_id: null,
      platform_id: account.platformId,
      platform_third_party_id: "966110000000",
      sender_third_party_id: from,
      receiver_third_party_id: "966110000000",
      direction: "inbound",
      type: "text",
      status: "received",
      body,
      content: null,
      context_id: null,
      attachments: [],
      error: null,
      sent_at: null,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      created_at: at,
      updated_at: at
    }
    await server.run(MessageRepository.use((repo) => repo.insert(message)))
    return message
  }

  const newContact = (firstname: string, whatsapp_number = "+966500000001") =>
    createContact(server, owner.token, { firstname, whatsapp_number })

  describe("a contact's messages", () => {
    it("lists both directions newest first in the paginator, with statuses and times", async () => {
      const contactId = await newContact("Huda")
      const first = await received(contactId, 2, "Is my order ready?")
      const reply = await server.request("POST", `/api/contacts/${contactId}/messages`, {
        token: owner.token,
        body: { text: "Yes, it ships today." }
      })
      expect(reply.status).toBe(201)
      const listed = await server.request("GET", `/api/contacts/${contactId}/messages`, { token: owner.token })
      expect(listed.status).toBe(200)
      expect(listed.body.meta).toMatchObject({ total: 2, current_page: 1, per_page: 15 })
      expect(listed.body.data.map((m: any) => [m.body, m.is_sent_by_the_business, m.status])).toEqual([
        ["Yes, it ships today.", true, "sent"],
        ["Is my order ready?", false, "received"]
      ])
      expect(listed.body.data[1]).toMatchObject({
        _id: first._id,
        id: first.provider_message_id,
        contact_id: contactId,
        type: "text",
        broadcast_id: null,
        attachments: [],
        error: null,
        read_at: null,
        created_at: expect.stringMatching(WIRE_TIME)
      })
      const page2 = await server.request("GET", `/api/contacts/${contactId}/messages?per_page=1&page=2`, { token: owner.token })
      expect(page2.body.data.map((m: any) => m._id)).toEqual([first._id])
      expect(page2.body.links.prev).toContain("per_page=1")
    })

    it("answers 404 for another account's contact or a malformed id, 403 without contact-show, 422 on a bad page", async () => {
      const contactId = await newContact("Private")
      await received(contactId, 1)
      expect((await server.request("GET", `/api/contacts/${contactId}/messages`, { token: other.token })).status).toBe(404)
      expect((await server.request("GET", "/api/contacts/not-an-id/messages", { token: owner.token })).status).toBe(404)
      const none = await createToken(server, owner.token, ["deal-index"])
      expect((await server.request("GET", `/api/contacts/${contactId}/messages`, { token: none })).status).toBe(403)
      const bad = await server.request("GET", `/api/contacts/${contactId}/messages?per_page=0`, { token: owner.token })
      expect(bad.status).toBe(422)
      expect(Object.keys(bad.body.errors)).toEqual(["per_page"])
    })
  })

  describe("the inbox", () => {
    it("lists one entry per contact, latest activity first, with unread counts and the window's end", async () => {
      const fresh = await server.bootstrap({ email: "conv-inbox@example.test", password: "pw" })
      const pid = (await createPlatform(server, fresh.token)).id
      const mk = (firstname: string, number: string) => createContact(server, fresh.token, { firstname, whatsapp_number: number })
      const amal = await mk("Amal", "+966 50 111 2222")
      const badr = await mk("Badr", "+971 50 333 4444")
      const account = { accountId: fresh.account_id, platformId: pid }
      const open = await received(amal, 1, "one", "966501112222", account)
      await received(amal, 0.5, "two", "966501112222", account)
      await received(badr, 30, "old", "971503334444", account)
      const inbox = await server.request("GET", "/api/conversations", { token: fresh.token })
      expect(inbox.status).toBe(200)
      expect(inbox.body.meta.total).toBe(2)
      const [first, second] = inbox.body.data
      expect(first).toMatchObject({
        contact: { _id: amal, fullname: "Amal", whatsapp_number: "+966501112222" },
        last_message: { body: "two", is_sent_by_the_business: false },
        unread_count: 2,
        window_expires_at: expect.stringMatching(WIRE_TIME)
      })
      const expires = Date.parse(first.window_expires_at)
      expect(Math.abs(expires - (Date.now() + 23.5 * HOUR))).toBeLessThan(60_000)
      expect(open.created_at.epochMilliseconds).toBeLessThan(expires)
      expect(second).toMatchObject({ contact: { _id: badr }, unread_count: 1, window_expires_at: null })

      const searched = await server.request("GET", "/api/conversations?search=971%2050", { token: fresh.token })
      expect(searched.body.data.map((c: any) => c.contact._id)).toEqual([badr])
      expect((await server.request("GET", "/api/conversations?search=amal", { token: fresh.token })).body.meta.total).toBe(1)

      const read = await server.request("POST", `/api/conversations/${badr}/read`, { token: fresh.token })
      expect(read.status).toBe(200)
      expect(read.body).toEqual({ data: { unread_count: 0 } })
      const unread = await server.request("GET", "/api/conversations?unread=true", { token: fresh.token })
      expect(unread.body.data.map((c: any) => c.contact._id)).toEqual([amal])
      const bad = await server.request("GET", "/api/conversations?unread=maybe", { token: fresh.token })
      expect(bad.status).toBe(422)
      expect(bad.body.errors).toEqual({ unread: ["The unread field must be true or false."] })

      // Another account sees none of it.
      const foreign = await server.request("GET", "/api/conversations?search=amal", { token: other.token })
      expect(foreign.body.data).toEqual([])
      const none = await createToken(server, fresh.token, ["deal-index"])
      expect((await server.request("GET", "/api/conversations", { token: none })).status).toBe(403)
    })
  })

  describe("replies", () => {
    it("sends a text inside the window through the number and WhatsApp id the contact wrote from, stored outbound", async () => {
      const contactId = await newContact("Reem", "+966 50 999 0000")
      const inbound = await received(contactId, 23, "help", "966509990000")
      const reply = await server.request("POST", `/api/contacts/${contactId}/messages`, {
        token: owner.token,
        body: { text: "How can we help?" }
      })
      expect(reply.status).toBe(201)
      expect(reply.body.data).toMatchObject({
        id: expect.stringMatching(/^wamid\./),
        account_id: owner.account_id,
        contact_id: contactId,
        platform_id: platformId,
        platform_third_party_id: inbound.platform_third_party_id,
        sender_third_party_id: "966110000000",
        receiver_third_party_id: "966509990000",
        type: "text",
        status: "sent",
        broadcast_id: null,
        body: "How can we help?",
        is_sent_by_the_business: true,
        sent_at: expect.stringMatching(WIRE_TIME)
      })
      expect(reply.body.data.broadcast).toBeUndefined()
      const sent = (await readOutbox(server.sandboxOutbox)).filter((l) => l.text === "How can we help?")
      expect(sent).toEqual([expect.objectContaining({ outcome: "accepted", to: "966509990000", message_id: reply.body.data.id })])
    })

    it("refuses a reply outside the window, or to a contact that never wrote, with a 422 on text", async () => {
      const late = await newContact("Late")
      await received(late, 24.1)
      const silent = await newContact("Silent")
      for (const contactId of [late, silent]) {
        const before = await countRows(server, "messages", owner.account_id)
        const reply = await server.request("POST", `/api/contacts/${contactId}/messages`, { token: owner.token, body: { text: "hi" } })
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({
          message: "A template message is needed outside the 24-hour customer-service window.",
          errors: { text: ["A template message is needed outside the 24-hour customer-service window."] }
        })
        expect(await countRows(server, "messages", owner.account_id)).toBe(before)
      }
    })

    it("validates the text: required, a string, at most 4096 characters", async () => {
      const contactId = await newContact("Valid")
      await received(contactId, 1)
      const post = (body: unknown) => server.request("POST", `/api/contacts/${contactId}/messages`, { token: owner.token, body })
      expect((await post({})).body.errors).toEqual({ text: ["The text field is required."] })
      expect((await post({ text: "   " })).body.errors).toEqual({ text: ["The text field is required."] })
      expect((await post({ text: 5 })).body.errors).toEqual({ text: ["The text field must be a string."] })
      expect((await post({ text: "x".repeat(4097) })).body.errors).toEqual({
        text: ["The text field must not be greater than 4096 characters."]
      })
      expect((await post({ text: "😀".repeat(4096) })).status).toBe(201)
    })

    it("answers 422 on text when the channel rejects the message, and stores nothing", async () => {
      const contactId = await newContact("Blocked", "+999 1234 5678")
      await received(contactId, 1, "hi", "99912345678")
      const before = await countRows(server, "messages", owner.account_id)
      const reply = await server.request("POST", `/api/contacts/${contactId}/messages`, { token: owner.token, body: { text: "hello" } })
      expect(reply.status).toBe(422)
      expect(Object.keys(reply.body.errors)).toEqual(["text"])
      expect(await countRows(server, "messages", owner.account_id)).toBe(before)
    })

    it("needs broadcast-send; another account's contact is a 404", async () => {
      const contactId = await newContact("Perm")
      await received(contactId, 1)
      const reader = await createToken(server, owner.token, ["contact-show"])
      const denied = await server.request("POST", `/api/contacts/${contactId}/messages`, { token: reader, body: { text: "hi" } })
      expect(denied.status).toBe(403)
      const foreign = await server.request("POST", `/api/contacts/${contactId}/messages`, { token: other.token, body: { text: "hi" } })
      expect(foreign.status).toBe(404)
    })
  })

  describe("marking read", () => {
    it("marks the contact's received messages read and sends the channel the latest one's read receipt", async () => {
      const contactId = await newContact("Nour")
      await received(contactId, 3)
      const latest = await received(contactId, 2)
      const reply = await server.request("POST", `/api/conversations/${contactId}/read`, { token: owner.token })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ data: { unread_count: 0 } })
      const listed = await server.request("GET", `/api/contacts/${contactId}/messages`, { token: owner.token })
      for (const m of listed.body.data) {
        expect(m.status).toBe("read")
        expect(m.read_at).toMatch(WIRE_TIME)
      }
      const receipts = (await readOutbox(server.sandboxOutbox)).filter((l) => l.read !== undefined)
      expect(receipts.map((l) => l.read)).toContain(latest.provider_message_id)
      // Again: nothing left to mark, no second receipt.
      await server.request("POST", `/api/conversations/${contactId}/read`, { token: owner.token })
      const again = (await readOutbox(server.sandboxOutbox)).filter((l) => l.read === latest.provider_message_id)
      expect(again).toHaveLength(1)
    })

    it("answers 404 for another account's contact and leaves its messages unread", async () => {
      const contactId = await newContact("Theirs")
      await received(contactId, 1)
      expect((await server.request("POST", `/api/conversations/${contactId}/read`, { token: other.token })).status).toBe(404)
      const listed = await server.request("GET", `/api/contacts/${contactId}/messages`, { token: owner.token })
      expect(listed.body.data[0].status).toBe("received")
    })
  })

  describe("attachments", () => {
    it("serves a stored file to the account's members with its type and name; 404 until stored, elsewhere, or past the list", async () => {
      const contactId = await newContact("Files")
      const plain = await received(contactId, 1, "the invoice")
      const image = { type: "image" as const, media_id: "m1", mime_type: "image/jpeg", sha256: null, filename: null, caption: null }
      const doc = { ...image, type: "document" as const, media_id: "m2", mime_type: "application/pdf", filename: "Facture «mai».pdf" }
      const message: Message = {
        ...plain,
        _id: hex24(),
        provider_message_id: `wamid.F${hex24()}`,
        type: "document",
        attachments: [{ ...image, size: null, state: "pending" }, { ...doc, size: 3, state: "stored" }]
      }
      await server.run(MessageRepository.use((repo) => repo.insert(message)))
      await server.run(MediaStore.use((store) => store.put(owner.account_id, mediaKey(message._id, 1), new Uint8Array([37, 80, 68]), "application/pdf")))

      const listed = await server.request("GET", `/api/contacts/${contactId}/messages`, { token: owner.token })
      const shown = listed.body.data.find((m: any) => m._id === message._id)
      expect(shown.attachments.map((a: any) => a.url)).toEqual([
        `/api/messages/${message._id}/attachments/0`,
        `/api/messages/${message._id}/attachments/1`
      ])
      const file = await fetch(`${server.url}${shown.attachments[1].url}`, { headers: { authorization: `Bearer ${owner.token}` } })
      expect(file.status).toBe(200)
      expect(file.headers.get("content-type")).toBe("application/pdf")
      expect(file.headers.get("x-content-type-options")).toBe("nosniff")
      expect(file.headers.get("content-disposition")).toBe(
        `attachment; filename="Facture _mai_.pdf"; filename*=UTF-8''Facture%20%C2%ABmai%C2%BB.pdf`
      )
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([37, 80, 68]))

      const get = (path: string, token = owner.token) => server.request("GET", path, { token })
      expect((await get(`/api/messages/${message._id}/attachments/0`)).status).toBe(404)
      expect((await get(`/api/messages/${message._id}/attachments/2`)).status).toBe(404)
      expect((await get(`/api/messages/${message._id}/attachments/x`)).status).toBe(404)
      expect((await get(`/api/messages/${message._id}/attachments/1`, other.token)).status).toBe(404)
      expect((await get(`/api/messages/${plain._id}/attachments/0`)).status).toBe(404)
      const none = await createToken(server, owner.token, ["deal-index"])
      expect((await get(`/api/messages/${message._id}/attachments/1`, none)).status).toBe(403)
      expect((await server.request("GET", `/api/messages/${message._id}/attachments/1`)).status).toBe(401)
    })
  })
})
