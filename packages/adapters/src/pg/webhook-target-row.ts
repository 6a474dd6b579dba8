/**
 * The columns of `webhooks` (migration 0006) that say where a webhook is delivered and whether it
 * may be: its URL, its sealed secret and the health the state machine of core's webhook-state.ts
 * works on. Both the webhook repository and the delivery queue read them; this is their one reading.
 */
import type { WebhookState } from "@wasl/core/Webhooks"
import { Schema } from "effect"
import { DbInt, DbNullOr, DbTimestamp } from "./rows.ts"

/** The delivery columns of a `webhooks` row, decoded. */
export const WebhookTargetRow: Schema.Struct<{
  readonly url: Schema.String
  readonly secret_sealed: Schema.String
  readonly is_validated: Schema.Boolean
  readonly is_active: Schema.Boolean
  readonly consecutive_failures: typeof DbInt
  readonly last_failure_at: Schema.Union<readonly [Schema.Null, typeof DbTimestamp]>
}> = Schema.Struct({
  url: Schema.String,
  secret_sealed: Schema.String,
  is_validated: Schema.Boolean,
  is_active: Schema.Boolean,
  consecutive_failures: DbInt,
  last_failure_at: DbNullOr(DbTimestamp)
})
/** The delivery columns of a `webhooks` row. */
export type WebhookTargetRow = typeof WebhookTargetRow.Type

/** The health columns as the state machine's `WebhookState`. */
export const webhookStateOf = (row: WebhookTargetRow): WebhookState => ({
  isValidated: row.is_validated,
  isActive: row.is_active,
  consecutiveFailures: row.consecutive_failures,
  lastFailureAt: row.last_failure_at
})
