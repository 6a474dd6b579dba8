/** Permission names (decisions §2). A user holds the union of its teams' permissions in an account. */
import { Schema } from "effect"

export const OBJECT_KINDS = ["contact", "company", "deal", "ticket", "invoice", "product"] as const
export type ObjectKind = typeof OBJECT_KINDS[number]

const RECORD_ACTIONS = ["index", "show", "create", "update", "delete"] as const

export const PERMISSIONS = [
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
  "token-manage"
] as const

export const Permission = Schema.Literals(PERMISSIONS)
export type Permission = typeof Permission.Type

/** A token ability: a permission name, or `*` for all of them. */
export const Ability = Schema.Union([Permission, Schema.Literal("*")])
export type Ability = typeof Ability.Type
