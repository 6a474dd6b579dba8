import { Effect, type Layer } from "effect"
import { type HttpRouter, HttpServerRequest } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { listNotifications, markNotificationRead, updateNotificationPreference } from "@wasl/core/Notifications"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest, paginated } from "../list-request.ts"
import { MODIFIED } from "../messages.ts"
import { lastEventId, makeStreamSlots, notificationStreamResponse, SseHeartbeat, StreamsPerUser } from "../notification-stream.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"
import { ServerClosing } from "../server-closing.ts"

const notificationId = (raw: string): number => /^[0-9]{1,15}$/.test(raw) ? Number(raw) : Number.NaN

/** The handlers of the `notifications` group: the caller's notifications, live or listed, and preferences. */
export const NotificationHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "notifications">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "notifications", (handlers) =>
  Effect.gen(function*() {
    const closing = yield* ServerClosing
    const heartbeat = yield* SseHeartbeat
    const slots = makeStreamSlots(yield* StreamsPerUser)
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const request = yield* listRequest
          return paginated(request, yield* domain(listNotifications(yield* CurrentPrincipal, request.input)))
        }))
      .handle("stream", () =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const principal = yield* CurrentPrincipal
          yield* slots.take(principal)
          return yield* notificationStreamResponse(
            principal,
            lastEventId(request.headers["last-event-id"]),
            { closing, heartbeat }
          )
        }))
      .handle("read", ({ params }) =>
        Effect.gen(function*() {
          return { data: yield* domain(markNotificationRead(yield* CurrentPrincipal, notificationId(params.id))) }
        }))
      .handle("preferences", ({ payload }) =>
        Effect.gen(function*() {
          return { data: yield* domain(updateNotificationPreference(yield* CurrentPrincipal, payload)), message: MODIFIED }
        }))
  }))
