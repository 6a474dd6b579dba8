/** Users (spec §2.9), teams with permissions, notification preferences. */
import { Schema } from "effect"
import { Permission } from "../auth/permission.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import { AccountId, UserId } from "./account.ts"

export const User = Schema.Struct({
  id: UserId,
  email: Schema.String,
  email_verified_at: Schema.NullOr(WireTimestamp),
  firstname: Schema.String,
  lastname: Schema.String,
  image: Schema.NullOr(Schema.String),
  locale: Schema.String,
  contacts_view_id: Schema.NullOr(Schema.String),
  deals_view_id: Schema.NullOr(Schema.String),
  tickets_view_id: Schema.NullOr(Schema.String),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "User" })
export type User = typeof User.Type

export const TeamId = Schema.Int.check(Schema.isGreaterThan(0))

export const Team = Schema.Struct({
  id: TeamId,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  made_by: Schema.NullOr(UserId),
  created_at: WireTimestamp,
  updated_at: WireTimestamp,
  account_id: AccountId,
  pivot: Schema.Struct({
    user_id: UserId,
    team_id: TeamId,
    created_at: WireTimestamp,
    updated_at: WireTimestamp
  }),
  permissions: Schema.Array(Permission)
}).annotate({ identifier: "Team" })
export type Team = typeof Team.Type

/** Every preference name the product knows; missing ones default to all channels on (decisions §8). */
export const NOTIFICATION_NAMES = [
  "IncomingMessage",
  "ObjectsExport",
  "ObjectsImport",
  "WhatsappTemplateStatusChanged",
  "WhatsappBroadcastCompleted",
  "WhatsappTemplateCategoryChanged",
  "WebhookDeactivated"
] as const
export const NotificationName = Schema.Literals(NOTIFICATION_NAMES)
export type NotificationName = typeof NotificationName.Type

export const NotificationChannels = Schema.Struct({
  stored: Schema.Boolean,
  popup: Schema.Boolean,
  browser: Schema.Boolean,
  email: Schema.Boolean
})

export const NotificationPreference = Schema.Struct({
  name: NotificationName,
  ...NotificationChannels.fields,
  id: Schema.optionalKey(Schema.Int),
  user_id: Schema.optionalKey(UserId),
  account_id: Schema.optionalKey(AccountId),
  created_at: Schema.optionalKey(WireTimestamp),
  updated_at: Schema.optionalKey(WireTimestamp)
}).annotate({ identifier: "NotificationPreference" })
export type NotificationPreference = typeof NotificationPreference.Type

export const defaultPreference = (name: NotificationName): NotificationPreference => ({
  name,
  stored: true,
  popup: true,
  browser: true,
  email: true
})

/** The stored preferences, completed with defaults for every name never stored, in a stable order. */
export const withDefaultPreferences = (
  stored: ReadonlyArray<NotificationPreference>
): Array<NotificationPreference> =>
  NOTIFICATION_NAMES.map((name) => stored.find((p) => p.name === name) ?? defaultPreference(name))
