import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  broadcastJson,
  createBroadcast,
  createPlatform,
  getBroadcast,
  listBroadcasts,
  listPlatforms,
  sentMessageJson,
  platformJson,
  sendTemplate,
  syncBroadcasts
} from "@wasl/core/Messaging"
import { WaslApi } from "../api.ts"
import { domain, responses } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { CREATED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"
import { readSendBody } from "../send-body.ts"

/** The handlers of the `messaging` group: sending numbers, broadcasts and template sends (JSON or multipart). */
export const MessagingHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "messaging">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "messaging", (handlers) =>
  handlers
    .handle("listPlatforms", () =>
      Effect.gen(function*() {
        const platforms = yield* domain(listPlatforms(yield* CurrentPrincipal))
        return { data: platforms.map(platformJson) }
      }))
    .handle("createPlatform", ({ payload }) =>
      Effect.gen(function*() {
        const platform = yield* domain(createPlatform(yield* CurrentPrincipal, payload))
        return { data: platformJson(platform), message: CREATED }
      }))
    .handle("listBroadcasts", () =>
      Effect.gen(function*() {
        const broadcasts = yield* domain(listBroadcasts(yield* CurrentPrincipal))
        return { data: broadcasts.map(broadcastJson) }
      }))
    .handle("createBroadcast", ({ payload }) =>
      Effect.gen(function*() {
        const broadcast = yield* domain(createBroadcast(yield* CurrentPrincipal, payload))
        return { data: broadcastJson(broadcast), message: CREATED }
      }))
    .handle("syncBroadcasts", () =>
      Effect.gen(function*() {
        const broadcasts = yield* domain(syncBroadcasts(yield* CurrentPrincipal))
        return { data: broadcasts.map(broadcastJson) }
      }))
    .handle("showBroadcast", ({ params }) =>
      Effect.gen(function*() {
        return { data: broadcastJson(yield* domain(getBroadcast(yield* CurrentPrincipal, params.id))) }
      }))
    // Raw: the body is JSON or multipart (header[file]), read by send-body.ts.
    .handleRaw("send", ({ params, request }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const read = yield* readSendBody(request)
        if (read._tag === "MalformedJson") return responses.malformedJson()
        if (read._tag === "Refused") return responses.validation(read.errors)
        const { message, broadcast } = yield* domain(sendTemplate(principal, params.id, read.body, read.file))
        return { data: sentMessageJson(message, broadcast) }
      })))
