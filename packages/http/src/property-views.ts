/**
 * The REST shapes of property definitions and groups (spec §2.5, §2.6): the
 * definition plus the creating `user`, its `group` and, for groups and ticket
 * properties, the `account`.
 */
import { Effect, Option, Schema } from "effect"
import {
  Account,
  AccountRepository,
  BUILTIN_GROUPS,
  type ObjectKind,
  Property,
  PropertyGroup,
  type PropertyDefinition,
  type PropertyGroupDefinition,
  PropertyGroupRepository,
  type RecordId,
  User,
  UserRepository
} from "@wasl/core"

const { webhook_limit: _internal, ...accountFields } = Account.fields
export const AccountSummary = Schema.Struct(accountFields).annotate({ identifier: "AccountSummary" })

export const UserSummary = Schema.Struct({ ...User.fields, fullname: Schema.String }).annotate({
  identifier: "UserSummary"
})

export const PropertyGroupView = Schema.Struct({
  ...PropertyGroup.fields,
  user: Schema.optionalKey(Schema.NullOr(UserSummary)),
  account: Schema.optionalKey(Schema.NullOr(AccountSummary))
}).annotate({ identifier: "PropertyGroupView" })

export const PropertyView = Schema.Struct({
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

export const accountSummary = (accountId: number) =>
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
export const propertyView = (accountId: number, definition: PropertyDefinition) =>
  Effect.gen(function*() {
    const { kind, builtin: _builtin, readOnly: _readOnly, required: _required, ...property } = definition
    const group = yield* groupOf(accountId, kind, definition.group_id)
    const base = { ...property, user: yield* userSummary(definition.made_by), group: group === null ? null : wireGroup(group) }
    return kind === "ticket" ? { ...base, account: yield* accountSummary(accountId) } : base
  })

/** A group, with its user and account when `withOwners` (create and update responses). */
export const groupView = (accountId: number, group: PropertyGroupDefinition, withOwners: boolean) =>
  withOwners
    ? Effect.gen(function*() {
      return { ...wireGroup(group), user: yield* userSummary(group.made_by), account: yield* accountSummary(accountId) }
    })
    : Effect.succeed(wireGroup(group))
