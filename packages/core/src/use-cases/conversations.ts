/**
 * The conversation endpoints: a contact's messages both ways, the inbox, a free-form reply inside
 * the customer-service window, marking a conversation read, and downloading a received file.
 * Reading needs `contact-show`, replying `broadcast-send`. A contact or message of another account
 * is a 404.
 */
import { DateTime, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import type { SecretBox } from "../auth/secret-box.ts"
import { type Forbidden, invalid, NotFound, type ServiceUnavailable, ValidationFailed } from "../errors.ts"
import { type ConversationJson, conversationJson, WINDOW_CLOSED, windowExpiresAt } from "../messaging/conversation.ts"
import { Conversations } from "../messaging/conversations.ts"
import type { Outbox } from "../events/outbox.ts"
import { acceptedMessageId, providerPlatformOf, recordSentMessage } from "../messaging/dispatch.ts"
import type { Message } from "../messaging/message.ts"
import { MediaStore, mediaKey } from "../messaging/media-store.ts"
import { MessageRepository } from "../messaging/message-repository.ts"
import type { MessageStatusHoldRepository } from "../messaging/message-status-hold-repository.ts"
import { MessagingProvider } from "../messaging/messaging-provider.ts"
import { PlatformRepository } from "../messaging/platform-repository.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { type Page, parsePageParams } from "../records/pagination.ts"
import type { RecordRepository } from "../records/record-repository.ts"
import type { Transactor } from "../transactor.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { findRecord, orNotFound } from "./record-lookup.ts"

/** The longest free-form text WhatsApp takes, in characters. */
export const MAX_REPLY_LENGTH = 4096

/** The account's contact, or a 404. */
const requireContact = (accountId: number, contactId: string) => findRecord(accountId, "contact", contactId, [])

/**
 * `GET /api/contacts/{_id}/messages`: one page of the contact's messages, both directions, newest
 * first. Needs `contact-show`. Fails {@link NotFound} for a contact the account does not have.
 */
export const listContactMessages: (
  principal: Principal,
  contactId: string,
  query: ListQueryInput
) => Effect.Effect<Page<Message>, Forbidden | NotFound | ValidationFailed, Conversations | RecordRepository> = Effect.fn(
  "listContactMessages"
)(function*(principal: Principal, contactId: string, query: ListQueryInput) {
  yield* authorize(principal, "contact-show")
  const page = yield* parsePageParams(query)
  yield* requireContact(principal.accountId, contactId)
  const { rows, total } = yield* Conversations.use((c) => c.listByContact(principal.accountId, contactId, page.page, page.perPage))
  return { items: rows, total, page: page.page, perPage: page.perPage }
})

const UNREAD_VALUES: Readonly<Record<string, boolean>> = { true: true, "1": true, false: false, "0": false }

/** The inbox's `unread` and `search` parameters (`unread` as Laravel's boolean rule reads it). */
const inboxFilters = (query: ListQueryInput): Effect.Effect<{ unread: boolean; search: string }, ValidationFailed> => {
  const unread = query["unread"]
  const search = query["search"]
  const errors: Record<string, Array<string>> = {}
  if (unread !== undefined && unread !== null && (typeof unread !== "string" || !(unread in UNREAD_VALUES))) {
    errors["unread"] = ["The unread field must be true or false."]
  }
  if (search !== undefined && search !== null && typeof search !== "string") errors["search"] = ["The search field must be a string."]
  if (Object.keys(errors).length > 0) return Effect.fail(new ValidationFailed({ errors }))
  return Effect.succeed({
    unread: typeof unread === "string" && UNREAD_VALUES[unread] === true,
    search: typeof search === "string" ? search.trim() : ""
  })
}

/**
 * `GET /api/conversations`: one page of the inbox, latest activity first, each with its window's
 * end (null when closed). `unread=true` lists only those with unread messages, `search` filters on
 * the contact's name or number. Needs `contact-show`.
 */
export const listConversations: (
  principal: Principal,
  query: ListQueryInput
) => Effect.Effect<Page<ConversationJson>, Forbidden | ValidationFailed, Conversations> = Effect.fn("listConversations")(
  function*(principal: Principal, query: ListQueryInput) {
    yield* authorize(principal, "contact-show")
    const page = yield* parsePageParams(query)
    const filters = yield* inboxFilters(query)
    const { rows, total } = yield* Conversations.use((c) =>
      c.inbox(principal.accountId, { ...filters, page: page.page, perPage: page.perPage })
    )
    const now = yield* DateTime.now
    return { items: rows.map((entry) => conversationJson(entry, now)), total, page: page.page, perPage: page.perPage }
  }
)

/** The reply's text: a string of 1 to 4096 characters (not only spaces), else a 422 on `text`. */
const replyText = (body: unknown): Effect.Effect<string, ValidationFailed> => {
  const text = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["text"] : undefined
  if (text === undefined || text === null || (typeof text === "string" && text.trim() === "")) {
    return Effect.fail(invalid("text", "The text field is required."))
  }
  if (typeof text !== "string") return Effect.fail(invalid("text", "The text field must be a string."))
  if ([...text].length > MAX_REPLY_LENGTH) {
    return Effect.fail(invalid("text", `The text field must not be greater than ${MAX_REPLY_LENGTH} characters.`))
  }
  return Effect.succeed(text)
}

/**
 * `POST /api/contacts/{_id}/messages` `{ text }`: a free-form reply to the contact, sent through the
 * number the contact last wrote to, to the WhatsApp id it wrote from, and stored as an outbound
 * `text` message of no broadcast. Allowed only while the customer-service window is open (24 hours
 * after the contact's last message), else a 422 on `text` ({@link WINDOW_CLOSED}). Needs
 * `broadcast-send`. Fails {@link NotFound} for a contact the account does not have,
 * {@link ValidationFailed} for a bad text or a rejection by the provider (nothing is stored),
 * {@link ServiceUnavailable} when the provider cannot take it now.
 */
export const replyToContact: (
  principal: Principal,
  contactId: string,
  body: unknown
) => Effect.Effect<
  Message,
  Forbidden | NotFound | ServiceUnavailable | ValidationFailed,
  | Conversations
  | MessageRepository
  | MessageStatusHoldRepository
  | MessagingProvider
  | Outbox
  | PlatformRepository
  | RecordRepository
  | SecretBox
  | SecureRandom.SecureRandom
  | Transactor
> = Effect.fn("replyToContact")(function*(principal: Principal, contactId: string, body: unknown) {
  yield* authorize(principal, "broadcast-send")
  yield* requireContact(principal.accountId, contactId)
  const text = yield* replyText(body)
  const latest = yield* Conversations.use((c) => c.latestInbound(principal.accountId, contactId))
  const now = yield* DateTime.now
  if (Option.isNone(latest) || windowExpiresAt(latest.value.created_at, now) === null) {
    return yield* invalid("text", WINDOW_CLOSED)
  }
  const inbound = latest.value
  const platform = yield* PlatformRepository.use((repo) => repo.findById(principal.accountId, inbound.platform_id))
  if (Option.isNone(platform)) return yield* invalid("text", WINDOW_CLOSED)
  const outcome = yield* MessagingProvider.use(Effect.fnUntraced(function*(provider) {
    return yield* provider.sendText(yield* providerPlatformOf(platform.value), inbound.sender_third_party_id, text)
  }))
  const providerMessageId = yield* acceptedMessageId(outcome, "text")
  const sentAt = yield* DateTime.now
  const message: Message = {
    _id: yield* newRecordId,
    account_id: principal.accountId,
    provider_message_id: providerMessageId,
    contact_id: contactId,
    contact_channel_id: inbound.contact_channel_id,
    broadcast_id: null,
    platform_id: inbound.platform_id,
    platform_third_party_id: inbound.platform_third_party_id,
    sender_third_party_id: inbound.receiver_third_party_id,
    receiver_third_party_id: inbound.sender_third_party_id,
    direction: "outbound",
    type: "text",
    status: "sent",
    body: text,
    content: null,
    context_id: null,
    attachments: [],
    error: null,
    sent_at: sentAt,
    delivered_at: null,
    read_at: null,
    failed_at: null,
    created_at: sentAt,
    updated_at: sentAt
  }
  return yield* recordSentMessage(message)
})

/**
 * `POST /api/conversations/{contact_id}/read`: marks the contact's received messages read and,
 * when it marked any, sends the channel the read receipt of the latest (which marks the earlier
 * ones read on the phone too). A receipt the channel does not take is logged, never an error: the
 * team has read the messages either way. Needs `contact-show`. Answers the unread count (0).
 */
export const markConversationRead: (
  principal: Principal,
  contactId: string
) => Effect.Effect<
  { readonly unread_count: number },
  Forbidden | NotFound,
  Conversations | MessagingProvider | PlatformRepository | RecordRepository | SecretBox
> = Effect.fn("markConversationRead")(function*(principal: Principal, contactId: string) {
  yield* authorize(principal, "contact-show")
  yield* requireContact(principal.accountId, contactId)
  const now = yield* DateTime.now
  const { marked, latestInbound } = yield* Conversations.use((c) => c.markRead(principal.accountId, contactId, now))
  if (marked > 0 && Option.isSome(latestInbound)) {
    const inbound = latestInbound.value
    const platform = yield* PlatformRepository.use((repo) => repo.findById(principal.accountId, inbound.platform_id))
    if (Option.isSome(platform)) {
      const outcome = yield* MessagingProvider.use(Effect.fnUntraced(function*(provider) {
        return yield* provider.markRead(yield* providerPlatformOf(platform.value), inbound.provider_message_id)
      }))
      if (outcome._tag !== "Marked") {
        yield* Effect.logWarning("The channel did not take a read receipt.", { reason: outcome.reason })
      }
    }
  }
  return { unread_count: 0 }
})

/** A received message's file, as its download answers it. */
export interface AttachmentFile {
  /** Its content. */
  readonly bytes: Uint8Array
  /** Its media type. */
  readonly mimeType: string
  /** The name to save it under: the sender's file name, else `<message _id>-<index>`. */
  readonly filename: string
}

/**
 * `GET /api/messages/{_id}/attachments/{index}`: the file of one of the message's attachments,
 * once the worker has stored it. Needs `contact-show`. Fails {@link NotFound} for a message the
 * account does not have, an index it has no attachment at, or a file not stored (yet, or ever).
 */
export const downloadAttachment: (
  principal: Principal,
  messageId: string,
  index: number
) => Effect.Effect<AttachmentFile, Forbidden | NotFound, MessageRepository | MediaStore> = Effect.fn("downloadAttachment")(
  function*(principal: Principal, messageId: string, index: number) {
    yield* authorize(principal, "contact-show")
    const message = yield* orNotFound(yield* MessageRepository.use((repo) => repo.findById(principal.accountId, messageId)))
    const attachment = Number.isSafeInteger(index) && index >= 0 ? message.attachments[index] : undefined
    if (attachment === undefined || attachment.state !== "stored") return yield* new NotFound()
    const file = yield* orNotFound(yield* MediaStore.use((store) => store.get(principal.accountId, mediaKey(messageId, index))))
    return { bytes: file.bytes, mimeType: file.mimeType, filename: attachment.filename ?? `${messageId}-${index}` }
  }
)
