/**
 * Conversations: the account's messages read as threads, one per contact — a contact's messages
 * both ways, the inbox of every contact with messages, and marking what a contact sent as read.
 * Reads only, but for `markRead`; storing and updating single messages is MessageRepository's.
 * Every method takes the account and never sees another account's rows.
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Message } from "./message.ts"

/** One page of a list, and how many rows the whole list holds. */
export interface ConversationPage<A> {
  /** The page's rows. */
  readonly rows: ReadonlyArray<A>
  /** How many rows all pages hold. */
  readonly total: number
}

/** One contact's conversation as the inbox lists it. */
export interface InboxEntry {
  /** The contact. */
  readonly contactId: string
  /** Its full name, if it has one. */
  readonly fullname: string | null
  /** Its WhatsApp number as stored, if any. */
  readonly whatsappNumber: string | null
  /** The latest message either way. */
  readonly lastMessage: Message
  /** How many of its inbound messages are still `received` (not read by the team). */
  readonly unreadCount: number
  /** When its latest inbound message was sent, if any (the 24-hour window opens then). */
  readonly lastInboundAt: DateTime.Utc | null
}

/** What the inbox lists. */
export interface InboxQuery {
  /** Only conversations with unread inbound messages. */
  readonly unread: boolean
  /**
   * Only contacts whose full name or WhatsApp number holds this text (case-insensitive; the
   * number also by its digits alone, so `+966 50` finds `966501234567`). Empty: all.
   */
  readonly search: string
  /** The page, from 1. */
  readonly page: number
  /** Rows per page. */
  readonly perPage: number
}

/** What marking a conversation read did. */
export interface MarkedRead {
  /** How many inbound messages went from `received` to `read`. */
  readonly marked: number
  /** The contact's latest inbound message (read or not), whose read receipt the channel takes. */
  readonly latestInbound: Option.Option<Message>
}

/** What the Conversations port offers (implement this to write an adapter). */
export interface ConversationsShape {
  /**
   * One page of the contact's messages, both directions, newest first (by `created_at`; of
   * messages of the same time, the one stored later first), and how many it has in all. WhatsApp
   * gives received times in whole seconds, so the order of storing breaks those ties.
   */
  readonly listByContact: (
    accountId: number,
    contactId: string,
    page: number,
    perPage: number
  ) => Effect.Effect<ConversationPage<Message>>
  /**
   * One page of the inbox: one entry per contact of the account with at least one message,
   * latest activity first (the last message's `created_at`; of two at the same time, the one whose
   * last message was stored later first).
   * A contact deleted since is not listed.
   */
  readonly inbox: (accountId: number, query: InboxQuery) => Effect.Effect<ConversationPage<InboxEntry>>
  /** The contact's latest inbound message (by `created_at`, then the order of storing), if it ever wrote. */
  readonly latestInbound: (accountId: number, contactId: string) => Effect.Effect<Option.Option<Message>>
  /**
   * Marks the contact's inbound `received` messages `read`, `read_at` and `updated_at` set to
   * `now`; messages read before keep their times.
   */
  readonly markRead: (accountId: number, contactId: string, now: DateTime.Utc) => Effect.Effect<MarkedRead>
}

const ConversationsBase: Context.ServiceClass<Conversations, "@wasl/core/Conversations", ConversationsShape> =
  Context.Service<Conversations, ConversationsShape>()("@wasl/core/Conversations")

/** The account's messages as conversations, one per contact: its operations are {@link ConversationsShape}. */
export class Conversations extends ConversationsBase {}

/** The digits of a text, in order. */
const digitsIn = (text: string): string => text.replace(/[^0-9]/g, "")

/**
 * Whether a contact matches the inbox's `search` (see `InboxQuery.search`): its full name or
 * WhatsApp number holds the text, case-insensitively, or the number's digits hold the text's
 * digits (when it has any).
 */
export const matchesConversationSearch = (fullname: string | null, whatsappNumber: string | null, search: string): boolean => {
  if (search === "") return true
  const term = search.toLowerCase()
  if (fullname !== null && fullname.toLowerCase().includes(term)) return true
  if (whatsappNumber === null) return false
  if (whatsappNumber.toLowerCase().includes(term)) return true
  const digits = digitsIn(search)
  return digits !== "" && digitsIn(whatsappNumber).includes(digits)
}
