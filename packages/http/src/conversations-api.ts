/** Conversations: a contact's messages both ways, the inbox, free-form replies, read receipts and received files. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ConversationJson, MessageJson } from "@wasl/core/Messaging"
import { RecordId } from "@wasl/core/Wire"
import type { CommonErrors } from "./errors.ts"
import { type AuthenticatedGroup, commonErrors, DataAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { CONVERSATION_LIST_PARAMETERS, PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import { ServiceUnavailable503WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

/** The body of `POST /api/contacts/{_id}/messages`: `{ text }`, validated by the use-case with Laravel's messages. */
export const ReplyBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "{ text: string } of 1 to 4096 characters"
})

/** The answer of `POST /api/conversations/{contact_id}/read`. */
export const ReadAnswer: Schema.Struct<{ readonly unread_count: Schema.Int }> = Schema.Struct({ unread_count: Schema.Int })

const contactParams = { id: RecordId }

/** `GET /api/contacts/:id/messages`: the contact's messages, newest first, paginated. */
export const ListContactMessagesEndpoint: WaslEndpoint<"listContactMessages", "GET", "/contacts/:id/messages", {
  params: PathParams<{ id: typeof RecordId }>; success: Pagination<typeof MessageJson>
}> = HttpApiEndpoint.get("listContactMessages", "/contacts/:id/messages", {
  params: contactParams,
  success: Pagination(MessageJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "List a contact's messages").annotate(
  OpenApi.Description,
  "The messages between the account and the contact, both directions, newest first, one page at a time: statuses, times, failure reasons and attachments (each with the URL to download it from). Permission contact-show."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/** `POST /api/contacts/:id/messages`: a free-form text reply inside the customer-service window. */
export const ReplyEndpoint: WaslEndpoint<"reply", "POST", "/contacts/:id/messages", {
  params: PathParams<{ id: typeof RecordId }>; payload: typeof ReplyBody; success: DataAnswer<typeof MessageJson>
  error: CommonErrors | typeof ServiceUnavailable503WithRetryAfter
}> = HttpApiEndpoint.post("reply", "/contacts/:id/messages", {
  params: contactParams,
  payload: ReplyBody,
  success: DataAnswer(MessageJson).pipe(HttpApiSchema.status(201)),
  error: [...commonErrors, ServiceUnavailable503WithRetryAfter]
}).annotate(OpenApi.Summary, "Reply to a contact").annotate(
  OpenApi.Description,
  "Sends a free-form text (1 to 4096 characters) to the contact through the number it last wrote to, and stores it. WhatsApp takes free-form messages only within 24 hours of the contact's last message: outside that window the answer is a 422 on text, and a template (POST /api/broadcasts/{id}/send) is needed. Permission broadcast-send."
)

/** An attachment's index in its message: 0, 1, ...; anything else is a 404. */
export const AttachmentIndexParam: Schema.FiniteFromString = Schema.FiniteFromString.check(
  Schema.isInt(),
  Schema.isGreaterThanOrEqualTo(0)
)

/** The file of an attachment: its bytes, with the media type it was received with. */
export const AttachmentFileBody: HttpApiSchema.StreamUint8Array = HttpApiSchema.StreamUint8Array({
  contentType: "application/octet-stream"
})

/** `GET /api/messages/:id/attachments/:index`: a received file. */
export const DownloadAttachmentEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "downloadAttachment",
  "GET",
  "/messages/:id/attachments/:index",
  PathParams<{ id: typeof RecordId; index: typeof AttachmentIndexParam }>,
  never,
  never,
  never,
  typeof AttachmentFileBody,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.get("downloadAttachment", "/messages/:id/attachments/:index", {
  params: { id: RecordId, index: AttachmentIndexParam },
  success: AttachmentFileBody,
  error: commonErrors
}).annotate(OpenApi.Summary, "Download a message's attachment").annotate(
  OpenApi.Description,
  "The file of one attachment of a received message (its url in the message), with the media type it was received with and its file name in Content-Disposition. 404 until the worker has fetched it from WhatsApp, and for good when it could not (too large, or gone). Permission contact-show."
)

/** `GET /api/conversations`: the inbox. */
export const ListConversationsEndpoint: WaslEndpoint<"listConversations", "GET", "/conversations", {
  success: Pagination<typeof ConversationJson>
}> = HttpApiEndpoint.get("listConversations", "/conversations", {
  success: Pagination(ConversationJson),
  error: commonErrors
}).annotate(OpenApi.Summary, "List conversations (the inbox)").annotate(
  OpenApi.Description,
  "One entry per contact with messages, latest activity first: the contact, its last message, how many of its messages are unread, and when the 24-hour reply window closes (null when it is closed). unread=true lists only those with unread messages; search matches the contact's name or number. Permission contact-show."
).annotate(OpenApi.Transform, withQueryParameters(CONVERSATION_LIST_PARAMETERS))

/** `POST /api/conversations/:id/read`: marks the contact's messages read. */
export const ReadConversationEndpoint: WaslEndpoint<"readConversation", "POST", "/conversations/:id/read", {
  params: PathParams<{ id: typeof RecordId }>; success: DataAnswer<typeof ReadAnswer>
}> = HttpApiEndpoint.post("readConversation", "/conversations/:id/read", {
  params: contactParams,
  success: DataAnswer(ReadAnswer),
  error: commonErrors
}).annotate(OpenApi.Summary, "Mark a conversation read").annotate(
  OpenApi.Description,
  "Marks the messages the contact sent read, and tells WhatsApp the latest was read (the contact sees blue ticks). The path's id is the contact's. Permission contact-show."
)

const ConversationsGroupBase: AuthenticatedGroup<
  "conversations",
  | typeof ListContactMessagesEndpoint
  | typeof ReplyEndpoint
  | typeof ListConversationsEndpoint
  | typeof ReadConversationEndpoint
  | typeof DownloadAttachmentEndpoint
> = HttpApiGroup.make("conversations")
  .add(ListContactMessagesEndpoint)
  .add(ReplyEndpoint)
  .add(ListConversationsEndpoint)
  .add(ReadConversationEndpoint)
  .add(DownloadAttachmentEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Conversations with contacts over WhatsApp: each contact's messages both ways, the inbox, free-form replies inside the 24-hour window, read receipts and the files contacts sent."
  )

/**
 * Conversations: each contact's messages both ways, the inbox, replies within WhatsApp's 24-hour
 * customer-service window, and marking a conversation read. Reading needs contact-show, replying
 * broadcast-send.
 */
export class ConversationsGroup extends ConversationsGroupBase {}
