/**
 * Stored webhooks and their subscriptions (spec §2.10). Every method takes the account and never
 * sees another account's webhook (ARCHITECTURE rule 8): a foreign id is simply not found.
 * Webhook writes are not outbox events (only records, properties, groups and notes are).
 */
import { Context, type DateTime, type Effect, type Option } from "effect"
import type { EventName } from "../records/object-kind.ts"
import type { StoredWebhook } from "./webhook.ts"
import type { WebhookState } from "./webhook-state.ts"

export interface NewWebhook {
  readonly accountId: number
  readonly url: string
  readonly secretSealed: string
  readonly events: ReadonlyArray<EventName>
  readonly now: DateTime.Utc
}

export interface WebhookChange {
  readonly url: string
  readonly state: WebhookState
  /**
   * The full new subscription list, or undefined to keep it. Names kept keep their entry (id,
   * created_at); names dropped are removed; new names are added.
   */
  readonly events?: ReadonlyArray<EventName> | undefined
  readonly now: DateTime.Utc
}

export class WebhookRepository extends Context.Service<WebhookRepository, {
  /** The account's webhooks, by id. */
  readonly list: (accountId: number) => Effect.Effect<ReadonlyArray<StoredWebhook>>
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
  readonly insert: (webhook: NewWebhook) => Effect.Effect<StoredWebhook>
  /** Applies the change; None when there is no such webhook. */
  readonly update: (accountId: number, id: number, change: WebhookChange) => Effect.Effect<Option.Option<StoredWebhook>>
  /** Removes the webhook and its subscriptions; false when there is none. */
  readonly delete: (accountId: number, id: number) => Effect.Effect<boolean>
}>()("@wasl/core/WebhookRepository") {}
