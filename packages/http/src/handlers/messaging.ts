import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  broadcastJson,
  createBroadcast,
  createPlatform,
  getBroadcast,
  listBroadcasts,
  listPlatforms,
  messageJson,
  platformJson,
  sendTemplate
} from "@wasl/core"
import { WaslApi } from "../api.ts"
import { domain, responses } from "../errors.ts"
import { CREATED } from "../messages.ts"
import { CurrentPrincipal } from "../security.ts"
import { readSendBody } from "../send-body.ts"

export const MessagingHandlers = HttpApiBuilder.group(WaslApi, "messaging", (handlers) =>
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
        const { message, broadcast } = yield* domain(sendTemplate(principal, params.id, read.body, read.file))
        return { data: messageJson(message, broadcast) }
      })))
