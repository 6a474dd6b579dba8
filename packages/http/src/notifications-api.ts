/** The caller's notifications and notification preferences. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotificationPreference } from "@wasl/core/Accounts"
import { Notification } from "@wasl/core/Notifications"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
import type { CommonErrors } from "./errors.ts"
import { TooManyRequests429WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"


/**
 * The body of `PUT /api/me/notification-preferences`: `{ name, stored, popup, browser, email }`,
 * a notification name and whether it goes to each of its four channels. Validated by the
 * use-case, which answers Laravel's messages.
 */
export const NotificationPreferenceBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(
  Schema.String,
  Schema.Unknown
).annotate({
  description: "{ name, stored, popup, browser, email }: a notification name and its four channels"
})

/** `GET /api/notifications`: the caller's notifications in the current account, newest first, paginated. */
export const ListNotificationsEndpoint: WaslEndpoint<"list", "GET", "/notifications", {
  success: Pagination<typeof Notification>
}> = HttpApiEndpoint.get("list", "/notifications", {
  success: Pagination(Notification),
  error: commonErrors
}).annotate(OpenApi.Summary, "List your notifications").annotate(
  OpenApi.Description,
  "The caller's stored notifications in the current account, newest first, one page at a time."
).annotate(OpenApi.Transform, withQueryParameters(PAGE_PARAMETERS))

/**
 * One event of `GET /api/notifications/stream`: a `message` whose `id` is the notification's id
 * (what `Last-Event-ID` resumes after) and whose data is the notification as the list shows it.
 */
export const NotificationEvent: Schema.Struct<{
  readonly id: Schema.String
  readonly event: Schema.Literal<"message">
  readonly data: Schema.fromJsonString<Schema.toCodecJson<typeof Notification>>
}> = Schema.Struct({
  id: Schema.String,
  event: Schema.Literal("message"),
  data: Schema.fromJsonString(Schema.toCodecJson(Notification))
}).annotate({ identifier: "NotificationEvent" })

/** The body of `GET /api/notifications/stream`: Server-Sent Events, one per notification. */
export const NotificationEvents: HttpApiSchema.StreamSse<typeof NotificationEvent, Schema.Never> = HttpApiSchema.StreamSse({
  events: NotificationEvent
})

/**
 * The stream's operation as documented: the `Last-Event-ID` header it resumes after, and its 200
 * without Effect's `x-effect-stream` note, which describes a failure event this stream never sends.
 */
const documentStream = (operation: Record<string, any>): Record<string, any> => {
  const { "x-effect-stream": _ignored, ...content } = operation["responses"]["200"]["content"]["text/event-stream"]
  return {
    ...operation,
    parameters: [...(operation["parameters"] ?? []), {
      name: "Last-Event-ID",
      in: "header",
      required: false,
      description: "The id of the last event received: the unread notifications stored after it are sent first.",
      schema: { type: "string", pattern: "^[0-9]{1,15}$" }
    }],
    responses: {
      ...operation["responses"],
      "200": {
        ...operation["responses"]["200"],
        content: { "text/event-stream": content }
      }
    }
  }
}

/** `GET /api/notifications/stream`: the caller's new popup and browser notifications, live. */
export const StreamNotificationsEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "stream",
  "GET",
  "/notifications/stream",
  never,
  never,
  never,
  never,
  typeof NotificationEvents,
  Schema.toCodecJson<CommonErrors | typeof TooManyRequests429WithRetryAfter>
> = HttpApiEndpoint.get("stream", "/notifications/stream", {
  success: NotificationEvents,
  error: [...commonErrors, TooManyRequests429WithRetryAfter]
}).annotate(OpenApi.Summary, "Receive your notifications live").annotate(
  OpenApi.Description,
  "Server-Sent Events (text/event-stream) for as long as the connection stays open: each new notification of the caller in the current account whose popup or browser channel is on, as a `message` event whose data is the notification as the list shows it and whose `id` is the notification's id. A comment line is sent every 15 seconds to keep the connection open. A client that reconnects with `Last-Event-ID` (EventSource does so by itself) first receives the unread ones stored after that id, at most the newest 50. Counts once against the rate limit, when it connects. A user holds at most 10 streams open at once (the server's WASL_STREAMS_PER_USER; its sessions and tokens together, counted by each server process): one more is a 429 with Retry-After until one of them closes."
).annotate(OpenApi.Transform, documentStream)

/** `POST /api/notifications/:id/read`: marks one of the caller's notifications read. */
export const ReadNotificationEndpoint: WaslEndpoint<"read", "POST", "/notifications/:id/read", {
  params: PathParams<{ id: Schema.String }>; success: DataAnswer<typeof Notification>
}> = HttpApiEndpoint.post("read", "/notifications/:id/read", {
  params: { id: Schema.String },
  success: DataAnswer(Notification),
  error: commonErrors
}).annotate(OpenApi.Summary, "Mark a notification read").annotate(
  OpenApi.Description,
  "Marks one notification read; the first read time is kept."
)

/** `PUT /api/me/notification-preferences`: sets the channels of one notification for the caller. */
export const UpdateNotificationPreferenceEndpoint: WaslEndpoint<"preferences", "PUT", "/me/notification-preferences", {
  payload: typeof NotificationPreferenceBody; success: DataMessageAnswer<typeof NotificationPreference>
}> = HttpApiEndpoint.put("preferences", "/me/notification-preferences", {
  payload: NotificationPreferenceBody,
  success: DataMessageAnswer(NotificationPreference),
  error: commonErrors
}).annotate(OpenApi.Summary, "Set a notification's channels").annotate(
  OpenApi.Description,
  "Chooses, for one notification name, the channels it uses: stored (the list), popup, browser and email. Every channel is on until the user says otherwise."
)

const NotificationsGroupBase: AuthenticatedGroup<
  "notifications",
  | typeof ListNotificationsEndpoint
  | typeof StreamNotificationsEndpoint
  | typeof ReadNotificationEndpoint
  | typeof UpdateNotificationPreferenceEndpoint
> = HttpApiGroup.make("notifications")
  .add(ListNotificationsEndpoint)
  .add(StreamNotificationsEndpoint)
  .add(ReadNotificationEndpoint)
  .add(UpdateNotificationPreferenceEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The caller's notifications in the current account, live or as a list, and the channels each notification uses."
  )

/** The caller's notifications (list, mark read) and which channels each notification uses. */
export class NotificationsGroup extends NotificationsGroupBase {}
