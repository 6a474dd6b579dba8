import { Context, type DateTime, type Effect, type Option } from "effect"

/** A first-party session as stored. */
export interface StoredSession {
  /** SHA-256 (hex) of the cookie value; the value itself is never stored. */
  readonly idHash: string
  /** The account the session acts in. */
  readonly accountId: number
  /** The user logged in. */
  readonly userId: number
  /** When the session stops being accepted. */
  readonly expiresAt: DateTime.Utc
}

/** What the {@link SessionRepository} port offers (implement this to write an adapter). */
export interface SessionRepositoryShape {
  /** Stores a new session. */
  readonly create: (session: StoredSession) => Effect.Effect<void>
  /** The session with that cookie hash, or none (an expired one is still found; the caller checks). */
  readonly find: (idHash: string) => Effect.Effect<Option.Option<StoredSession>>
  /** Removes the session; nothing happens when there is none. */
  readonly remove: (idHash: string) => Effect.Effect<void>
  /** Removes every session of the user, in every account, but the one whose hash is `keepIdHash` (when given). */
  readonly removeOthersOfUser: (userId: number, keepIdHash: string | null) => Effect.Effect<void>
  /**
   * Moves the session to another account of its user (who must be a member of it); true when
   * there was such a session.
   */
  readonly switchAccount: (idHash: string, accountId: number) => Effect.Effect<boolean>
}

const SessionRepositoryBase: Context.ServiceClass<
  SessionRepository,
  "@wasl/core/SessionRepository",
  SessionRepositoryShape
> = Context.Service<SessionRepository, SessionRepositoryShape>()("@wasl/core/SessionRepository")

/**
 * First-party sessions behind the `wasl_session` cookie.
 * Its operations: {@link SessionRepositoryShape}.
 */
export class SessionRepository extends SessionRepositoryBase {}
