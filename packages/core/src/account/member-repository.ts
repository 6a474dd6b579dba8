import { Context, type Effect, type Option } from "effect"
import type { Member, Roster } from "./member.ts"

/** What the {@link MemberRepository} port offers (implement this to write an adapter). */
export interface MemberRepositoryShape {
  /** One page of the account's members (active and suspended), by when they joined, and how many there are. */
  readonly list: (
    accountId: number,
    page: { readonly offset: number; readonly limit: number }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<Member>; readonly total: number }>
  /** The member, or none when the user is not a member of the account. */
  readonly find: (accountId: number, userId: number) => Effect.Effect<Option.Option<Member>>
  /**
   * Every member with its teams and every team with its permissions. Inside a transaction the
   * account's memberships stay locked until it ends, so two changes of who holds what in one
   * account are decided one after the other.
   */
  readonly roster: (accountId: number) => Effect.Effect<Roster>
  /** Sets an existing member's status; its sessions and tokens there work again only while `active`. */
  readonly setStatus: (accountId: number, userId: number, status: "active" | "suspended") => Effect.Effect<void>
  /** Makes the member's teams in the account exactly `teamIds` (teams of that account). */
  readonly setTeams: (accountId: number, userId: number, teamIds: ReadonlyArray<number>) => Effect.Effect<void>
  /**
   * Removes the user from the account, and with the membership its teams, tokens, sessions,
   * notification preferences, notifications and chosen views there. True when there was such a member.
   */
  readonly remove: (accountId: number, userId: number) => Effect.Effect<boolean>
}

const MemberRepositoryBase: Context.ServiceClass<MemberRepository, "@wasl/core/MemberRepository", MemberRepositoryShape> =
  Context.Service<MemberRepository, MemberRepositoryShape>()("@wasl/core/MemberRepository")

/**
 * The members of an account as its administrators manage them: who they are, their status and
 * teams. Its operations: {@link MemberRepositoryShape}.
 */
export class MemberRepository extends MemberRepositoryBase {}
