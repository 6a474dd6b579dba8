/**
 * What the signed-in member may do in the current account: the union of their teams'
 * permissions there, as `GET /api/me` lists them. Menus and buttons follow it; the API decides.
 */
import type { Kind, Schemas } from "../api/client"
import { useMe } from "./session"

export type Permission = Schemas["TeamDetails"]["permissions"][number]

/** The record permission of a kind's list (`deal-index` for deals). */
const SINGULAR: Readonly<Record<Kind, string>> = {
  contacts: "contact",
  companies: "company",
  deals: "deal",
  tickets: "ticket",
  invoices: "invoice",
  products: "product"
}

/** The actions a record permission names, in the order lists of permissions show them. */
export const RECORD_ACTIONS = ["index", "show", "create", "update", "delete"] as const
export type RecordAction = typeof RECORD_ACTIONS[number]

/** The record kinds as permissions name them (`deal`), in the order of the API's kinds. */
export const RECORD_OBJECTS: ReadonlyArray<string> = Object.values(SINGULAR)

export const kindPermission = (kind: Kind, action: RecordAction): Permission =>
  `${SINGULAR[kind]}-${action}` as Permission

export const permissionsOf = (me: Schemas["CurrentUser"]): ReadonlySet<Permission> =>
  new Set(me.teams.flatMap((team) => team.permissions))

/** Whether the signed-in member holds a permission (always true for `undefined`: nothing needed). */
export const usePermission = (): ((permission: Permission | undefined) => boolean) => {
  const held = permissionsOf(useMe())
  return (permission) => permission === undefined || held.has(permission)
}
