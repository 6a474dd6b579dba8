import { Effect, type Layer } from "effect"
import { HttpServerResponse, type HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  downloadAttachment,
  listContactMessages,
  listConversations,
  markConversationRead,
  messageJson,
  replyToContact
} from "@wasl/core/Messaging"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `conversations` group: a contact's messages, the inbox, replies and read receipts. */
export const ConversationHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "conversations">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "conversations", (handlers) =>
  handlers
    .handle("listContactMessages", ({ params }) =>
      Effect.gen(function*() {
        const request = yield* listRequest
        const page = yield* domain(listContactMessages(yield* CurrentPrincipal, params.id, request.input))
        return paginated(request, { ...page, items: page.items.map(messageJson) })
      }))
    .handle("reply", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: messageJson(yield* domain(replyToContact(yield* CurrentPrincipal, params.id, payload))) }
      }))
    .handle("listConversations", () =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return paginated(request, yield* domain(listConversations(yield* CurrentPrincipal, request.input)))
      }))
    .handle("readConversation", ({ params }) =>
      Effect.gen(function*() {
        return { data: yield* domain(markConversationRead(yield* CurrentPrincipal, params.id)) }
      }))
    .handle("downloadAttachment", ({ params }) =>
      Effect.gen(function*() {
        const file = yield* domain(downloadAttachment(yield* CurrentPrincipal, params.id, params.index))
        return HttpServerResponse.uint8Array(file.bytes, {
          contentType: file.mimeType,
          headers: {
            "content-disposition": contentDisposition(file.filename),
            "cache-control": "private, no-store",
            // The type is the sender's word: a browser must not guess another (HTML) from the bytes.
            "x-content-type-options": "nosniff"
          }
        })
      })))

/**
 * `attachment` with the file name twice: an ASCII fallback (anything else, quotes and
 * backslashes `_`) and the exact name in RFC 5987 form.
 */
const contentDisposition = (filename: string): string => {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_")
  return `attachment; filename="${fallback}"; filename*=UTF-8''${
    encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  }`
}
