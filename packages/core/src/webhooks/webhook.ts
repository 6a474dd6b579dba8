/**
 * The Webhook resource: its REST shape (the field `URL` is upper-case), its
 * subscription entries, and the stored row repositories hand to use-cases (the secret sealed).
 */
import { type DateTime, Schema } from "effect"
import { AccountId } from "../account/account.ts"
import { EventName } from "../records/object-kind.ts"
import { WireTimestamp } from "../wire/timestamp.ts"
import type { WebhookState } from "./webhook-state.ts"

/** A webhook's id: a positive integer. */
export const WebhookId: Schema.Int = Schema.Int.check(Schema.isGreaterThan(0))

/** Length of a webhook secret, in characters. */
export const WEBHOOK_SECRET_LENGTH = 32

/** One subscription of a webhook: an entry of `events`. */
export const WebhookEvent: Schema.Struct<{
  /** The subscription's id. */
  readonly id: Schema.Int
  /** The event subscribed to. */
  readonly name: typeof EventName
  /** The webhook it belongs to. */
  readonly webhook_id: typeof WebhookId
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct({
  id: Schema.Int,
  name: EventName,
  webhook_id: WebhookId,
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "WebhookEvent" })
/** One subscription of a webhook (see the `WebhookEvent` schema). */
export type WebhookEvent = typeof WebhookEvent.Type

/** A webhook as the webhook endpoints return it. */
export const Webhook: Schema.Struct<{
  readonly id: typeof WebhookId
  /** The endpoint's URL (the field name is upper-case). */
  readonly URL: Schema.String
  /** The secret deliveries are signed with. */
  readonly secret: Schema.String
  /** The endpoint answered the validation challenge. */
  readonly is_validated: Schema.Boolean
  /** The owner switched it on (and failures did not switch it off since). */
  readonly is_active: Schema.Boolean
  /** Deliveries in a row that used all their attempts. */
  readonly consecutive_failures: Schema.Int
  /** When a delivery last used all its attempts. */
  readonly last_failure_at: Schema.NullOr<typeof WireTimestamp>
  readonly account_id: typeof AccountId
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
  /** Its subscriptions, oldest first. */
  readonly events: Schema.$Array<typeof WebhookEvent>
}> = Schema.Struct({
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
/** A webhook in its REST shape (see the `Webhook` schema). */
export type Webhook = typeof Webhook.Type

/** A webhook as stored: the state machine's fields, the secret sealed by SecretBox. */
export interface StoredWebhook {
  /** The webhook's id. */
  readonly id: number
  /** The account it belongs to. */
  readonly accountId: number
  /** The endpoint's URL. */
  readonly url: string
  /** The signing secret, sealed by SecretBox (open it to show or sign). */
  readonly secretSealed: string
  /** Where it stands: validated, active, failures. */
  readonly state: WebhookState
  /** When it was created. */
  readonly createdAt: DateTime.Utc
  /** When it was last changed. */
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
