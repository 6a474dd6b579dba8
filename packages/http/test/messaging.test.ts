/**
 * Sending numbers, broadcasts and template sends over HTTP, on PGlite and PostgreSQL: the
 * message, broadcast and platform shapes, header media (at most 10 MB, PDF, JPEG, PNG or MP4),
 * the error bodies, and the sandbox and Cloud API providers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  authenticationTemplate,
  bootstrapOwnerAndOther,
  countRows,
  createBroadcast,
  createContact,
  createPlatform,
  createToken,
  readOutbox,
  sandboxPlatform,
  utilityTemplate
} from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

describe.each(DATABASES)("messaging over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let platformId: number
  let contactId: string

  beforeAll(async () => {
    server = await startTestServer(database)
    ;({ owner, other } = await bootstrapOwnerAndOther(server, "msg"))
    platformId = (await createPlatform(server, owner.token)).id
    contactId = await createContact(server, owner.token, { firstname: "Sara", whatsapp_number: "+966500000001" })
  })
  afterAll(async () => {
    await server?.close()
  })

  const count = (table: string, accountId = owner.account_id) => countRows(server, table, accountId)

  describe("sending numbers", () => {
    it("creates a sandbox number (201, Entity was created Successfully) and lists it", async () => {
      const reply = await server.request("POST", "/api/platforms", { token: owner.token, body: sandboxPlatform })
      expect(reply.status).toBe(201)
      expect(reply.body.message).toBe("Entity was created Successfully")
      expect(reply.body.data).toMatchObject({
        name: "Main number",
        display_phone_number: "+966 11 000 0000",
        provider: "sandbox",
        account_id: owner.account_id,
        phone_id: null,
        waba_id: null
      })
      expect(Number.isInteger(reply.body.data.id)).toBe(true)
      expect(reply.body.data.created_at).toMatch(WIRE_TIME)
      const listed = await server.request("GET", "/api/platforms", { token: owner.token })
      expect(listed.status).toBe(200)
      expect(listed.body.data.map((p: { id: number }) => p.id)).toContain(reply.body.data.id)
      const foreign = await server.request("GET", "/api/platforms", { token: other.token })
      expect(foreign.body.data).toEqual([])
    })

    it("keeps the access token write-only and stores it sealed", async () => {
      const token = "EAAG-secret-access-token-123"
      const reply = await server.request("POST", "/api/platforms", {
        token: owner.token,
        body: { name: "Cloud", display_phone_number: "+15550001111", provider: "whatsapp_cloud", phone_id: "1234567890", waba_id: "987", access_token: token }
      })
      expect(reply.status).toBe(201)
      expect(reply.text).not.toContain(token)
      expect(reply.body.data.access_token).toBeUndefined()
      const listed = await server.request("GET", "/api/platforms", { token: owner.token })
      expect(listed.text).not.toContain(token)
      const [row] = await server.query("SELECT sealed_access_token FROM platforms WHERE account_id = $1 AND id = $2", [
        owner.account_id,
        reply.body.data.id
      ])
      expect(row.sealed_access_token).toMatch(/^v1\./)
      expect(row.sealed_access_token).not.toContain(token)
    })

    it("validates the body (422 per key)", async () => {
      const reply = await server.request("POST", "/api/platforms", {
        token: owner.token,
        body: { display_phone_number: "abc", provider: "telegram" }
      })
      expect(reply.status).toBe(422)
      expect(reply.body.errors).toMatchObject({
        name: ["The name field is required."],
        display_phone_number: ["The display_phone_number field format is invalid."],
        provider: ["The selected provider is invalid."]
      })
      const cloud = await server.request("POST", "/api/platforms", {
        token: owner.token,
        body: { name: "c", display_phone_number: "+15550001111", provider: "whatsapp_cloud" }
      })
      expect(cloud.status).toBe(422)
      expect(Object.keys(cloud.body.errors)).toEqual(["phone_id", "access_token"])
    })

    it("needs broadcast-index to read and broadcast-manage to create", async () => {
      const reader = await createToken(server, owner.token, ["broadcast-index"])
      expect((await server.request("GET", "/api/platforms", { token: reader })).status).toBe(200)
      const denied = await server.request("POST", "/api/platforms", { token: reader, body: sandboxPlatform })
      expect(denied.status).toBe(403)
      const none = await createToken(server, owner.token, ["deal-index"])
      expect((await server.request("GET", "/api/platforms", { token: none })).status).toBe(403)
      expect((await server.request("GET", "/api/platforms")).status).toBe(401)
    })
  })

  describe("broadcasts", () => {
    it("creates an APPROVED broadcast with its template and platform embedded", async () => {
      const reply = await server.request("POST", "/api/broadcasts", {
        token: owner.token,
        body: { name: "Shipping", language: "en_US", platform_id: platformId, template: utilityTemplate() }
      })
      expect(reply.status).toBe(201)
      expect(reply.body.message).toBe("Entity was created Successfully")
      const b = reply.body.data
      expect(b).toMatchObject({
        name: "Shipping",
        language: "en_US",
        account_id: owner.account_id,
        platform_id: platformId,
        status: "APPROVED",
        reason: null,
        provider: "sandbox",
        template: {
          name: "order_update",
          category: "UTILITY",
          header: { format: "TEXT", text: "Your order", type: "HEADER" },
          body: { text: "Your order has shipped.", type: "BODY" },
          footer: { text: "Wasl", type: "FOOTER" },
          buttons: null
        },
        platform: { id: platformId, provider: "sandbox" }
      })
      expect(b.template_id).toBe(b.template.id)
      expect(typeof b.template_type).toBe("string")
      expect(typeof b.platform_type).toBe("string")
      const shown = await server.request("GET", `/api/broadcasts/${b.id}`, { token: owner.token })
      expect(shown.status).toBe(200)
      expect(shown.body.data).toEqual(b)
      const listed = await server.request("GET", "/api/broadcasts", { token: owner.token })
      expect(listed.body.data.map((x: { id: number }) => x.id)).toContain(b.id)
    })

    it("answers 404 for another account's broadcast and for a non-integer id", async () => {
      const b = await createBroadcast(server, owner.token, platformId, utilityTemplate({ name: "hidden" }))
      expect((await server.request("GET", `/api/broadcasts/${b.id}`, { token: other.token })).status).toBe(404)
      expect((await server.request("GET", "/api/broadcasts/abc", { token: owner.token })).status).toBe(404)
      expect((await server.request("GET", "/api/broadcasts/999999", { token: owner.token })).status).toBe(404)
    })

    it("validates the body, the template and that the platform is the account's", async () => {
      const reply = await server.request("POST", "/api/broadcasts", {
        token: other.token,
        body: {
          name: "x",
          language: "english",
          platform_id: platformId,
          template: { name: "Bad Name", category: "PROMO", code_expiration_minutes: 5 }
        }
      })
      expect(reply.status).toBe(422)
      expect(reply.body.errors).toMatchObject({
        language: ["The language field format is invalid."],
        "template.name": ["The template.name field format is invalid."],
        "template.category": ["The selected template.category is invalid."],
        "template.body": ["The template.body field is required."]
      })
      const foreign = await server.request("POST", "/api/broadcasts", {
        token: other.token,
        body: { name: "x", language: "en", platform_id: platformId, template: utilityTemplate() }
      })
      expect(foreign.status).toBe(422)
      expect(foreign.body.errors).toEqual({ platform_id: ["The selected platform_id is invalid."] })
      const auth = await server.request("POST", "/api/broadcasts", {
        token: owner.token,
        body: {
          name: "x",
          language: "en",
          platform_id: platformId,
          template: authenticationTemplate({ body: "no placeholder", code_expiration_minutes: 91 })
        }
      })
      expect(auth.status).toBe(422)
      expect(Object.keys(auth.body.errors).sort()).toEqual(["template.body", "template.code_expiration_minutes"])
    })
  })

  describe("send", () => {
    it("sends to a contact and answers the Message with broadcast, template and platform embedded", async () => {
      const b = await createBroadcast(server, owner.token, platformId, utilityTemplate({ name: "shipped" }))
      const before = (await readOutbox(server.sandboxOutbox)).length
      const reply = await server.request("POST", `/api/broadcasts/${b.id}/send`, {
        token: owner.token,
        body: { contact_id: contactId }
      })
      expect(reply.status).toBe(200)
      const m = reply.body.data
      expect(m._id).toMatch(/^[0-9a-f]{24}$/)
      expect(m).toMatchObject({
        status: "sent",
        broadcast_id: b.id,
        attachments: [],
        is_sent_by_the_business: true,
        receiver_third_party_id: "966500000001",
        sender_third_party_id: "966110000000",
        broadcast: { id: b.id, template: { name: "shipped" }, platform: { id: platformId } }
      })
      // The message travelled on the contact's channel entry for the sending number.
      const contact = await server.request("GET", `/api/contacts/${contactId}`, { token: owner.token })
      const channel = contact.body.data.channels.find((c: { platform_third_party_id: string }) =>
        c.platform_third_party_id === m.platform_third_party_id
      )
      expect(channel).toMatchObject({ contact_third_party_id: "966500000001" })
      expect(m.contact_channel_id).toBe(channel._id)
      expect(m.id).toMatch(/^wamid\./)
      expect(m.created_at).toMatch(WIRE_TIME)
      const lines = await readOutbox(server.sandboxOutbox)
      expect(lines).toHaveLength(before + 1)
      expect(lines.at(-1)).toMatchObject({ to: "966500000001", template: { name: "shipped", language: "en" }, outcome: "accepted" })
      const [row] = await server.query("SELECT provider_message_id FROM messages WHERE account_id = $1 AND id = $2", [
        owner.account_id,
        m._id
      ])
      expect(row.provider_message_id).toBe(m.id)
    })

    it("answers 422 on contact_id when the provider rejects the number, and stores nothing", async () => {
      const b = await createBroadcast(server, owner.token, platformId, utilityTemplate({ name: "rejected" }))
      const unreachable = await createContact(server, owner.token, { firstname: "No", whatsapp_number: "+999123456" })
      const messages = await count("messages")
      const reply = await server.request("POST", `/api/broadcasts/${b.id}/send`, {
        token: owner.token,
        body: { contact_id: unreachable }
      })
      expect(reply.status).toBe(422)
      expect(reply.body).toEqual({
        message: "The message could not be delivered to this recipient.",
        errors: { contact_id: ["The message could not be delivered to this recipient."] }
      })
      expect(await count("messages")).toBe(messages)
    })

    it("refuses authentication templates (403: only send-otp sends them)", async () => {
      const b = await createBroadcast(server, owner.token, platformId, authenticationTemplate({ name: "auth_via_send" }))
      const reply = await server.request("POST", `/api/broadcasts/${b.id}/send`, { token: owner.token, body: { contact_id: contactId } })
      expect(reply.status).toBe(403)
    })

    it("validates the recipient: required, of the account, with a number", async () => {
      const b = await createBroadcast(server, owner.token, platformId, utilityTemplate({ name: "recipients" }))
      const missing = await server.request("POST", `/api/broadcasts/${b.id}/send`, { token: owner.token, body: {} })
      expect(missing.status).toBe(422)
      expect(missing.body.errors).toEqual({ contact_id: ["The contact_id field is required."] })
      const foreignContact = await createContact(server, other.token, { firstname: "X", whatsapp_number: "+966500000002" })
      const foreign = await server.request("POST", `/api/broadcasts/${b.id}/send`, {
        token: owner.token,
        body: { contact_id: foreignContact }
      })
      expect(foreign.status).toBe(422)
      expect(foreign.body.errors).toEqual({ contact_id: ["The selected contact_id is invalid."] })
      const silent = await createContact(server, owner.token, { firstname: "Silent" })
      const noNumber = await server.request("POST", `/api/broadcasts/${b.id}/send`, {
        token: owner.token,
        body: { contact_id: silent }
      })
      expect(noNumber.status).toBe(422)
      expect(noNumber.body.errors).toEqual({ contact_id: ["The selected contact has no whatsapp_number or phone."] })
      const byPhone = await createContact(server, owner.token, { firstname: "Phone", phone: "+966500000003" })
      const phoned = await server.request("POST", `/api/broadcasts/${b.id}/send`, { token: owner.token, body: { contact_id: byPhone } })
      expect(phoned.status).toBe(200)
      expect(phoned.body.data.receiver_third_party_id).toBe("966500000003")
    })

    it("answers 404 for another account's broadcast, 403 without broadcast-send, 400 for malformed JSON", async () => {
      const b = await createBroadcast(server, owner.token, platformId, utilityTemplate({ name: "guarded" }))
      expect((await server.request("POST", `/api/broadcasts/${b.id}/send`, { token: other.token, body: { contact_id: contactId } })).status)
        .toBe(404)
      const reader = await createToken(server, owner.token, ["broadcast-index"])
      expect((await server.request("POST", `/api/broadcasts/${b.id}/send`, { token: reader, body: { contact_id: contactId } })).status)
        .toBe(403)
      const malformed = await server.request("POST", `/api/broadcasts/${b.id}/send`, { token: owner.token, raw: "{\"contact_id\": " })
      expect(malformed.status).toBe(400)
      expect(malformed.body).toEqual({ message: "Malformed JSON body." })
    })

    describe("offer-code components", () => {
      let offerId: number
      beforeAll(async () => {
        offerId = (await createBroadcast(server, owner.token, platformId, {
          name: "summer_offer",
          category: "MARKETING",
          body: "25% off everything.",
          buttons: [{ type: "QUICK_REPLY", text: "Stop" }, { type: "COPY_CODE", text: "Copy offer code" }]
        })).id
      })
      const send = (body: unknown) =>
        server.request("POST", `/api/broadcasts/${offerId}/send`, { token: owner.token, body: body as Record<string, unknown> })
      const component = (overrides: Record<string, unknown> = {}) => ({
        type: "button",
        sub_type: "copy_code",
        index: 1,
        parameters: [{ type: "payload", payload: "SUMMER25" }],
        ...overrides
      })

      it("requires components when the template has an offer code", async () => {
        const reply = await send({ contact_id: contactId })
        expect(reply.status).toBe(422)
        expect(reply.body.errors).toEqual({ components: ["The components field is required."] })
      })

      it("accepts only button / copy_code / integer index of the offer button / payload parameters", async () => {
        const reply = await send({
          contact_id: contactId,
          components: [
            component({ type: "header", sub_type: "url", index: "1", parameters: [{ type: "text" }] }),
            component({ index: 0 }),
            component({ parameters: [{ type: "payload", payload: "X".repeat(16) }] })
          ]
        })
        expect(reply.status).toBe(422)
        expect(reply.body.errors).toEqual({
          "components.0.type": ["The selected components.0.type is invalid."],
          "components.0.sub_type": ["The selected components.0.sub_type is invalid."],
          "components.0.index": ["The components.0.index field must be an integer."],
          "components.0.parameters.0.type": ["The selected components.0.parameters.0.type is invalid."],
          "components.0.parameters.0.payload": ["The components.0.parameters.0.payload field is required."],
          "components.1.index": ["The selected components.1.index is invalid."],
          "components.2.parameters.0.payload": ["The components.2.parameters.0.payload field must not be greater than 15 characters."]
        })
        const notArray = await send({ contact_id: contactId, components: "SUMMER25" })
        expect(notArray.body.errors).toEqual({ components: ["The components field must be an array."] })
      })

      it("sends the offer code to the provider", async () => {
        const reply = await send({ contact_id: contactId, components: [component()] })
        expect(reply.status).toBe(200)
        expect((await readOutbox(server.sandboxOutbox)).at(-1)).toMatchObject({ offer_code: { index: 1, code: "SUMMER25" } })
      })

      it("refuses components for a template without an offer code", async () => {
        const b = await createBroadcast(server, owner.token, platformId, utilityTemplate({ name: "no_offer" }))
        const reply = await server.request("POST", `/api/broadcasts/${b.id}/send`, {
          token: owner.token,
          body: { contact_id: contactId, components: [component()] }
        })
        expect(reply.status).toBe(422)
        expect(Object.keys(reply.body.errors)).toEqual(["components"])
      })
    })

    describe("header media (multipart, header[file] ≤ 10 MB of the allowed types)", () => {
      let mediaId: number
      beforeAll(async () => {
        mediaId = (await createBroadcast(server, owner.token, platformId, {
          name: "invoice_ready",
          category: "UTILITY",
          header: { format: "DOCUMENT" },
          body: "Your invoice is attached."
        })).id
      })

      const multipart = async (file: Blob | undefined, filename = "invoice.pdf", extra: Record<string, string> = {}) => {
        const form = new FormData()
        form.set("contact_id", contactId)
        for (const [k, v] of Object.entries(extra)) form.set(k, v)
        if (file !== undefined) form.set("header[file]", file, filename)
        const response = await fetch(`${server.url}/api/broadcasts/${mediaId}/send`, {
          method: "POST",
          headers: { authorization: `Bearer ${owner.token}`, accept: "application/json" },
          body: form
        })
        const text = await response.text()
        return { status: response.status, body: text === "" ? undefined : JSON.parse(text), headers: response.headers }
      }

      it("requires header.file for a media header (JSON without it is a 422)", async () => {
        const reply = await server.request("POST", `/api/broadcasts/${mediaId}/send`, { token: owner.token, body: { contact_id: contactId } })
        expect(reply.status).toBe(422)
        expect(reply.body.errors).toEqual({ "header.file": ["The header.file field is required."] })
      })

      it("sends an allowed file as multipart/form-data", async () => {
        const pdf = new Blob([new Uint8Array(2048).fill(37)], { type: "application/pdf" })
        const reply = await multipart(pdf)
        expect(reply.status).toBe(200)
        expect(reply.body.data.broadcast_id).toBe(mediaId)
        expect((await readOutbox(server.sandboxOutbox)).at(-1)).toMatchObject({
          header_media: { format: "DOCUMENT", filename: "invoice.pdf", content_type: "application/pdf", size: 2048 }
        })
        for (const type of ["image/jpeg", "image/jpg", "image/png", "video/mp4"]) {
          expect((await multipart(new Blob([new Uint8Array(10)], { type }), "f")).status).toBe(200)
        }
      })

      it("refuses other types and files over 10 MB (422), bodies over the multipart limit (413)", async () => {
        const text = await multipart(new Blob(["hello"], { type: "text/plain" }), "a.txt")
        expect(text.status).toBe(422)
        expect(text.body.errors).toEqual({ "header.file": ["The header.file field must be a file of type: pdf, jpeg, jpg, png, mp4."] })
        const big = await multipart(new Blob([new Uint8Array(10 * 1024 * 1024 + 1)], { type: "application/pdf" }))
        expect(big.status).toBe(422)
        expect(big.body.errors).toEqual({ "header.file": ["The header.file field must not be greater than 10240 kilobytes."] })
        const exact = await multipart(new Blob([new Uint8Array(10 * 1024 * 1024)], { type: "application/pdf" }))
        expect(exact.status).toBe(200)
        const huge = await multipart(new Blob([new Uint8Array(11 * 1024 * 1024)], { type: "application/pdf" }))
        expect(huge.status).toBe(413)
      })

      it("refuses a NUL in a multipart field (422 on the field), as in a JSON body", async () => {
        const pdf = new Blob([new Uint8Array(16).fill(37)], { type: "application/pdf" })
        const reply = await multipart(pdf, "invoice.pdf", { "components[0][type]": "body", "components[0][text]": "a\u0000b" })
        expect(reply.status).toBe(422)
        const message = "The components.0.text field must be a valid UTF-8 string."
        expect(reply.body).toEqual({ message, errors: { "components.0.text": [message] } })
      })

      it("does not take multipart anywhere else (415)", async () => {
        const form = new FormData()
        form.set("name", "x")
        const response = await fetch(`${server.url}/api/platforms`, {
          method: "POST",
          headers: { authorization: `Bearer ${owner.token}` },
          body: form
        })
        expect(response.status).toBe(415)
      })
    })
  })
})
