/**
 * 0051: the webhooks' keys lead with `account_id`, as every other tenant table's do.
 *
 * `webhooks` and `webhook_events` were keyed by their own id alone, and `deliveries` and
 * `webhook_events` referenced `webhooks (id)`. A distributed PostgreSQL (Citus) shards a table on
 * one column and needs that column in every primary key, unique index and foreign key of the
 * table: with `account_id` leading them all, an account's webhooks, subscriptions and deliveries
 * live on one shard and the references between them stay local. Queries already name the
 * account; only the keys change:
 *
 * - `webhooks`: primary key `(account_id, id)`.
 * - `webhook_events`: primary key `(account_id, id)`; its one subscription per webhook and event
 *   name is `(account_id, webhook_id, name)`; it references `webhooks (account_id, id)`.
 * - `deliveries`: references `webhooks (account_id, id)`.
 *
 * Each foreign key still cascades on delete. The old single-column references go first (they
 * depend on the old key), and the new ones are checked against rows that already agree (a
 * subscription and a delivery were always written in their webhook's account).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_webhook_id_fkey`
  yield* sql`ALTER TABLE deliveries DROP CONSTRAINT deliveries_webhook_id_fkey`
  yield* sql`ALTER TABLE webhooks DROP CONSTRAINT webhooks_pkey, ADD PRIMARY KEY (account_id, id)`
  yield* sql`
    ALTER TABLE webhook_events
      DROP CONSTRAINT webhook_events_pkey,
      ADD PRIMARY KEY (account_id, id),
      DROP CONSTRAINT webhook_events_webhook_name_key,
      ADD CONSTRAINT webhook_events_account_id_webhook_id_name_key UNIQUE (account_id, webhook_id, name),
      ADD CONSTRAINT webhook_events_webhook_fkey FOREIGN KEY (account_id, webhook_id)
        REFERENCES webhooks (account_id, id) ON DELETE CASCADE
  `
  yield* sql`
    ALTER TABLE deliveries
      ADD CONSTRAINT deliveries_webhook_fkey FOREIGN KEY (account_id, webhook_id)
        REFERENCES webhooks (account_id, id) ON DELETE CASCADE
  `
})

export default migration
