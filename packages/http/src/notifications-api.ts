/** The caller's notifications and notification preferences. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Notification, NotificationPreference } from "@wasl/core"
import { type AuthenticatedGroup, commonErrors, DataAnswer, DataMessageAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
import { PAGE_PARAMETERS, withQueryParameters } from "./list-query-openapi.ts"
import { Pagination } from "./list-request.ts"
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

/** @ignore */
export const NotificationsGroupBase: AuthenticatedGroup<
  "notifications",
  typeof ListNotificationsEndpoint | typeof ReadNotificationEndpoint | typeof UpdateNotificationPreferenceEndpoint
> = HttpApiGroup.make("notifications")
  .add(ListNotificationsEndpoint)
  .add(ReadNotificationEndpoint)
  .add(UpdateNotificationPreferenceEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "The caller's notifications in the current account, and the channels each notification uses."
  )

/** The caller's notifications (list, mark read) and which channels each notification uses. */
export class NotificationsGroup extends NotificationsGroupBase {}
