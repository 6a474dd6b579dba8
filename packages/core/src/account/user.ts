/** Users, teams with permissions, notification preferences. */
import { Schema } from "effect"
import { Permission } from "../auth/permission.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import { AccountId, UserId } from "./account.ts"

/** A user: a person who signs in, member of one or more accounts. */
export const User: Schema.Struct<{
  readonly id: Schema.Int
  readonly email: Schema.String
  readonly email_verified_at: Schema.NullOr<typeof WireTimestamp>
  readonly firstname: Schema.String
  readonly lastname: Schema.String
  readonly image: Schema.NullOr<Schema.String>
  readonly locale: Schema.String
  readonly contacts_view_id: Schema.NullOr<Schema.String>
  readonly deals_view_id: Schema.NullOr<Schema.String>
  readonly tickets_view_id: Schema.NullOr<Schema.String>
  readonly change_email_to: Schema.NullOr<Schema.String>
  readonly two_factor_confirmed_at: Schema.NullOr<typeof WireTimestamp>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct({
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
  /** The address the user asked to change their e-mail to, until they follow the link mailed to it; null otherwise. */
  change_email_to: Schema.NullOr(Schema.String),
  /** When the user turned two-factor authentication on; null while it is off. */
  two_factor_confirmed_at: Schema.NullOr(WireTimestamp),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "User" })
/** A user: a person who signs in, member of one or more accounts. */
export type User = typeof User.Type

/** A team's id: a positive integer. */
export const TeamId: Schema.Int = Schema.Int.check(Schema.isGreaterThan(0))

/** A team of an account: its members hold its permissions in that account. `pivot` is the user's membership of it. */
export const Team: Schema.Struct<{
  readonly id: Schema.Int
  readonly name: Schema.String
  readonly description: Schema.NullOr<Schema.String>
  readonly made_by: Schema.NullOr<Schema.Int>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
  readonly account_id: Schema.Int
  readonly pivot: Schema.Struct<{
    readonly user_id: Schema.Int
    readonly team_id: Schema.Int
    readonly created_at: typeof WireTimestamp
    readonly updated_at: typeof WireTimestamp
  }>
  readonly permissions: Schema.$Array<typeof Permission>
}> = Schema.Struct({
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
/** A team of an account: its members hold its permissions in that account. */
export type Team = typeof Team.Type

/** Every preference name the product knows; missing ones default to all channels on. */
export const NOTIFICATION_NAMES = [
  "IncomingMessage",
  "ObjectsExport",
  "ObjectsImport",
  "WhatsappTemplateStatusChanged",
  "WhatsappBroadcastCompleted",
  "WhatsappTemplateCategoryChanged",
  "WebhookDeactivated"
] as const
/** A notification's name, one of {@link NOTIFICATION_NAMES}. */
export const NotificationName: Schema.Literals<typeof NOTIFICATION_NAMES> = Schema.Literals(NOTIFICATION_NAMES)
/** A notification's name, one of {@link NOTIFICATION_NAMES}. */
export type NotificationName = typeof NotificationName.Type

/**
 * The channels of a notification: `stored` lists it (and counts it unread), `popup` and `browser`
 * are flags the dashboard acts on, `email` sends a mail.
 */
export const NotificationChannels: Schema.Struct<{
  readonly stored: Schema.Boolean
  readonly popup: Schema.Boolean
  readonly browser: Schema.Boolean
  readonly email: Schema.Boolean
}> = Schema.Struct({
  stored: Schema.Boolean,
  popup: Schema.Boolean,
  browser: Schema.Boolean,
  email: Schema.Boolean
})
/** Which channels of a notification are on. */
export type NotificationChannels = typeof NotificationChannels.Type

/** A user's choice of channels for one notification name in one account (the stored keys only once stored). */
export const NotificationPreference: Schema.Struct<{
  readonly stored: Schema.Boolean
  readonly popup: Schema.Boolean
  readonly browser: Schema.Boolean
  readonly email: Schema.Boolean
  readonly name: typeof NotificationName
  readonly id: Schema.optionalKey<Schema.Int>
  readonly user_id: Schema.optionalKey<Schema.Int>
  readonly account_id: Schema.optionalKey<Schema.Int>
  readonly created_at: Schema.optionalKey<typeof WireTimestamp>
  readonly updated_at: Schema.optionalKey<typeof WireTimestamp>
}> = Schema.Struct({
  name: NotificationName,
  ...NotificationChannels.fields,
  id: Schema.optionalKey(Schema.Int),
  user_id: Schema.optionalKey(UserId),
  account_id: Schema.optionalKey(AccountId),
  created_at: Schema.optionalKey(WireTimestamp),
  updated_at: Schema.optionalKey(WireTimestamp)
}).annotate({ identifier: "NotificationPreference" })
/** A user's choice of channels for one notification name in one account. */
export type NotificationPreference = typeof NotificationPreference.Type

/** The preference of a name never stored: every channel on. */
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
