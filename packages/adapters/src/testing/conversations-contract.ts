/** The contract suite of the Conversations port (documented on `conversationsContract`). */
import { describe, expect, layer } from "@effect/vitest"
import { type AccountRepository } from "@wasl/core/Accounts"
import { Conversations, type InboxQuery, type Message, MessageRepository } from "@wasl/core/Messaging"
import { RecordRepository } from "@wasl/core/Records"
import { DateTime, Effect, type Layer, Option } from "effect"
import { freshRecordId, plusMillis } from "./otp-fixtures.ts"
import { newAccountId } from "./record-contract-support.ts"

/** What the layer under `conversationsContract` provides. */
export type ConversationsContractServices = Conversations | MessageRepository | RecordRepository | AccountRepository

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
const BUSINESS = "966110000000"

/** A contact of the account, stored with these names and number. */
const contact = (accountId: number, values: { firstname?: string; lastname?: string; whatsapp_number?: string }) =>
  Effect.gen(function*() {
    const id = freshRecordId()
    yield* RecordRepository.use((repo) => repo.insert({ accountId, kind: "contact", id, custom: [], values }))
    return id
  })

/** A message of the contact, `direction` and `minutes` after T0, stored. */
const said = (
  accountId: number,
  contactId: string,
  direction: "inbound" | "outbound",
  minutes: number,
  overrides: Partial<Message> = {}
) =>
  Effect.gen(function*() {
    const at = plusMillis(T0, minutes * 60_000)
    const m: Message = {
      _id: freshRecordId(),
      account_id: accountId,
      provider_message_id: `wamid.${freshRecordId()}`,
      contact_id: contactId,
      contact_channel_id: freshRecordId(),
      broadcast_id: null,
      platform_id: 1,
      platform_third_party_id: BUSINESS,
      sender_third_party_id: direction === "inbound" ? "966500000001" : BUSINESS,
      receiver_third_party_id: direction === "inbound" ? BUSINESS : "966500000001",
      direction,
      type: "text",
      status: direction === "inbound" ? "received" : "sent",
      body: `${direction} at ${minutes}`,
      content: null,
      context_id: null,
      attachments: [],
      error: null,
      sent_at: direction === "inbound" ? null : at,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      created_at: at,
      updated_at: at,
      ...overrides
    }
    yield* MessageRepository.use((repo) => repo.insert(m))
    return m
  })

/** Ids of one second whose random parts sort opposite to the order the tests store them in. */
const LATE_ID = "7c000000ffffffffffffffff"
const MIDDLE_ID = "7c0000008000000000000000"
const EARLY_ID = "7c0000000000000000000001"

const query = (overrides: Partial<InboxQuery> = {}): InboxQuery => ({ unread: false, search: "", page: 1, perPage: 20, ...overrides })

const inboxOf = (accountId: number, q: Partial<InboxQuery> = {}) => Conversations.use((c) => c.inbox(accountId, query(q)))

/**
 * The contract of the Conversations port over every implementation (memory, PGlite, PostgreSQL,
 * or yours):
 *
 * - a contact's messages, both directions, newest first (messages of the same time: the one stored
 *   later first), paged, with the total;
 * - the inbox: one entry per contact with messages, latest activity first (ties: the conversation
 *   whose last message was stored later first), with the contact's full
 *   name and number, its last message, its unread inbound count and its last inbound time; only
 *   unread ones on request; searched on the name or the number (its digits too); paged with the
 *   total; a deleted contact's messages are not listed;
 * - the latest inbound message of a contact (the one whose time opens the reply window);
 * - marking read: the contact's `received` inbound messages become `read` with `read_at` = now,
 *   already read ones keep their time, outbound ones are untouched; it says how many and gives
 *   the latest inbound message;
 * - every read and write stays in its account.
 */
export const conversationsContract = <E>(
  name: string,
  services: Layer.Layer<ConversationsContractServices, E>
): void => {
  layer(services, { timeout: 60_000 })(name, (it) => {
    describe("listByContact", () => {
      it.effect("lists a contact's messages both ways, newest first, paged, with the total", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const amal = yield* contact(accountId, { firstname: "Amal", whatsapp_number: "+966 50 000 0001" })
          const other = yield* contact(accountId, { firstname: "Badr" })
          const m1 = yield* said(accountId, amal, "outbound", 1)
          const m2 = yield* said(accountId, amal, "inbound", 2)
          const m3 = yield* said(accountId, amal, "outbound", 3)
          yield* said(accountId, other, "inbound", 4)
          const all = yield* Conversations.use((c) => c.listByContact(accountId, amal, 1, 20))
          expect(all.total).toBe(3)
          expect(all.rows).toEqual([m3, m2, m1])
          const second = yield* Conversations.use((c) => c.listByContact(accountId, amal, 2, 2))
          expect(second).toEqual({ rows: [m1], total: 3 })
          expect(yield* Conversations.use((c) => c.listByContact(accountId, amal, 3, 2))).toEqual({ rows: [], total: 3 })
        }))

      it.effect("orders messages of the same time as they were stored, the later first, whatever their _id", () =>
        Effect.gen(function*() {
          // WhatsApp gives a received message's time in whole seconds: two messages of one second
          // keep the order in which they arrived. The later one has the smaller _id here.
          const accountId = yield* newAccountId
          const amal = yield* contact(accountId, { firstname: "Amal" })
          const first = yield* said(accountId, amal, "inbound", 1, { _id: LATE_ID })
          const second = yield* said(accountId, amal, "inbound", 1, { _id: EARLY_ID })
          const third = yield* said(accountId, amal, "outbound", 1, { _id: MIDDLE_ID })
          const ids = (yield* Conversations.use((c) => c.listByContact(accountId, amal, 1, 20))).rows.map((m) => m._id)
          expect(ids).toEqual([third._id, second._id, first._id])
          expect((yield* inboxOf(accountId)).rows[0]!.lastMessage._id).toBe(third._id)
          expect(Option.map(yield* Conversations.use((c) => c.latestInbound(accountId, amal)), (m) => m._id))
            .toEqual(Option.some(second._id))
        }))
    })

    describe("inbox", () => {
      it.effect("lists one entry per contact, latest activity first, with its unread count and last inbound time", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const amal = yield* contact(accountId, { firstname: "Amal", lastname: "Saleh", whatsapp_number: "+966 50 000 0001" })
          const badr = yield* contact(accountId, { firstname: "Badr", whatsapp_number: "966500000002" })
          const quiet = yield* contact(accountId, { firstname: "Quiet" })
          yield* said(accountId, amal, "inbound", 1)
          const amalIn = yield* said(accountId, amal, "inbound", 2)
          yield* said(accountId, amal, "inbound", 3, { status: "read", read_at: T0 })
          const amalLast = yield* said(accountId, amal, "outbound", 10)
          const badrLast = yield* said(accountId, badr, "outbound", 5)
          const inbox = yield* inboxOf(accountId)
          expect(inbox.total).toBe(2)
          expect(inbox.rows).toEqual([
            {
              contactId: amal,
              fullname: "Amal Saleh",
              whatsappNumber: "+966 50 000 0001",
              lastMessage: amalLast,
              unreadCount: 2,
              lastInboundAt: plusMillis(amalIn.created_at, 60_000)
            },
            { contactId: badr, fullname: "Badr", whatsappNumber: "966500000002", lastMessage: badrLast, unreadCount: 0, lastInboundAt: null }
          ])
          expect(inbox.rows.map((r) => r.contactId)).not.toContain(quiet)
          // A new message moves its conversation to the top.
          yield* said(accountId, badr, "inbound", 11)
          expect((yield* inboxOf(accountId)).rows.map((r) => r.contactId)).toEqual([badr, amal])
        }))

      it.effect("puts first, of conversations whose last messages share a time, the one stored later", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const amal = yield* contact(accountId, { firstname: "Amal" })
          const badr = yield* contact(accountId, { firstname: "Badr" })
          const [earlier, later] = amal < badr ? [badr, amal] : [amal, badr]
          yield* said(accountId, earlier, "inbound", 1, { _id: LATE_ID })
          yield* said(accountId, later, "inbound", 1, { _id: EARLY_ID })
          expect((yield* inboxOf(accountId)).rows.map((r) => r.contactId)).toEqual([later, earlier])
        }))

      it.effect("lists only conversations with unread messages on request, and pages with the total", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const ids: Array<string> = []
          for (let i = 0; i < 5; i++) {
            const id = yield* contact(accountId, { firstname: `C${i}` })
            yield* said(accountId, id, i % 2 === 0 ? "inbound" : "outbound", i)
            ids.push(id)
          }
          const unread = yield* inboxOf(accountId, { unread: true })
          expect(unread.rows.map((r) => r.contactId)).toEqual([ids[4], ids[2], ids[0]])
          expect(unread.total).toBe(3)
          const page2 = yield* inboxOf(accountId, { page: 2, perPage: 2 })
          expect(page2.rows.map((r) => r.contactId)).toEqual([ids[2], ids[1]])
          expect(page2.total).toBe(5)
          expect(yield* inboxOf(accountId, { page: 4, perPage: 2 })).toEqual({ rows: [], total: 5 })
        }))

      it.effect("searches the name case-insensitively and the number as written or by its digits", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const amal = yield* contact(accountId, { firstname: "Amal", lastname: "Saleh", whatsapp_number: "+966 50 123 4567" })
          const badr = yield* contact(accountId, { firstname: "Badr", whatsapp_number: "971501112222" })
          const percent = yield* contact(accountId, { firstname: "100%" })
          for (const id of [amal, badr, percent]) yield* said(accountId, id, "inbound", 1)
          const found = (search: string) => Effect.map(inboxOf(accountId, { search }), (p) => p.rows.map((r) => r.contactId))
          expect(yield* found("saleh")).toEqual([amal])
          expect(yield* found("AMAL S")).toEqual([amal])
          expect(yield* found("50 123")).toEqual([amal])
          expect(yield* found("501234567")).toEqual([amal])
          expect(yield* found("+971 50")).toEqual([badr])
          expect(yield* found("%")).toEqual([percent])
          expect(yield* found("nobody")).toEqual([])
          expect((yield* inboxOf(accountId, { search: "saleh" })).total).toBe(1)
        }))

      it.effect("does not list a deleted contact's conversation", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const gone = yield* contact(accountId, { firstname: "Gone" })
          yield* said(accountId, gone, "inbound", 1)
          yield* RecordRepository.use((repo) => repo.delete({ accountId, kind: "contact", id: gone }))
          expect(yield* inboxOf(accountId)).toEqual({ rows: [], total: 0 })
        }))
    })

    describe("latestInbound", () => {
      it.effect("gives the contact's latest inbound message, none for a contact that never wrote", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const amal = yield* contact(accountId, { firstname: "Amal" })
          const badr = yield* contact(accountId, { firstname: "Badr" })
          yield* said(accountId, amal, "inbound", 1)
          const latest = yield* said(accountId, amal, "inbound", 2, { status: "read", read_at: T0 })
          yield* said(accountId, amal, "outbound", 3)
          yield* said(accountId, badr, "outbound", 4)
          expect(yield* Conversations.use((c) => c.latestInbound(accountId, amal))).toEqual(Option.some(latest))
          expect(yield* Conversations.use((c) => c.latestInbound(accountId, badr))).toEqual(Option.none())
          const other = yield* newAccountId
          expect(yield* Conversations.use((c) => c.latestInbound(other, amal))).toEqual(Option.none())
        }))
    })

    describe("markRead", () => {
      it.effect("marks received inbound messages read at now, keeps earlier read times, leaves outbound ones", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const amal = yield* contact(accountId, { firstname: "Amal" })
          const earlier = yield* said(accountId, amal, "inbound", 1, { status: "read", read_at: T0 })
          const first = yield* said(accountId, amal, "inbound", 2)
          const latest = yield* said(accountId, amal, "inbound", 3)
          const out = yield* said(accountId, amal, "outbound", 4)
          const now = plusMillis(T0, 3_600_000)
          const result = yield* Conversations.use((c) => c.markRead(accountId, amal, now))
          expect(result.marked).toBe(2)
          expect(result.latestInbound).toEqual(Option.some({ ...latest, status: "read", read_at: now, updated_at: now }))
          const byId = (id: string) => MessageRepository.use((repo) => repo.findById(accountId, id))
          expect(yield* byId(first._id)).toEqual(Option.some({ ...first, status: "read", read_at: now, updated_at: now }))
          expect(yield* byId(earlier._id)).toEqual(Option.some(earlier))
          expect(yield* byId(out._id)).toEqual(Option.some(out))
          expect((yield* inboxOf(accountId)).rows[0]!.unreadCount).toBe(0)
          const again = yield* Conversations.use((c) => c.markRead(accountId, amal, plusMillis(now, 1000)))
          expect(again.marked).toBe(0)
          expect(Option.map(again.latestInbound, (m) => m.read_at)).toEqual(Option.some(now))
        }))

      it.effect("answers nothing to mark and no latest inbound message for a contact that never wrote", () =>
        Effect.gen(function*() {
          const accountId = yield* newAccountId
          const amal = yield* contact(accountId, { firstname: "Amal" })
          yield* said(accountId, amal, "outbound", 1)
          expect(yield* Conversations.use((c) => c.markRead(accountId, amal, T0))).toEqual({ marked: 0, latestInbound: Option.none() })
        }))
    })

    describe("tenant isolation", () => {
      it.effect("never lists, counts or marks another account's messages", () =>
        Effect.gen(function*() {
          const mine = yield* newAccountId
          const theirs = yield* newAccountId
          const amal = yield* contact(theirs, { firstname: "Amal", whatsapp_number: "966500000001" })
          yield* said(theirs, amal, "inbound", 1)
          expect(yield* Conversations.use((c) => c.listByContact(mine, amal, 1, 20))).toEqual({ rows: [], total: 0 })
          expect(yield* inboxOf(mine)).toEqual({ rows: [], total: 0 })
          expect(yield* inboxOf(mine, { search: "amal" })).toEqual({ rows: [], total: 0 })
          expect(yield* Conversations.use((c) => c.markRead(mine, amal, T0))).toEqual({ marked: 0, latestInbound: Option.none() })
          expect((yield* inboxOf(theirs)).rows[0]!.unreadCount).toBe(1)
        }))

      it.effect("does not mix a contact of one account with another account's messages under the same contact id", () =>
        Effect.gen(function*() {
          const mine = yield* newAccountId
          const theirs = yield* newAccountId
          const shared = freshRecordId()
          yield* RecordRepository.use((repo) =>
            repo.insert({ accountId: mine, kind: "contact", id: shared, custom: [], values: { firstname: "Mine" } })
          )
          yield* said(theirs, shared, "inbound", 1)
          expect(yield* inboxOf(mine)).toEqual({ rows: [], total: 0 })
          const m = yield* said(mine, shared, "outbound", 2)
          expect((yield* inboxOf(mine)).rows).toEqual([
            { contactId: shared, fullname: "Mine", whatsappNumber: null, lastMessage: m, unreadCount: 0, lastInboundAt: null }
          ])
        }))
    })
  })
}
