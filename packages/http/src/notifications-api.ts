/** The caller's notifications and notification preferences. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Notification, NotificationPreference } from "@wasl/core"
import { type CommonErrors, Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

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
export const ListNotificationsEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "list",
  "GET",
  "/notifications",
  never,
  never,
  never,
  never,
  Schema.toCodecJson<Pagination<typeof Notification>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.get("list", "/notifications", {
  success: Pagination(Notification),
  error: errors
}).annotate(OpenApi.Description, "The caller's stored notifications in the current account, newest first (page, per_page).")

/** `POST /api/notifications/:id/read`: marks one of the caller's notifications read. */
export const ReadNotificationEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "read",
  "POST",
  "/notifications/:id/read",
  Schema.toCodecStringTree<Schema.Struct<{ id: Schema.String }>>,
  never,
  never,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof Notification }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.post("read", "/notifications/:id/read", {
  params: { id: Schema.String },
  success: Schema.Struct({ data: Notification }),
  error: errors
}).annotate(OpenApi.Description, "Marks one notification read; the first read time is kept.")

/** `PUT /api/me/notification-preferences`: sets the channels of one notification for the caller. */
export const UpdateNotificationPreferenceEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "preferences",
  "PUT",
  "/me/notification-preferences",
  never,
  never,
  Schema.toCodecJson<typeof NotificationPreferenceBody>,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof NotificationPreference; readonly message: Schema.String }>>,
  Schema.toCodecJson<CommonErrors>
> = HttpApiEndpoint.put("preferences", "/me/notification-preferences", {
  payload: NotificationPreferenceBody,
  success: Schema.Struct({ data: NotificationPreference, message: Schema.String }),
  error: errors
}).annotate(
  OpenApi.Description,
  "Chooses, for one notification name, the channels it uses: stored (the list), popup, browser and email. Every channel is on until the user says otherwise."
)

/** @ignore */
export const NotificationsGroupBase: HttpApiGroup.AddPrefix<
  HttpApiGroup.AddMiddleware<
    HttpApiGroup.HttpApiGroup<
      "notifications",
      typeof ListNotificationsEndpoint | typeof ReadNotificationEndpoint | typeof UpdateNotificationPreferenceEndpoint
    >,
    Authentication
  >,
  "/api"
> = HttpApiGroup.make("notifications")
  .add(ListNotificationsEndpoint)
  .add(ReadNotificationEndpoint)
  .add(UpdateNotificationPreferenceEndpoint)
  .middleware(Authentication)
  .prefix("/api")

/** The caller's notifications (list, mark read) and which channels each notification uses. */
export class NotificationsGroup extends NotificationsGroupBase {}
