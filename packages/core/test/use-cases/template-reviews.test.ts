/**
 * Meta's review of the broadcasts' templates on the all-memory ports (`ReviewedTemplates` plays
 * Meta's reviewer): a whatsapp_cloud broadcast is submitted and PENDING with Meta's id, a sandbox
 * one APPROVED at once, a refusal stores nothing; the review webhook moves status, reason and
 * category once, in the template's own account only, and tells the members holding
 * broadcast-manage; only an APPROVED broadcast is sent; the sync heals a missed webhook.
 */
import { assert, describe, it } from "@effect/vitest"
import { ReviewedTemplates, SentMessages } from "@wasl/adapters/memory"
import { DateTime, Effect } from "effect"
import { type Principal } from "../../src/Auth.ts"
import { forbidden } from "../../src/errors.ts"
import {
  createBroadcast,
  createPlatform,
  getBroadcast,
  HEADER_HANDLE_REQUIRED,
  listBroadcasts,
  NOT_APPROVED,
  NO_WABA_ID,
  sendTemplate,
  syncBroadcasts,
  syncTemplateReviews
} from "../../src/Messaging.ts"
import { processWhatsAppWebhook } from "../../src/WhatsApp.ts"
import { addMember, setup } from "../support/fixtures.ts"
import { contactAt, MessagingTestPorts } from "../support/messaging.ts"
import { memoryState, setPreferences } from "../support/store.ts"

const WABA_ID = "102290129340398"

const cloudNumber = (principal: Principal, wabaId: string | null = WABA_ID) =>
  createPlatform(principal, {
    name: "Cloud",
    display_phone_number: "+966110000001",
    provider: "whatsapp_cloud",
    phone_id: "1234567890",
    ...(wabaId === null ? {} : { waba_id: wabaId }),
    access_token: "EAAB-token"
  })

const shipping = (platformId: number, name = "order_update") => ({
  name: "Shipping",
  language: "en_US",
  platform_id: platformId,
  template: {
    name,
    category: "UTILITY",
    header: { format: "TEXT", text: "Order {{1}}" },
    body: "Hello {{1}}, your order {{2}} has shipped.",
    examples: { body: ["Sara", "A-1001"], header: ["A-1001"] }
  }
})

/** A callback of Meta's review fields, for the WhatsApp Business Account `wabaId`. */
const reviewBody = (wabaId: string, field: string, value: Record<string, unknown>) =>
  JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: wabaId, time: 1751247548, changes: [{ field, value }] }] })

const statusUpdate = (templateId: string, event: string, reason = "NONE", wabaId = WABA_ID) =>
  reviewBody(wabaId, "message_template_status_update", {
    event,
    message_template_id: Number(templateId),
    message_template_name: "order_update",
    message_template_language: "en_US",
    reason,
    message_template_category: "UTILITY"
  })

const process = (body: string) => processWhatsAppWebhook(body, DateTime.makeUnsafe(Date.UTC(2026, 10, 21, 18)))

const notificationsOf = (type: string) => Effect.map(memoryState, (state) => state.notifications.filter((n) => n.type === type))

describe("Meta's template review", () => {
  it.effect("submits a whatsapp_cloud broadcast's template with its samples; it is PENDING under Meta's id, and not sent", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* cloudNumber(principal)
      const broadcast = yield* createBroadcast(principal, shipping(platform.id))
      const [submitted] = yield* ReviewedTemplates.use((meta) => meta.all)
      assert.strictEqual(submitted!.wabaId, WABA_ID)
      assert.deepStrictEqual(submitted!.submission.examples, { body: ["Sara", "A-1001"], header: ["A-1001"], headerHandle: null })
      assert.strictEqual(broadcast.status, "PENDING")
      assert.strictEqual(broadcast.reason, null)
      assert.strictEqual(broadcast.template.external_id, submitted!.externalId)

      const contactId = yield* contactAt(account_id, "+966500000001")
      const refused = yield* Effect.flip(sendTemplate(principal, broadcast.id, { contact_id: contactId }, undefined))
      assert.deepStrictEqual(refused, forbidden(NOT_APPROVED))
      assert.deepStrictEqual(yield* SentMessages.use((sent) => sent.all), [])
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("approves a sandbox broadcast at once, and refuses a whatsapp_cloud number without a waba_id", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const sandbox = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
      const approved = yield* createBroadcast(principal, shipping(sandbox.id))
      assert.strictEqual(approved.status, "APPROVED")
      assert.strictEqual(approved.template.external_id, null)
      const noWaba = yield* cloudNumber(principal, null)
      const refused = yield* Effect.flip(createBroadcast(principal, shipping(noWaba.id, "other_name")))
      assert.deepStrictEqual(refused._tag === "ValidationFailed" && refused.errors, { platform_id: [NO_WABA_ID] })
      // A media header is reviewed with a sample file uploaded to Meta: its handle is required.
      const cloud = yield* cloudNumber(principal)
      const photo = { ...shipping(cloud.id, "photo"), template: { name: "photo", category: "MARKETING", header: { format: "IMAGE" }, body: "New in." } }
      const noHandle = yield* Effect.flip(createBroadcast(principal, photo))
      assert.deepStrictEqual(noHandle._tag === "ValidationFailed" && noHandle.errors, {
        "template.examples.header_handle": [HEADER_HANDLE_REQUIRED]
      })
      assert.deepStrictEqual(yield* ReviewedTemplates.use((meta) => meta.all), [])
      const withHandle = yield* createBroadcast(principal, { ...photo, template: { ...photo.template, examples: { header_handle: "4::aW1h" } } })
      assert.strictEqual(withHandle.status, "PENDING")
      assert.strictEqual((yield* ReviewedTemplates.use((meta) => meta.all))[0]!.submission.examples.headerHandle, "4::aW1h")
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("answers Meta's refusal as a 422 on template with Meta's explanation, and stores nothing", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const platform = yield* cloudNumber(principal)
      yield* ReviewedTemplates.use((meta) => meta.refuseNext("Content in this language already exists."))
      const refused = yield* Effect.flip(createBroadcast(principal, shipping(platform.id)))
      assert.deepStrictEqual(refused._tag === "ValidationFailed" && refused.errors, {
        template: ["WhatsApp refused the template: Content in this language already exists."]
      })
      assert.deepStrictEqual(yield* listBroadcasts(principal), [])
      yield* ReviewedTemplates.use((meta) => meta.setUnavailable(true))
      const down = yield* Effect.flip(createBroadcast(principal, shipping(platform.id)))
      assert.strictEqual(down._tag, "ServiceUnavailable")
      assert.deepStrictEqual(yield* listBroadcasts(principal), [])
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("moves status and reason by Meta's webhook once, telling the members holding broadcast-manage on their channels", () =>
    Effect.gen(function*() {
      const { account_id, principal, user_id } = yield* setup()
      const manager = yield* addMember(account_id, "manager@example.com", ["broadcast-manage"])
      yield* addMember(account_id, "sender@example.com", ["broadcast-send", "broadcast-index"])
      const quiet = yield* addMember(account_id, "quiet@example.com", ["broadcast-manage"])
      yield* setPreferences(account_id, quiet.id, [
        { name: "WhatsappTemplateStatusChanged", stored: false, popup: false, browser: false, email: false }
      ])
      const platform = yield* cloudNumber(principal)
      const broadcast = yield* createBroadcast(principal, shipping(platform.id))
      const externalId = broadcast.template.external_id!

      const rejected = yield* process(statusUpdate(externalId, "REJECTED", "INVALID_FORMAT"))
      assert.strictEqual(rejected.templates, 1)
      assert.deepStrictEqual(
        [(yield* getBroadcast(principal, broadcast.id)).status, (yield* getBroadcast(principal, broadcast.id)).reason],
        ["REJECTED", "INVALID_FORMAT"]
      )
      const told = yield* notificationsOf("WhatsappTemplateStatusChanged")
      assert.sameMembers(told.map((n) => n.userId), [user_id, manager.id])
      assert.deepStrictEqual(told[0]!.data, {
        broadcast_id: broadcast.id,
        name: "Shipping",
        template_name: "order_update",
        language: "en_US",
        status: "REJECTED",
        previous_status: "PENDING",
        reason: "INVALID_FORMAT"
      })
      assert.strictEqual(told[0]!.email!.subject, "WhatsApp template order_update is REJECTED")

      // Meta retries: nothing changes, nobody is told again.
      yield* process(statusUpdate(externalId, "REJECTED", "INVALID_FORMAT"))
      assert.strictEqual((yield* notificationsOf("WhatsappTemplateStatusChanged")).length, 2)

      yield* process(statusUpdate(externalId, "APPROVED"))
      const approved = yield* getBroadcast(principal, broadcast.id)
      assert.deepStrictEqual([approved.status, approved.reason], ["APPROVED", null])
      yield* process(statusUpdate(externalId, "PAUSED", "NONE"))
      assert.strictEqual((yield* getBroadcast(principal, broadcast.id)).status, "PAUSED")
      yield* process(statusUpdate(externalId, "REINSTATED"))
      assert.strictEqual((yield* getBroadcast(principal, broadcast.id)).status, "APPROVED")
      assert.strictEqual((yield* notificationsOf("WhatsappTemplateStatusChanged")).length, 8)

      // An event that does not move a broadcast is ignored.
      const archived = yield* process(statusUpdate(externalId, "ARCHIVED"))
      assert.deepStrictEqual([archived.templates, archived.ignored], [0, 1])
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("changes the category by Meta's webhook, telling the managers through WhatsappTemplateCategoryChanged", () =>
    Effect.gen(function*() {
      const { account_id, principal, user_id } = yield* setup()
      yield* addMember(account_id, "reader@example.com", ["broadcast-index"])
      const platform = yield* cloudNumber(principal)
      const broadcast = yield* createBroadcast(principal, shipping(platform.id))
      const body = reviewBody(WABA_ID, "template_category_update", {
        message_template_id: Number(broadcast.template.external_id),
        message_template_name: "order_update",
        message_template_language: "en_US",
        previous_category: "UTILITY",
        new_category: "MARKETING"
      })
      const summary = yield* process(body)
      assert.strictEqual(summary.templates, 1)
      assert.strictEqual((yield* getBroadcast(principal, broadcast.id)).template.category, "MARKETING")
      const told = yield* notificationsOf("WhatsappTemplateCategoryChanged")
      assert.deepStrictEqual(told.map((n) => n.userId), [user_id])
      assert.include(told[0]!.data, { category: "MARKETING", previous_category: "UTILITY" })
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("changes nothing for a template of another WhatsApp Business Account or one nobody has", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const platform = yield* cloudNumber(principal)
      const broadcast = yield* createBroadcast(principal, shipping(platform.id))
      const elsewhere = yield* process(statusUpdate(broadcast.template.external_id!, "APPROVED", "NONE", "999999999"))
      const nobody = yield* process(statusUpdate("123456", "APPROVED"))
      assert.deepStrictEqual([elsewhere.unknownTemplates, nobody.unknownTemplates], [1, 1])
      assert.strictEqual((yield* getBroadcast(principal, broadcast.id)).status, "PENDING")
      assert.deepStrictEqual(yield* notificationsOf("WhatsappTemplateStatusChanged"), [])
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("heals a missed webhook by the sync, which reads the reviews again from Meta", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* cloudNumber(principal)
      const broadcast = yield* createBroadcast(principal, shipping(platform.id))
      const externalId = broadcast.template.external_id!
      yield* ReviewedTemplates.use((meta) => meta.review(externalId, "APPROVED"))
      const [synced] = yield* syncBroadcasts(principal)
      assert.strictEqual(synced!.status, "APPROVED")
      assert.strictEqual((yield* notificationsOf("WhatsappTemplateStatusChanged")).length, 1)
      // Synced again: nothing changed, nobody is told again.
      assert.strictEqual(yield* syncTemplateReviews(account_id), 0)
      yield* ReviewedTemplates.use((meta) => meta.review(externalId, "REJECTED", "PROMOTIONAL"))
      yield* ReviewedTemplates.use((meta) => meta.recategorize(externalId, "MARKETING"))
      assert.strictEqual(yield* syncTemplateReviews(account_id), 1)
      const after = yield* getBroadcast(principal, broadcast.id)
      assert.deepStrictEqual([after.status, after.reason, after.template.category], ["REJECTED", "PROMOTIONAL", "MARKETING"])
      assert.strictEqual((yield* notificationsOf("WhatsappTemplateCategoryChanged")).length, 1)
      yield* ReviewedTemplates.use((meta) => meta.setUnavailable(true))
      assert.strictEqual((yield* Effect.flip(syncBroadcasts(principal)))._tag, "ServiceUnavailable")
    }).pipe(Effect.provide(MessagingTestPorts())))
})

describe("a template's variables", () => {
  it.effect("refuses at creation variables not numbered from 1, or more than one in the header", () =>
    Effect.gen(function*() {
      const { principal } = yield* setup()
      const sandbox = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
      const body = (text: string, header?: string) => ({
        ...shipping(sandbox.id),
        template: { name: "t", category: "MARKETING", body: text, ...(header === undefined ? {} : { header: { format: "TEXT", text: header } }) }
      })
      const errorsOf = (input: unknown) =>
        Effect.map(Effect.flip(createBroadcast(principal, input)), (e) => (e._tag === "ValidationFailed" ? e.errors : {}))
      assert.deepStrictEqual(yield* errorsOf(body("Hi {{2}}")), {
        "template.body": ["The template.body field must number its variables {{1}} to {{1}} with none missing."]
      })
      assert.deepStrictEqual(Object.keys(yield* errorsOf(body("Hi {{1}} {{3}}"))), ["template.body"])
      assert.deepStrictEqual(yield* errorsOf(body("Hi {{1}}", "{{1}} and {{2}}")), {
        "template.header.text": ["The template.header.text field may hold one variable, {{1}}."]
      })
      assert.deepStrictEqual(Object.keys(yield* errorsOf({ ...body("Hi {{1}}"), template: { ...body("Hi {{1}}").template, examples: { body: [] } } })), [
        "template.examples.body"
      ])
      const ok = yield* createBroadcast(principal, body("Hi {{1}}, {{2}} and {{1}} again", "Order {{1}}"))
      assert.strictEqual(ok.status, "APPROVED")
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("fills them on send from texts and the contact's properties; the message shows the filled text, the provider gets the values", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const sandbox = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
      const broadcast = yield* createBroadcast(principal, shipping(sandbox.id))
      const contactId = yield* contactAt(account_id, "+966500000001")
      const send = (parameters: unknown) =>
        sendTemplate(principal, broadcast.id, { contact_id: contactId, parameters }, undefined)
      const errorsOf = (parameters: unknown) =>
        Effect.map(Effect.flip(send(parameters)), (e) => (e._tag === "ValidationFailed" ? e.errors : {}))

      assert.deepStrictEqual(yield* errorsOf({ body: ["Sara"] }), {
        "parameters.body.1": ["The parameters.body.1 field is required."],
        "parameters.header.0": ["The parameters.header.0 field is required."]
      })
      assert.deepStrictEqual(yield* errorsOf({ body: ["Sara", "A-1", "extra"], header: ["A-1"] }), {
        "parameters.body.2": ["The parameters.body.2 field is prohibited: the template's body has 2 variables."]
      })
      assert.deepStrictEqual(Object.keys(yield* errorsOf({ body: [{ property: "no_such_thing" }, "A-1"], header: ["A-1"] })), [
        "parameters.body.0.property"
      ])
      assert.deepStrictEqual(yield* errorsOf({ body: [{ property: "lastname" }, "A-1"], header: ["A-1"] }), {
        "parameters.body.0.property": ["The contact has no value for lastname."]
      })
      assert.deepStrictEqual(yield* SentMessages.use((sent) => sent.all), [])

      const { message } = yield* send({ body: [{ property: "whatsapp_number" }, "A-1001"], header: ["A-1001"] })
      assert.strictEqual(message.body, "Hello +966500000001, your order A-1001 has shipped.")
      const [sent] = yield* SentMessages.use((all) => all.all)
      assert.deepStrictEqual(sent!.request.parameters, { body: ["+966500000001", "A-1001"], header: ["A-1001"] })
    }).pipe(Effect.provide(MessagingTestPorts())))
})
