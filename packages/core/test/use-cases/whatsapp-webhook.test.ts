/**
 * Processing WhatsApp webhook bodies on the all-memory ports: every message type of Meta's
 * reference becomes an inbound message once per wamid, on the contact found or made and its
 * channel entry; unknown numbers are dropped; each account sees only its own numbers' messages;
 * the contact's received times move first/last; statuses only move forward and wait for a send
 * not stored yet; IncomingMessage notifications reach the members who may see contacts, with one
 * mail per contact per 15 minutes; the message events carry the message's REST shape.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { type Principal } from "../../src/Auth.ts"
import {
  createBroadcast,
  createPlatform,
  type Message,
  MessageRepository,
  MessageStatusHoldRepository,
  type Platform,
  recordSentMessage,
  sendTemplate,
  storeMessage
} from "../../src/Messaging.ts"
import { createRecord, RecordRepository, updateRecord } from "../../src/Records.ts"
import { processWhatsAppWebhook } from "../../src/WhatsApp.ts"
import { addMember, NOW, OWNER, setup } from "../support/fixtures.ts"
import { contactAt, MessagingTestPorts } from "../support/messaging.ts"
import { metaBody, metaMessage, metaStatus, metaText } from "../support/meta-webhooks.ts"
import { memoryState, setMembershipStatus } from "../support/store.ts"

const PHONE_ID = "106540352242922"
const SENDER = "966500000001"
const T = Math.floor(NOW / 1000) - 600
const RECEIVED = DateTime.makeUnsafe(NOW)
const at = (seconds: number) => DateTime.makeUnsafe(seconds * 1000)

const cloudNumber = (principal: Principal, phoneId = PHONE_ID) =>
  createPlatform(principal, {
    name: "Cloud",
    display_phone_number: "+1 555 078 3881",
    provider: "whatsapp_cloud",
    phone_id: phoneId,
    access_token: "EAAB-token"
  })

const process = (body: string) => processWhatsAppWebhook(body, RECEIVED)

const messagesOf = (accountId: number) =>
  Effect.map(memoryState, (state) => [...state.messaging.messages.values()].filter((m) => m.account_id === accountId))

const inboundOf = (accountId: number, wamid: string) =>
  Effect.map(MessageRepository.use((repo) => repo.findByProviderId(accountId, wamid)), Option.getOrThrow)

const contactValues = (accountId: number, id: string) =>
  RecordRepository.use((repo) => repo.get({ accountId, kind: "contact", id, custom: [] })).pipe(
    Effect.map((found) => Option.getOrThrow(found))
  )

const eventsNamed = (name: string) =>
  Effect.map(memoryState, (state) => state.outbox.filter((e) => e.name === name))

const text = (wamid: string, body = "Hello", timestamp = T, from = SENDER) => metaText(from, wamid, timestamp, body)

describe("received messages", () => {
  it.effect("stores a text from a new sender on a new contact (incoming, profile name) and its channel entry", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* cloudNumber(principal)
      const summary = yield* process(metaBody(PHONE_ID, {
        contacts: [{ waId: SENDER, name: "Sara Ali" }],
        messages: [{ ...text("wamid.HBgLMTIz"), context: { from: "15550783881", id: "wamid.replied" } }]
      }))
      assert.deepStrictEqual(summary, { messages: 1, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 0 })
      const message = yield* inboundOf(account_id, "wamid.HBgLMTIz")
      const contact = yield* contactValues(account_id, message.contact_id)
      assert.deepInclude(contact.record.values, {
        firstname: "Sara Ali",
        whatsapp_number: `+${SENDER}`,
        original_source: "whatsapp",
        original_source_drill_down_1: "incoming"
      })
      const channels = contact.derived.channels!
      assert.strictEqual(channels.length, 1)
      assert.deepInclude(channels[0]!, { platform_third_party_id: PHONE_ID, contact_third_party_id: SENDER })
      assert.deepStrictEqual(message, {
        _id: message._id,
        account_id,
        provider_message_id: "wamid.HBgLMTIz",
        contact_id: contact.record._id,
        contact_channel_id: channels[0]!._id,
        broadcast_id: null,
        platform_id: platform.id,
        platform_third_party_id: PHONE_ID,
        sender_third_party_id: SENDER,
        receiver_third_party_id: "15550783881",
        direction: "inbound",
        type: "text",
        status: "received",
        body: "Hello",
        content: null,
        context_id: "wamid.replied",
        attachments: [],
        error: null,
        sent_at: null,
        delivered_at: null,
        read_at: null,
        failed_at: null,
        created_at: at(T),
        updated_at: RECEIVED
      } satisfies Message)
      assert.strictEqual((yield* eventsNamed("contact-created")).length, 1)
      const [received] = yield* eventsNamed("message-received")
      assert.deepInclude(received!.payload as object, {
        _id: message._id,
        id: "wamid.HBgLMTIz",
        contact_channel_id: channels[0]!._id,
        is_sent_by_the_business: false,
        status: "received"
      })
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("takes every message type of Meta's reference, with its text, content, context and media", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* cloudNumber(principal)
      const media = (type: string, extra: Record<string, unknown> = {}) =>
        metaMessage(SENDER, `wamid.${type}`, T, type, {
          [type]: { mime_type: `${type}/x`, sha256: `sha-${type}`, id: `media-${type}`, ...extra }
        })
      const cases: ReadonlyArray<readonly [unknown, Partial<Message>]> = [
        [media("image", { caption: "the receipt" }), {
          type: "image",
          body: "the receipt",
          attachments: [{
            type: "image", media_id: "media-image", mime_type: "image/x", sha256: "sha-image", filename: null,
            caption: "the receipt", size: null, state: "pending"
          }]
        }],
        [media("audio", { voice: true }), { type: "audio", body: "" }],
        [media("video"), { type: "video", body: "" }],
        [media("document", { filename: "invoice.pdf", caption: "Invoice" }), {
          type: "document",
          body: "Invoice",
          attachments: [{
            type: "document", media_id: "media-document", mime_type: "document/x", sha256: "sha-document",
            filename: "invoice.pdf", caption: "Invoice", size: null, state: "pending"
          }]
        }],
        [media("sticker", { animated: false }), { type: "sticker", body: "" }],
        [metaMessage(SENDER, "wamid.location", T, "location", {
          location: { latitude: 24.7136, longitude: 46.6753, name: "Office", address: "King Fahd Rd, Riyadh" }
        }), {
          type: "location",
          body: "Office",
          content: { latitude: 24.7136, longitude: 46.6753, name: "Office", address: "King Fahd Rd, Riyadh" }
        }],
        [metaMessage(SENDER, "wamid.contacts", T, "contacts", {
          contacts: [{ name: { formatted_name: "Omar Haddad", first_name: "Omar" }, phones: [{ phone: "+966 50 000 0009", wa_id: "966500000009", type: "CELL" }] }]
        }), {
          type: "contacts",
          body: "Omar Haddad",
          content: {
            contacts: [{ name: { formatted_name: "Omar Haddad", first_name: "Omar" }, phones: [{ phone: "+966 50 000 0009", wa_id: "966500000009", type: "CELL" }] }]
          }
        }],
        [metaMessage(SENDER, "wamid.button_reply", T, "interactive", {
          context: { from: "15550783881", id: "wamid.question" },
          interactive: { type: "button_reply", button_reply: { id: "yes", title: "Yes, please" } }
        }), {
          type: "interactive",
          body: "Yes, please",
          context_id: "wamid.question",
          content: { type: "button_reply", id: "yes", title: "Yes, please", description: null }
        }],
        [metaMessage(SENDER, "wamid.list_reply", T, "interactive", {
          interactive: { type: "list_reply", list_reply: { id: "plan-2", title: "Business", description: "For teams" } }
        }), {
          type: "interactive",
          body: "Business",
          content: { type: "list_reply", id: "plan-2", title: "Business", description: "For teams" }
        }],
        [metaMessage(SENDER, "wamid.button", T, "button", {
          context: { from: "15550783881", id: "wamid.template" },
          button: { payload: "STOP", text: "Stop promotions" }
        }), {
          type: "button",
          body: "Stop promotions",
          context_id: "wamid.template",
          content: { payload: "STOP", text: "Stop promotions" }
        }],
        [metaMessage(SENDER, "wamid.reaction", T, "reaction", { reaction: { message_id: "wamid.sent", emoji: "👍" } }), {
          type: "reaction",
          body: "👍",
          context_id: "wamid.sent",
          content: null
        }],
        [metaMessage(SENDER, "wamid.unsupported", T, "unsupported", {
          errors: [{ code: 131051, title: "Message type unknown", message: "Message type unknown", error_data: { details: "Message type is currently not supported." } }]
        }), {
          type: "unsupported",
          body: "",
          content: { error: { code: 131051, title: "Message type unknown", details: "Message type is currently not supported." } }
        }],
        [metaMessage(SENDER, "wamid.poll", T, "poll_creation", { poll_creation: {} }), { type: "unsupported", body: "" }]
      ]
      const summary = yield* process(metaBody(PHONE_ID, { contacts: [{ waId: SENDER }], messages: cases.map(([m]) => m) }))
      assert.deepStrictEqual(summary, { messages: cases.length, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 0 })
      for (const [m, expected] of cases) {
        const stored = yield* inboundOf(account_id, (m as { id: string }).id)
        const { type, body, content, context_id, attachments } = stored
        assert.deepStrictEqual(
          { type, body, content, context_id, attachments },
          { content: null, context_id: null, attachments: type === expected.type && stored.attachments.length > 0 ? attachments : [], ...expected } as never,
          (m as { id: string }).id
        )
        if (["image", "audio", "video", "document", "sticker"].includes(type)) {
          assert.deepInclude(stored.attachments[0]!, { type: type as never, media_id: `media-${type}`, state: "pending", size: null })
        }
      }
      // One contact for all of them, on one channel entry.
      assert.strictEqual(new Set((yield* messagesOf(account_id)).map((m) => m.contact_channel_id)).size, 1)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("stores a message Meta delivers twice once, and tells about it once", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* cloudNumber(principal)
      const body = metaBody(PHONE_ID, { contacts: [{ waId: SENDER, name: "Sara" }], messages: [text("wamid.twice")] })
      yield* process(body)
      const before = yield* memoryState
      assert.deepStrictEqual(yield* process(body), { messages: 1, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 0 })
      const after = yield* memoryState
      assert.strictEqual((yield* messagesOf(account_id)).length, 1)
      assert.strictEqual(after.outbox.length, before.outbox.length)
      assert.strictEqual(after.notifications.length, before.notifications.length)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("finds the account's contact by its whatsapp_number digits rather than making one", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* cloudNumber(principal)
      const known = yield* contactAt(account_id, `+${SENDER}`)
      yield* process(metaBody(PHONE_ID, { contacts: [{ waId: SENDER, name: "Someone else" }], messages: [text("wamid.known")] }))
      assert.strictEqual((yield* inboundOf(account_id, "wamid.known")).contact_id, known)
      assert.strictEqual((yield* eventsNamed("contact-created")).length, 0)
      assert.isUndefined((yield* contactValues(account_id, known)).record.values.firstname)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("drops a change of a number no account has, or that two accounts registered, and ignores what is not Meta's", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* cloudNumber(principal)
      const other = yield* setup({ ...OWNER, email: "other.owner@example.com" })
      yield* cloudNumber(other.principal, "200000000000001")
      yield* cloudNumber(principal, "200000000000001")
      assert.deepStrictEqual(
        yield* process(metaBody("999999999999999", { messages: [text("wamid.nobody")], statuses: [metaStatus("wamid.x", "read", T, SENDER)] })),
        { messages: 0, statuses: 0, unknownNumbers: 1, templates: 0, unknownTemplates: 0, ignored: 0 }
      )
      assert.deepStrictEqual(
        yield* process(metaBody("200000000000001", { messages: [text("wamid.ambiguous")] })),
        { messages: 0, statuses: 0, unknownNumbers: 1, templates: 0, unknownTemplates: 0, ignored: 0 }
      )
      assert.deepStrictEqual(yield* process("not json"), { messages: 0, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 1 })
      assert.deepStrictEqual(yield* process(JSON.stringify({ object: "page" })), { messages: 0, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 1 })
      assert.deepStrictEqual(
        yield* process(JSON.stringify({ entry: [{ changes: [{ field: "account_update", value: {} }] }] })),
        { messages: 0, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 1 }
      )
      // A malformed message is left out on its own; the rest of the change is taken.
      assert.deepStrictEqual(
        yield* process(metaBody(PHONE_ID, { messages: [{ id: "wamid.broken" }, text("wamid.fine")] })),
        { messages: 1, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 1 }
      )
      assert.deepStrictEqual((yield* messagesOf(account_id)).map((m) => m.provider_message_id), ["wamid.fine"])
      assert.deepStrictEqual(yield* messagesOf(other.account_id), [])
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("keeps each account to its own number: one sender writing to two accounts' numbers makes two contacts", () =>
    Effect.gen(function*() {
      const first = yield* setup()
      yield* cloudNumber(first.principal, "300000000000001")
      const second = yield* setup({ ...OWNER, email: "other.owner@example.com" })
      yield* createPlatform(second.principal, { name: "Sandbox", display_phone_number: "+966 11 000 0042" })
      yield* process(metaBody("300000000000001", { contacts: [{ waId: SENDER, name: "Sara" }], messages: [text("wamid.same")] }))
      // A sandbox number has no phone_id: it is named by its digits.
      yield* process(metaBody("966110000042", { contacts: [{ waId: SENDER, name: "Sara" }], messages: [text("wamid.same")] }))
      const [a] = yield* messagesOf(first.account_id)
      const [b] = yield* messagesOf(second.account_id)
      assert.notStrictEqual(a!.contact_id, b!.contact_id)
      assert.strictEqual(b!.platform_third_party_id, "966110000042")
      assert.isTrue(Option.isNone(yield* RecordRepository.use((r) => r.get({ accountId: second.account_id, kind: "contact", id: a!.contact_id, custom: [] }))))
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("moves the contact's received times: first to the earliest message, last to the latest, never back", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* cloudNumber(principal)
      const receive = (wamid: string, timestamp: number) =>
        process(metaBody(PHONE_ID, { contacts: [{ waId: SENDER }], messages: [text(wamid, "hi", timestamp)] }))
      yield* receive("wamid.1", T)
      const contactId = (yield* inboundOf(account_id, "wamid.1")).contact_id
      const times = Effect.map(contactValues(account_id, contactId), ({ record: { values } }) => [
        values.first_received_message_at,
        values.last_received_message_at,
        values.first_whatsapp_message_received_at,
        values.last_whatsapp_message_received_at
      ])
      const wire = (seconds: number) => DateTime.formatIso(at(seconds)).replace("Z", "000Z")
      assert.deepStrictEqual(yield* times, [wire(T), wire(T), wire(T), wire(T)])
      yield* receive("wamid.2", T + 60)
      assert.deepStrictEqual(yield* times, [wire(T), wire(T + 60), wire(T), wire(T + 60)])
      const updates = (yield* eventsNamed("contact-updated")).length
      // Sent between the two, arriving late: neither time moves, and the contact is not changed.
      yield* receive("wamid.3", T + 30)
      assert.deepStrictEqual(yield* times, [wire(T), wire(T + 60), wire(T), wire(T + 60)])
      assert.strictEqual((yield* eventsNamed("contact-updated")).length, updates)
      // Sent before the first, arriving late: the first time moves back to it.
      yield* receive("wamid.0", T - 60)
      assert.deepStrictEqual(yield* times, [wire(T - 60), wire(T + 60), wire(T - 60), wire(T + 60)])
      const last = (yield* eventsNamed("contact-updated")).at(-1)!
      assert.strictEqual((last.payload as { properties: Record<string, unknown> }).properties.first_received_message_at, wire(T - 60))
      // A time in the future of the body's receipt is the receipt's.
      yield* receive("wamid.future", Math.floor(NOW / 1000) + 86_400)
      assert.deepStrictEqual((yield* inboundOf(account_id, "wamid.future")).created_at, RECEIVED)
    }).pipe(Effect.provide(MessagingTestPorts())))
})

describe("the received times are Wasl's", () => {
  it.effect("refuses them in a create and an update with 422 on their keys", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const names = [
        "first_received_message_at",
        "last_received_message_at",
        "first_whatsapp_message_received_at",
        "last_whatsapp_message_received_at"
      ]
      const body = Object.fromEntries(names.map((n) => [n, "2026-01-01T00:00:00Z"]))
      const created = yield* Effect.flip(createRecord(principal, "contact", { firstname: "A", ...body }))
      assert.deepStrictEqual(created._tag === "ValidationFailed" && Object.keys(created.errors), names)
      const id = yield* contactAt(account_id, "+966500000077")
      const updated = yield* Effect.flip(updateRecord(principal, "contact", id, { first_received_message_at: "2026-01-01T00:00:00Z" }))
      assert.deepStrictEqual(updated._tag === "ValidationFailed" && updated.errors, {
        first_received_message_at: ["The first received message at field is prohibited."]
      })
    }).pipe(Effect.provide(MessagingTestPorts())))
})

/** A template sent through the account's sandbox number to a contact: its stored message. */
const sentTemplate = (accountId: number, principal: Principal, platform: Platform) =>
  Effect.gen(function*() {
    const broadcast = yield* createBroadcast(principal, {
      name: "Shipping",
      language: "en_US",
      platform_id: platform.id,
      template: { name: "order_update", category: "UTILITY", body: "Your order has shipped." }
    })
    const contactId = yield* contactAt(accountId, `+${SENDER}`)
    return { contactId, ...(yield* sendTemplate(principal, broadcast.id, { contact_id: contactId }, undefined)) }
  })

describe("statuses", () => {
  it.effect("move a sent message forward only, each time once, a failure with Meta's error", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966 11 000 0000" })
      const { message } = yield* sentTemplate(account_id, principal, platform)
      const wamid = message.provider_message_id
      const statuses = (...list: ReadonlyArray<unknown>) => process(metaBody("966110000000", { statuses: list }))
      const current = MessageRepository.use((repo) => repo.findById(account_id, message._id)).pipe(Effect.map(Option.getOrThrow))

      assert.deepStrictEqual(yield* statuses(metaStatus(wamid, "read", T + 20, SENDER)), {
        messages: 0, statuses: 1, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 0
      })
      assert.deepInclude(yield* current, { status: "read", read_at: at(T + 20), delivered_at: null })
      // A late `delivered` keeps `read` and fills its own time; a late `sent` keeps the send's time.
      yield* statuses(metaStatus(wamid, "delivered", T + 10, SENDER), metaStatus(wamid, "sent", T + 5, SENDER))
      assert.deepInclude(yield* current, { status: "read", delivered_at: at(T + 10), sent_at: message.sent_at })
      const events = (yield* eventsNamed("message-status-updated")).length
      assert.strictEqual(events, 2)
      // A failure after `read` is not the message's story; the same status again changes nothing.
      yield* statuses(
        metaStatus(wamid, "failed", T + 30, SENDER, [{ code: 131026, title: "Message undeliverable" }]),
        metaStatus(wamid, "delivered", T + 40, SENDER)
      )
      assert.deepInclude(yield* current, { status: "read", delivered_at: at(T + 10), failed_at: null, error: null })
      assert.strictEqual((yield* eventsNamed("message-status-updated")).length, events)
      // Statuses Wasl does not take are ignored.
      assert.deepStrictEqual(yield* statuses(metaStatus(wamid, "deleted", T + 50, SENDER)), {
        messages: 0, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 1
      })
      const [event] = yield* eventsNamed("message-status-updated")
      assert.deepInclude(event!.payload as object, { _id: message._id, id: wamid, status: "read", is_sent_by_the_business: true })
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("keep a failure's error: code, title and details", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966 11 000 0000" })
      const { message } = yield* sentTemplate(account_id, principal, platform)
      yield* process(metaBody("966110000000", {
        statuses: [
          metaStatus(message.provider_message_id, "delivered", T + 1, SENDER),
          metaStatus(message.provider_message_id, "failed", T + 2, SENDER, [{
            code: 131047,
            title: "Re-engagement message",
            message: "Re-engagement message",
            error_data: { details: "Message failed to send because more than 24 hours have passed." }
          }])
        ]
      }))
      const failed = Option.getOrThrow(yield* MessageRepository.use((repo) => repo.findById(account_id, message._id)))
      assert.deepInclude(failed, {
        status: "failed",
        delivered_at: at(T + 1),
        failed_at: at(T + 2),
        error: { code: 131047, title: "Re-engagement message", details: "Message failed to send because more than 24 hours have passed." }
      })
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("that arrive before the send's message is stored are held and applied when it is", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966 11 000 0000" })
      const { broadcast, contactId } = yield* sentTemplate(account_id, principal, platform)
      const early = "wamid.early"
      assert.deepStrictEqual(
        yield* process(metaBody("966110000000", {
          statuses: [metaStatus(early, "sent", T, SENDER), metaStatus(early, "delivered", T + 3, SENDER)]
        })),
        { messages: 0, statuses: 2, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 0 }
      )
      const events = (yield* eventsNamed("message-status-updated")).length
      const stored = yield* storeMessage(broadcast, { contactId, number: `+${SENDER}`, digits: SENDER }, early, false)
      assert.deepInclude(stored, { status: "delivered", delivered_at: at(T + 3) })
      assert.deepStrictEqual(
        Option.getOrThrow(yield* MessageRepository.use((repo) => repo.findById(account_id, stored._id))),
        stored
      )
      assert.strictEqual((yield* eventsNamed("message-status-updated")).length, events + 1)
      assert.strictEqual((yield* memoryState).messaging.statusHolds.size, 0)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("held for want of their message keep the tracking string their send carried", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966 11 000 0000" })
      const tracking = "wasl-campaign:65a1b2c3d4e5f60718293a01:65a1b2c3d4e5f60718293a02"
      yield* process(metaBody("966110000000", {
        statuses: [metaStatus("wamid.lost", "sent", T, SENDER, undefined, tracking), metaStatus("wamid.plain", "sent", T, SENDER)]
      }))
      const found = yield* MessageStatusHoldRepository.use((holds) => holds.findTracked(account_id, [tracking]))
      assert.deepStrictEqual([...found], [[tracking, "wamid.lost"]])
      assert.strictEqual((yield* memoryState).messaging.statusHolds.size, 2)
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("that arrive before a free-form reply is stored are applied when it is", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      yield* cloudNumber(principal)
      yield* process(metaBody(PHONE_ID, { contacts: [{ waId: SENDER }], messages: [text("wamid.question")] }))
      const question = yield* inboundOf(account_id, "wamid.question")
      yield* process(metaBody(PHONE_ID, { statuses: [metaStatus("wamid.answer", "read", T + 9, SENDER)] }))
      const answer: Message = {
        ...question,
        _id: "65a1b2c3d4e5f60718293a99",
        provider_message_id: "wamid.answer",
        direction: "outbound",
        status: "sent",
        sender_third_party_id: question.receiver_third_party_id,
        receiver_third_party_id: SENDER,
        sent_at: at(T + 5)
      }
      const stored = yield* recordSentMessage(answer)
      assert.deepInclude(stored, { status: "read", read_at: at(T + 9) })
    }).pipe(Effect.provide(MessagingTestPorts())))

  it.effect("a send puts its message on the contact's channel entry, the one its replies come in on", () =>
    Effect.gen(function*() {
      const { account_id, principal } = yield* setup()
      const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966 11 000 0000" })
      const { message, contactId } = yield* sentTemplate(account_id, principal, platform)
      yield* process(metaBody("966110000000", { contacts: [{ waId: SENDER }], messages: [text("wamid.reply")] }))
      const reply = yield* inboundOf(account_id, "wamid.reply")
      assert.strictEqual(reply.contact_id, contactId)
      assert.strictEqual(reply.contact_channel_id, message.contact_channel_id)
      const channels = (yield* contactValues(account_id, contactId)).derived.channels!
      assert.deepStrictEqual(channels.map((c) => c._id), [message.contact_channel_id])
    }).pipe(Effect.provide(MessagingTestPorts())))
})

describe("the IncomingMessage notification", () => {
  it.effect("tells every active member who may see contacts, on their channels, with one mail per contact per 15 minutes", () =>
    Effect.gen(function*() {
      const { account_id, principal, user_id } = yield* setup()
      yield* cloudNumber(principal)
      const seer = yield* addMember(account_id, "seer@example.com", ["contact-show"])
      yield* addMember(account_id, "blind@example.com", ["deal-show"])
      const away = yield* addMember(account_id, "away@example.com", ["contact-show"])
      yield* setMembershipStatus(account_id, away.id, "suspended")
      const receive = (wamid: string, from = SENDER, body = "Is my order on its way?") =>
        process(metaBody(PHONE_ID, { contacts: [{ waId: from, name: "Sara Ali" }], messages: [text(wamid, body, T, from)] }))
      const incoming = Effect.map(memoryState, (state) => state.notifications.filter((n) => n.type === "IncomingMessage"))

      yield* receive("wamid.n1")
      const message = yield* inboundOf(account_id, "wamid.n1")
      const first = yield* incoming
      assert.sameMembers(first.map((n) => n.userId), [user_id, seer.id])
      for (const n of first) {
        assert.deepStrictEqual(n.data, {
          contact_id: message.contact_id,
          message_id: message._id,
          fullname: "Sara Ali",
          preview: "Is my order on its way?"
        })
        assert.strictEqual(n.email!.subject, "New message from Sara Ali")
        assert.isTrue(n.popup)
      }
      // A burst: stored and live, but no second mail within 15 minutes.
      yield* TestClock.adjust("14 minutes")
      yield* receive("wamid.n2")
      const burst = (yield* incoming).slice(first.length)
      assert.strictEqual(burst.length, 2)
      assert.isTrue(burst.every((n) => n.email === null && n.stored === true))
      assert.strictEqual((burst[0]!.data as { message_id: unknown }).message_id, (yield* inboundOf(account_id, "wamid.n2"))._id)
      // Another contact is mailed at once; the first one again after the 15 minutes.
      yield* receive("wamid.other", "966500000002")
      assert.isTrue((yield* incoming).slice(-2).every((n) => n.email !== null))
      yield* TestClock.adjust("2 minutes")
      yield* receive("wamid.n3")
      assert.isTrue((yield* incoming).slice(-2).every((n) => n.email !== null))
    }).pipe(Effect.provide(MessagingTestPorts())))
})
