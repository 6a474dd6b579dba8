/**
 * 0007: webhook deliveries and their attempts (the
 * `DeliveryRepository` port in @wasl/core webhooks/delivery-repository.ts, `DeliveryRepositoryPg`
 * in pg/delivery-repository-pg.ts).
 *
 * - `deliveries`: one row per delivery. `body` is the request body serialised once at fan-out
 *   (text, byte-exact: every attempt sends and signs the same bytes). `event_id` is the outbox
 *   event it came from (null for a redelivery); the unique (account_id, event_id, webhook_id)
 *   makes fan-out idempotent (`INSERT ... ON CONFLICT DO NOTHING`).
 * - The queue: `status = 'pending'` rows are claimed in `next_attempt_at` order with `FOR UPDATE
 *   SKIP LOCKED`, leased until `claimed_until`. The partial index `deliveries_due` holds pending
 *   rows only, so finished deliveries (most of the table) cost the claim nothing; leased rows sit
 *   in it too, but they are at most workers × batch.
 * - `deliveries_log` serves the delivery log (newest first per webhook); it leads with
 *   `account_id` like every tenant key.
 * - Deleting a webhook deletes its deliveries and their attempts (cascade): they stop at once.
 * - A statement-level trigger NOTIFYs `wasl_deliveries` after an insert, so workers of other
 *   processes wake for a redelivery or a fan-out they did not do themselves.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE deliveries (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      event_id uuid,
      event text NOT NULL,
      body text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at timestamptz,
      claimed_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      UNIQUE (account_id, event_id, webhook_id),
      CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
    )
  `

  yield* sql`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`
  yield* sql`CREATE INDEX deliveries_log ON deliveries (account_id, webhook_id, created_at DESC, id)`
  // For the cascade when a webhook is deleted, which looks deliveries up by webhook_id alone.
  yield* sql`CREATE INDEX deliveries_webhook ON deliveries (webhook_id)`

  yield* sql`
    CREATE TABLE delivery_attempts (
      account_id bigint NOT NULL,
      delivery_id uuid NOT NULL,
      number integer NOT NULL CHECK (number >= 1),
      at timestamptz NOT NULL,
      status_code integer,
      duration_ms integer NOT NULL CHECK (duration_ms >= 0),
      error text,
      response_excerpt text,
      PRIMARY KEY (account_id, delivery_id, number),
      FOREIGN KEY (account_id, delivery_id) REFERENCES deliveries (account_id, id) ON DELETE CASCADE
    )
  `

  yield* sql`
    CREATE FUNCTION deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('wasl_deliveries', '');
      RETURN NULL;
    END
    $$
  `

  yield* sql`
    CREATE TRIGGER deliveries_notify
    AFTER INSERT ON deliveries
    FOR EACH STATEMENT EXECUTE FUNCTION deliveries_notify()
  `
})

export default migration
