import { Context, type DateTime, type Effect, type Option } from "effect"

export interface StoredSession {
  /** SHA-256 (hex) of the cookie value; the value itself is never stored. */
  readonly idHash: string
  readonly accountId: number
  readonly userId: number
  readonly expiresAt: DateTime.Utc
}

/** First-party sessions behind the `wasl_session` cookie. */
export class SessionRepository extends Context.Service<SessionRepository, {
  readonly create: (session: StoredSession) => Effect.Effect<void>
  readonly find: (idHash: string) => Effect.Effect<Option.Option<StoredSession>>
  readonly remove: (idHash: string) => Effect.Effect<void>
}>()("@wasl/core/SessionRepository") {}
