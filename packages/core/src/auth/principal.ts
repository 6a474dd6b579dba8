/** Who is calling: a token or a first-party session, acting in one account. */
import type { Ability, Permission } from "./permission.ts"

export interface Principal {
  readonly kind: "token" | "session"
  readonly accountId: number
  readonly userId: number
  /** The union of the user's team permissions in the account. */
  readonly permissions: ReadonlySet<Permission>
  /** Token abilities; a session has none of its own (it acts with the user's permissions). */
  readonly abilities: ReadonlyArray<Ability> | null
  readonly tokenId: number | null
  readonly sessionId: string | null
}

/** Token calls need the ability (or `*`) and the user's permission; sessions need the permission. */
export const allows = (principal: Principal, permission: Permission): boolean =>
  principal.permissions.has(permission) &&
  (principal.abilities === null || principal.abilities.includes("*") || principal.abilities.includes(permission))
