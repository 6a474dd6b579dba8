/** The caller's notifications and notification preferences (decisions §8). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Notification, NotificationPreference } from "@wasl/core"
import { Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import { Pagination } from "./list-request.ts"
import { Authentication } from "./security.ts"

const errors = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

export class NotificationsGroup extends HttpApiGroup.make("notifications")
  .add(HttpApiEndpoint.get("list", "/notifications", {
    success: Pagination(Notification),
    error: errors
  }).annotate(OpenApi.Description, "The caller's stored notifications in the current account, newest first (page, per_page)."))
  .add(HttpApiEndpoint.post("read", "/notifications/:id/read", {
    params: { id: Schema.String },
    success: Schema.Struct({ data: Notification }),
    error: errors
  }).annotate(OpenApi.Description, "Marks one notification read; the first read time is kept."))
  .add(HttpApiEndpoint.put("preferences", "/me/notification-preferences", {
    payload: Schema.Record(Schema.String, Schema.Unknown).annotate({
      description: "{ name, stored, popup, browser, email }: a notification name and its four channels"
    }),
    success: Schema.Struct({ data: NotificationPreference, message: Schema.String }),
    error: errors
  }))
  .middleware(Authentication)
  .prefix("/api")
{}
