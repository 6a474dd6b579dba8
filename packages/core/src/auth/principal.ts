/** Who is calling: a token or a first-party session, acting in one account. */
import type { Ability, Permission } from "./permission.ts"

/**
 * Who is calling, as `authenticateToken` or `authenticateSession` found it: an API token or a
 * first-party session, acting in one account. Every use-case that acts for a caller takes one.
 */
export interface Principal {
  /** How the caller authenticated. */
  readonly kind: "token" | "session"
  /** The account the caller acts in. */
  readonly accountId: number
  /** The user behind the token or session. */
  readonly userId: number
  /** The union of the user's team permissions in the account. */
  readonly permissions: ReadonlySet<Permission>
  /** Token abilities; a session has none of its own (it acts with the user's permissions). */
  readonly abilities: ReadonlyArray<Ability> | null
  /** The token's id; null for a session. */
  readonly tokenId: number | null
  /** The hash of the session cookie; null for a token. */
  readonly sessionId: string | null
}

/** Token calls need the ability (or `*`) and the user's permission; sessions need the permission. */
export const allows = (principal: Principal, permission: Permission): boolean =>
  principal.permissions.has(permission) &&
  (principal.abilities === null || principal.abilities.includes("*") || principal.abilities.includes(permission))

/**
 * Whether the caller may hand `ability` to a token it creates: no caller grants more than it
 * holds. `*` only from a session or a `*` token (it means "everything the user may do", which is
 * what they act with); any other ability only when the caller is allowed it itself (its user
 * holds the permission and its token carries it).
 */
export const mayGrant = (principal: Principal, ability: Ability): boolean =>
  ability === "*"
    ? principal.abilities === null || principal.abilities.includes("*")
    : allows(principal, ability)
