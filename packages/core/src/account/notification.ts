/**
 * Notifications kept for a user in an account: what `GET /api/notifications` lists. A row is
 * written for each channel set the user's preference enables: it is listed (and counted unread)
 * only when `stored` is on; `popup` and `browser` are flags the dashboard acts on; `email` queues
 * one mail, sent by the worker's mail loop (`sendPendingEmails`).
 */
import { Schema } from "effect"
import { WireTimestamp } from "../wire/timestamp.ts"
import { NotificationName } from "./user.ts"

/** A notification kept for a user, as `GET /api/notifications` lists it. */
export const Notification: Schema.Struct<{
  readonly id: Schema.Int
  readonly type: typeof NotificationName
  readonly data: Schema.$Record<Schema.String, Schema.Unknown>
  readonly popup: Schema.Boolean
  readonly browser: Schema.Boolean
  readonly read_at: Schema.NullOr<typeof WireTimestamp>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct({
  id: Schema.Int,
  type: NotificationName,
  data: Schema.Record(Schema.String, Schema.Unknown),
  popup: Schema.Boolean,
  browser: Schema.Boolean,
  read_at: Schema.NullOr(WireTimestamp),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "Notification" })
/** A notification kept for a user. */
export type Notification = typeof Notification.Type

/** One mail waiting to be sent. */
export interface PendingEmail {
  /** The account of the notification. */
  readonly accountId: number
  /** The notification the mail is for. */
  readonly notificationId: number
  /** The recipient's address. */
  readonly to: string
  /** The subject line. */
  readonly subject: string
  /** The plain-text body. */
  readonly text: string
}
