/**
 * Old finished deliveries for the pruning test (packages/worker/test/prune-under-load.test.ts) and
 * benchmark (bench/prune.ts), made in ONE statement with `generate_series` (a million attempts
 * in seconds, rather than a million round trips).
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

/** What to seed: `deliveries` succeeded deliveries of the webhook with `attemptsEach` attempts each. */
export interface OldDeliveries {
  readonly accountId: number
  readonly webhookId: number
  readonly deliveries: number
  readonly attemptsEach: number
  /** How long ago the newest of them finished; each next one finished a second earlier. */
  readonly finishedAgo: string
  /** 4 hex digits that begin every id of this seed (ids are this prefix then a counter). */
  readonly idPrefix: string
}

/**
 * Inserts the deliveries and their attempts in one statement (a data-modifying CTE). Their
 * finishing times (`updated_at`) are spread a second apart, as a steady stream of deliveries
 * would leave them, so the pruning index is walked as it is in production. The ids are sequential
 * rather than random: the key indexes then grow at their right edge, which makes the seeding
 * several times faster and changes nothing for pruning (it walks `deliveries_finished`).
 */
export const seedOldDeliveries = (sql: SqlClient, seed: OldDeliveries): Effect.Effect<void, SqlError> =>
  sql`
    WITH d AS (
      INSERT INTO deliveries (account_id, id, webhook_id, event_id, event, body, status, attempts,
                              next_attempt_at, created_at, updated_at)
      SELECT ${seed.accountId}, (${seed.idPrefix} || lpad(to_hex(g), 28, '0'))::uuid, ${seed.webhookId}, NULL, 'deal-created',
             '{"time":1,"event":"deal-created","deal":{}}', 'succeeded', ${seed.attemptsEach}, NULL,
             now() - ${seed.finishedAgo}::interval - g * interval '1 second' - interval '1 hour',
             now() - ${seed.finishedAgo}::interval - g * interval '1 second'
      FROM generate_series(0, ${seed.deliveries - 1}) g
      RETURNING account_id, id, updated_at
    )
    INSERT INTO delivery_attempts (account_id, delivery_id, number, at, status_code, duration_ms, error, response_excerpt)
    SELECT d.account_id, d.id, n, d.updated_at, CASE WHEN n = ${seed.attemptsEach} THEN 200 ELSE 503 END, 12, NULL, 'ok'
    FROM d, generate_series(1, ${seed.attemptsEach}) n
  `.pipe(Effect.asVoid)
