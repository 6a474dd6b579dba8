/**
 * The Webhook resource (spec §2.10): its REST shape (the field `URL` is upper-case), its
 * subscription entries, and the stored row repositories hand to use-cases (the secret sealed).
 */
import { type DateTime, Schema } from "effect"
import { AccountId } from "../account/account.ts"
import { EventName } from "../records/object-kind.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import type { WebhookState } from "./webhook-state.ts"

export const WebhookId = Schema.Int.check(Schema.isGreaterThan(0))

/** Length of a webhook secret (spec §8). */
export const WEBHOOK_SECRET_LENGTH = 32

/** One subscription of a webhook: an entry of `events`. */
export const WebhookEvent = Schema.Struct({
  id: Schema.Int,
  name: EventName,
  webhook_id: WebhookId,
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "WebhookEvent" })
export type WebhookEvent = typeof WebhookEvent.Type

export const Webhook = Schema.Struct({
  id: WebhookId,
  URL: Schema.String,
  secret: Schema.String,
  is_validated: Schema.Boolean,
  is_active: Schema.Boolean,
  consecutive_failures: Schema.Int,
  last_failure_at: Schema.NullOr(WireTimestamp),
  account_id: AccountId,
  created_at: WireTimestamp,
  updated_at: WireTimestamp,
  events: Schema.Array(WebhookEvent)
}).annotate({ identifier: "Webhook" })
export type Webhook = typeof Webhook.Type

/** A webhook as stored: the state machine's fields, the secret sealed by SecretBox. */
export interface StoredWebhook {
  readonly id: number
  readonly accountId: number
  readonly url: string
  readonly secretSealed: string
  readonly state: WebhookState
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
  /** Subscriptions, oldest first. */
  readonly events: ReadonlyArray<WebhookEvent>
}

/** The REST shape, given the opened secret. */
export const webhookView = (stored: StoredWebhook, secret: string): Webhook => ({
  id: stored.id,
  URL: stored.url,
  secret,
  is_validated: stored.state.isValidated,
  is_active: stored.state.isActive,
  consecutive_failures: stored.state.consecutiveFailures,
  last_failure_at: stored.state.lastFailureAt,
  account_id: stored.accountId,
  created_at: stored.createdAt,
  updated_at: stored.updatedAt,
  events: stored.events
})
