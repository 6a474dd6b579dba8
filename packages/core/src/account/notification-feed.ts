/**
 * The live side of notifications: who must be told at once that a notification was stored for
 * them. A notice names the notification only (its account, user and id); the stream reads the
 * row through `NotificationRepository`, so a notice never carries data across accounts and a lost
 * notice only delays a popup until the next reconnect's resume.
 */
import { Context, type Effect, type Scope, type Stream } from "effect"

/** That a notification whose `popup` or `browser` channel is on was committed for a user. */
export interface NotificationNotice {
  /** The account it belongs to. */
  readonly accountId: number
  /** The user it is for. */
  readonly userId: number
  /** The notification's id. */
  readonly id: number
}

/** What the {@link NotificationFeed} port offers (implement this to write an adapter). */
export interface NotificationFeedShape {
  /**
   * Listens, from the moment it returns until the scope closes, for the ids of the user's new
   * popup or browser notifications in the account, as the transactions that store them commit
   * (never for one that rolls back), whichever process stored them. The stream ends when the
   * feed shuts down.
   */
  readonly subscribe: (accountId: number, userId: number) => Effect.Effect<Stream.Stream<number>, never, Scope.Scope>
}

const NotificationFeedBase: Context.ServiceClass<NotificationFeed, "@wasl/core/NotificationFeed", NotificationFeedShape> =
  Context.Service<NotificationFeed, NotificationFeedShape>()("@wasl/core/NotificationFeed")

/**
 * New popup and browser notifications as they commit, per user in an account, across every
 * process on the database. Its operations: {@link NotificationFeedShape}.
 */
export class NotificationFeed extends NotificationFeedBase {}
