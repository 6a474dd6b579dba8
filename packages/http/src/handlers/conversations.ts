import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { listContactMessages, listConversations, markConversationRead, messageJson, replyToContact } from "@wasl/core"
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
      })))
