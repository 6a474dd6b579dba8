/** Permission names. A user holds the union of its teams' permissions in an account. */
import { Schema } from "effect"
import { OBJECT_KINDS, type ObjectKind } from "../object-kinds.ts"

const RECORD_ACTIONS = ["index", "show", "create", "update", "delete"] as const

/** The permission on one action over the records of one kind, e.g. `deal-update`. */
export type RecordPermission = `${ObjectKind}-${"index" | "show" | "create" | "update" | "delete"}`

/** Every permission: webhooks, records of each kind, properties, messaging, tokens, the account's members, teams and settings. */
export const PERMISSIONS: readonly [
  "webhook-index",
  "webhook-create",
  "webhook-update",
  "webhook-delete",
  ...Array<RecordPermission>,
  "property-manage",
  "broadcast-index",
  "broadcast-manage",
  "broadcast-send",
  "broadcast-send-otp",
  "token-manage",
  "member-manage",
  "team-manage",
  "account-manage"
] = [
  "webhook-index",
  "webhook-create",
  "webhook-update",
  "webhook-delete",
  ...OBJECT_KINDS.flatMap((kind) => RECORD_ACTIONS.map((action) => `${kind}-${action}` as const)),
  "property-manage",
  "broadcast-index",
  "broadcast-manage",
  "broadcast-send",
  "broadcast-send-otp",
  "token-manage",
  "member-manage",
  "team-manage",
  "account-manage"
] as const

/** A permission name, one of {@link PERMISSIONS}. */
export const Permission: Schema.Literals<typeof PERMISSIONS> = Schema.Literals(PERMISSIONS)
/** A permission name, one of {@link PERMISSIONS}. */
export type Permission = typeof Permission.Type

/** A token ability: a permission name, or `*` for all of them. */
export const Ability: Schema.Union<readonly [typeof Permission, Schema.Literal<"*">]> = Schema.Union([
  Permission,
  Schema.Literal("*")
])
/** A token ability: a permission name, or `*` for all of them. */
export type Ability = typeof Ability.Type

/** Every ability a token can hold: each permission, and `*`. A token holds each at most once. */
export const ABILITIES: ReadonlyArray<Ability> = [...PERMISSIONS, "*"]
