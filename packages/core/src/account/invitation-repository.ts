import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Invitation, StoredInvitation } from "./invitation.ts"

/** What {@link InvitationRepositoryShape.create} needs to store an invitation. */
export interface NewInvitation {
  /** The account the invitee joins. */
  readonly accountId: number
  /** Where the link is mailed; the address the invitee's user has or gets. */
  readonly email: string
  /** The teams of the account the invitee joins. */
  readonly teamIds: ReadonlyArray<number>
  /** The member who invited. */
  readonly invitedBy: number
  /** Lowercase hex SHA-256 of the token the link carries; the token itself is never stored. */
  readonly tokenHash: string
  /** After this it cannot be accepted. */
  readonly expiresAt: DateTime.Utc
}

/** What the {@link InvitationRepository} port offers (implement this to write an adapter). */
export interface InvitationRepositoryShape {
  /** Stores the invitation. */
  readonly create: (input: NewInvitation) => Effect.Effect<Invitation>
  /** One page of the account's invitations neither accepted, revoked nor expired at `now`, newest first, and their total. */
  readonly listPending: (
    accountId: number,
    now: DateTime.Utc,
    page: { readonly offset: number; readonly limit: number }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<Invitation>; readonly total: number }>
  /** The invitation whose token hashes to `tokenHash`, in whatever state, or none. */
  readonly findByTokenHash: (tokenHash: string) => Effect.Effect<Option.Option<StoredInvitation>>
  /** Revokes a pending invitation of the account; true when there was one (accepted and revoked ones are left as they are). */
  readonly revoke: (accountId: number, id: number, now: DateTime.Utc) => Effect.Effect<boolean>
  /**
   * Marks the invitation accepted, provided it is still pending and not expired at `now`: true
   * when this call did so (of two racing acceptances only one gets true).
   */
  readonly accept: (accountId: number, id: number, now: DateTime.Utc) => Effect.Effect<boolean>
}

const InvitationRepositoryBase: Context.ServiceClass<
  InvitationRepository,
  "@wasl/core/InvitationRepository",
  InvitationRepositoryShape
> = Context.Service<InvitationRepository, InvitationRepositoryShape>()("@wasl/core/InvitationRepository")

/**
 * Invitations to join an account, found by the hash of their token (never the token).
 * Its operations: {@link InvitationRepositoryShape}.
 */
export class InvitationRepository extends InvitationRepositoryBase {}
