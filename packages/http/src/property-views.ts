/**
 * The REST shapes of property definitions and groups: the definition plus the
 * creating `user`, its `group` and, for groups and ticket properties, the `account`.
 */
import { Effect, Option, Schema } from "effect"
import { Account, AccountRepository, User, UserRepository } from "@wasl/core/Accounts"
import {
  BUILTIN_GROUPS,
  type ObjectKind,
  Property,
  PropertyGroup,
  type PropertyDefinition,
  type PropertyGroupDefinition,
  PropertyGroupRepository
} from "@wasl/core/Records"
import { type RecordId } from "@wasl/core/Wire"

const { webhook_limit: _internal, ...accountFields } = Account.fields
/** An account as property answers embed it: the account without its internal webhook limit. */
export const AccountSummary: Schema.Struct<Omit<(typeof Account)["fields"], "webhook_limit">> = Schema.Struct(accountFields)
  .annotate({ identifier: "AccountSummary" })

/** A user as property answers embed it (the definition's creator): the user plus `fullname`. */
export const UserSummary: Schema.Struct<(typeof User)["fields"] & { readonly fullname: Schema.String }> = Schema.Struct({
  ...User.fields,
  fullname: Schema.String
}).annotate({
  identifier: "UserSummary"
})

/**
 * A property group as the API answers it: the group, and on create and update its creating
 * `user` and its `account`.
 */
export const PropertyGroupView: Schema.Struct<
  (typeof PropertyGroup)["fields"] & {
    readonly user: Schema.optionalKey<Schema.NullOr<typeof UserSummary>>
    readonly account: Schema.optionalKey<Schema.NullOr<typeof AccountSummary>>
  }
> = Schema.Struct({
  ...PropertyGroup.fields,
  user: Schema.optionalKey(Schema.NullOr(UserSummary)),
  account: Schema.optionalKey(Schema.NullOr(AccountSummary))
}).annotate({ identifier: "PropertyGroupView" })

/** A property definition as the API answers it: with its creating `user`, its `group` and, for tickets, the `account`. */
export const PropertyView: Schema.Struct<
  (typeof Property)["fields"] & {
    readonly user: Schema.NullOr<typeof UserSummary>
    readonly group: Schema.NullOr<typeof PropertyGroup>
    readonly account: Schema.optionalKey<Schema.NullOr<typeof AccountSummary>>
  }
> = Schema.Struct({
  ...Property.fields,
  user: Schema.NullOr(UserSummary),
  group: Schema.NullOr(PropertyGroup),
  account: Schema.optionalKey(Schema.NullOr(AccountSummary))
}).annotate({ identifier: "PropertyView" })

const userSummary = (userId: number | null) =>
  userId === null
    ? Effect.succeed(null)
    : Effect.map(UserRepository.use((users) => users.findById(userId)), (user) =>
      Option.match(user, {
        onNone: () => null,
        onSome: (u) => ({ ...u, fullname: [u.firstname, u.lastname].filter((s) => s !== "").join(" ") })
      }))

/** The account as `AccountSummary` shows it, or null when there is none. */
export const accountSummary = (accountId: number): Effect.Effect<typeof AccountSummary.Type | null, never, AccountRepository> =>
  Effect.map(AccountRepository.use((accounts) => accounts.findById(accountId)), (account) =>
    Option.match(account, {
      onNone: () => null,
      onSome: ({ webhook_limit: _limit, ...rest }) => rest
    }))

const groupOf = (accountId: number, kind: ObjectKind, groupId: RecordId) =>
  groupId === BUILTIN_GROUPS[kind]._id
    ? Effect.succeed(BUILTIN_GROUPS[kind] as PropertyGroupDefinition)
    : Effect.map(PropertyGroupRepository.use((groups) => groups.findById(accountId, kind, groupId)), Option.getOrNull)

const wireGroup = ({ kind: _kind, builtin: _builtin, ...group }: PropertyGroupDefinition) => group

/** A definition with its user, group (and account, for tickets). */
export const propertyView = (
  accountId: number,
  definition: PropertyDefinition
): Effect.Effect<typeof PropertyView.Type, never, UserRepository | PropertyGroupRepository | AccountRepository> =>
  Effect.gen(function*() {
    const { kind, builtin: _builtin, readOnly: _readOnly, required: _required, ...property } = definition
    const group = yield* groupOf(accountId, kind, definition.group_id)
    const base = { ...property, user: yield* userSummary(definition.made_by), group: group === null ? null : wireGroup(group) }
    return kind === "ticket" ? { ...base, account: yield* accountSummary(accountId) } : base
  })

/** A group, with its user and account when `withOwners` (create and update responses). */
export const groupView = (
  accountId: number,
  group: PropertyGroupDefinition,
  withOwners: boolean
): Effect.Effect<typeof PropertyGroupView.Type, never, UserRepository | AccountRepository> =>
  withOwners
    ? Effect.gen(function*() {
      return { ...wireGroup(group), user: yield* userSummary(group.made_by), account: yield* accountSummary(accountId) }
    })
    : Effect.succeed(wireGroup(group))
