/**
 * Stored webhooks and their subscriptions. Every method takes the account and never sees another
 * account's webhook: a foreign id is simply not found. Webhook writes are not outbox events (only
 * records, properties, groups and notes are).
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { EventName } from "../records/object-kind.ts"
import type { StoredWebhook } from "./webhook.ts"
import type { WebhookState } from "./webhook-state.ts"

/** A webhook to store: it starts unvalidated and inactive. */
export interface NewWebhook {
  /** The account it belongs to. */
  readonly accountId: number
  /** The endpoint's URL. */
  readonly url: string
  /** The signing secret, sealed by SecretBox. */
  readonly secretSealed: string
  /** Its subscriptions, each once. */
  readonly events: ReadonlyArray<EventName>
  /** Its created_at and updated_at. */
  readonly now: DateTime.Utc
}

/** A change to a stored webhook. */
export interface WebhookChange {
  /** The (possibly unchanged) URL. */
  readonly url: string
  /** The new state (a transition of webhook-state.ts applied to the stored one). */
  readonly state: WebhookState
  /**
   * The full new subscription list, or undefined to keep it. Names kept keep their entry (id,
   * created_at); names dropped are removed; new names are added.
   */
  readonly events?: ReadonlyArray<EventName> | undefined
  /** The new updated_at. */
  readonly now: DateTime.Utc
}

/** What the WebhookRepository port offers (implement this to write an adapter). */
export interface WebhookRepositoryShape {
  /** The account's webhooks, by id. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<StoredWebhook>>
  /** The account's webhook with that id, or none. */
  readonly findById: (accountId: number, id: number) => Effect.Effect<Option.Option<StoredWebhook>>
  /**
   * Like findById, and holds the row against other writers until the surrounding transaction ends,
   * so a load-transition-save (use-cases, the delivery worker) never loses a concurrent change.
   */
  readonly findForUpdate: (accountId: number, id: number) => Effect.Effect<Option.Option<StoredWebhook>>
  /**
   * How many webhooks the account has, serialised against concurrent creates of the same account
   * until the surrounding transaction ends (so a plan limit cannot be overshot by a race).
   */
  readonly countForCreate: (accountId: number) => Effect.Effect<number>
  /** Stores a new webhook with its subscriptions and answers it as stored (with its new id). */
  readonly insert: (webhook: NewWebhook) => Effect.Effect<StoredWebhook>
  /** Applies the change; None when there is no such webhook. */
  readonly update: (accountId: number, id: number, change: WebhookChange) => Effect.Effect<Option.Option<StoredWebhook>>
  /** Removes the webhook and its subscriptions; false when there is none. */
  readonly delete: (accountId: number, id: number) => Effect.Effect<boolean>
}

const WebhookRepositoryBase: Context.ServiceClass<
  WebhookRepository,
  "@wasl/core/WebhookRepository",
  WebhookRepositoryShape
> = Context.Service<WebhookRepository, WebhookRepositoryShape>()("@wasl/core/WebhookRepository")

/** The stored webhooks and their subscriptions, per account: another account's are never seen. */
export class WebhookRepository extends WebhookRepositoryBase {}
