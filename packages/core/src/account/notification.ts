/**
 * Notifications kept for a user in an account (decisions §8): what `GET /api/notifications`
 * lists. A row is written for each channel set the user's preference enables: it is listed (and
 * counted unread) only when `stored` is on; `popup` and `browser` are flags the dashboard acts
 * on; `email` queues one mail, sent by the worker's mail loop (use-cases/notifications.ts).
 */
import { Schema } from "effect"
import { WireTimestamp } from "../wire/timestamp.ts"
import { NotificationName } from "./user.ts"

export const Notification = Schema.Struct({
  id: Schema.Int,
  type: NotificationName,
  data: Schema.Record(Schema.String, Schema.Unknown),
  popup: Schema.Boolean,
  browser: Schema.Boolean,
  read_at: Schema.NullOr(WireTimestamp),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "Notification" })
export type Notification = typeof Notification.Type

/** One mail waiting to be sent. */
export interface PendingEmail {
  readonly accountId: number
  readonly notificationId: number
  readonly to: string
  readonly subject: string
  readonly text: string
}
