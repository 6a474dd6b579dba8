/** Conversations in the memory store: same semantics as ConversationsPg (see the port). */
import { Conversations, type InboxEntry, matchesConversationSearch, type Message } from "@wasl/core/Messaging"
import { deriveFullname } from "@wasl/core/Records"
import { Effect, Layer, Option } from "effect"
import { accountKey } from "./messaging-tables.ts"
import { findRecordRow } from "./record-tables.ts"
import { mapSet, MemoryStore, type MemoryState, readStore, updateStore } from "./store.ts"
import { withMessaging } from "./messaging-constraints.ts"

/**
 * Newest first: `created_at` descending and, of messages of the same time, the one stored later
 * first. `messages` come in the order they were stored (the store's map keeps insertion order and
 * an update keeps a message's place); the sort is stable, so reversing first puts the later first.
 */
const newestFirst = (messages: Array<Message>): Array<Message> =>
  messages.reverse().sort((a, b) => b.created_at.epochMilliseconds - a.created_at.epochMilliseconds)

const pageOf = <A>(rows: ReadonlyArray<A>, page: number, perPage: number) => ({
  rows: rows.slice((page - 1) * perPage, page * perPage),
  total: rows.length
})

const messagesOf = (state: MemoryState, accountId: number, contactId?: string): Array<Message> =>
  [...state.messaging.messages.values()].filter((m) =>
    m.account_id === accountId && (contactId === undefined || m.contact_id === contactId)
  )

const textOrNull = (value: unknown): string | null => typeof value === "string" ? value : null

/**
 * Every conversation of the account whose contact still exists, latest activity first; of two
 * whose last messages share a time, the one whose last message was stored later first.
 */
const inboxOf = (state: MemoryState, accountId: number): Array<InboxEntry> => {
  const stored = messagesOf(state, accountId)
  const arrival = new Map(stored.map((m, i) => [m._id, i]))
  const byContact = new Map<string, Array<Message>>()
  for (const m of stored) {
    const thread = byContact.get(m.contact_id)
    if (thread === undefined) byContact.set(m.contact_id, [m])
    else thread.push(m)
  }
  const entries: Array<InboxEntry> = []
  for (const [contactId, thread] of byContact) {
    const contact = findRecordRow(state.records, accountId, "contact", contactId)
    if (contact === undefined) continue
    newestFirst(thread) // in place: thread[0] is the latest message
    const inbound = thread.filter((m) => m.direction === "inbound")
    entries.push({
      contactId,
      fullname: deriveFullname(contact.builtin),
      whatsappNumber: textOrNull(contact.builtin["whatsapp_number"]),
      lastMessage: thread[0]!,
      unreadCount: inbound.filter((m) => m.status === "received").length,
      lastInboundAt: inbound[0]?.created_at ?? null
    })
  }
  return entries.sort((a, b) =>
    b.lastMessage.created_at.epochMilliseconds - a.lastMessage.created_at.epochMilliseconds ||
    arrival.get(b.lastMessage._id)! - arrival.get(a.lastMessage._id)!
  )
}

/** Conversations over the memory store's messages and contacts. */
export const ConversationsMemory: Layer.Layer<Conversations, never, MemoryStore> = Layer.effect(
  Conversations,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return Conversations.of({
      listByContact: (accountId, contactId, page, perPage) =>
        readStore(store, (state) => pageOf(newestFirst(messagesOf(state, accountId, contactId)), page, perPage)),
      inbox: (accountId, query) =>
        readStore(store, (state) =>
          pageOf(
            inboxOf(state, accountId).filter((entry) =>
              (!query.unread || entry.unreadCount > 0) &&
              matchesConversationSearch(entry.fullname, entry.whatsappNumber, query.search)
            ),
            query.page,
            query.perPage
          )),
      latestInbound: (accountId, contactId) =>
        readStore(store, (state) =>
          Option.fromNullishOr(
            newestFirst(messagesOf(state, accountId, contactId).filter((m) => m.direction === "inbound"))[0]
          )),
      markRead: (accountId, contactId, now) =>
        updateStore(store, (state) => {
          const inbound = newestFirst(messagesOf(state, accountId, contactId).filter((m) => m.direction === "inbound"))
          let messages = state.messaging.messages
          let marked = 0
          for (const m of inbound) {
            if (m.status !== "received") continue
            messages = mapSet(messages, accountKey(accountId, m._id), { ...m, status: "read", read_at: now, updated_at: now })
            marked += 1
          }
          const latest = Option.map(Option.fromNullishOr(inbound[0]), (m) => messages.get(accountKey(accountId, m._id))!)
          return [{ marked, latestInbound: latest }, withMessaging(state, { ...state.messaging, messages })] as const
        })
    })
  })
)
