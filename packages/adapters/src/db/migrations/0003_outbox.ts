/**
 * 0003: the event outbox (every write commits with its events in one transaction; the `Outbox` port in
 * @wasl/core events/outbox.ts, `OutboxPg` in pg/outbox-pg.ts).
 *
 * - One row per pending event. `append` inserts in the writer's transaction; `complete` deletes,
 *   so the table holds only pending and in-flight events and stays small.
 * - `seq` orders claims (oldest first). The claim query is
 *   `WHERE claimed_until IS NULL OR claimed_until <= now ORDER BY seq LIMIT n FOR UPDATE SKIP
 *   LOCKED`: it walks `outbox_events_seq` in order and skips the few leased rows (at most
 *   workers × batch), so it reads about `n` rows whatever the backlog. Like `sessions (id_hash)`,
 *   this index does not lead with `account_id`: draining is across accounts. It is not unique
 *   (the sequence makes it so), which a table sharded on `account_id` allows.
 * - `payload` is `json`, not `jsonb`: the record goes out as the delivery body exactly as the REST
 *   interface shaped it, and `jsonb` would reorder its keys (shortest first). The outbox never
 *   queries inside it.
 * - `occurred_at` keeps the microseconds of the writer's clock (the body's `time`).
 * - A statement-level trigger runs `NOTIFY wasl_outbox` after every insert; PostgreSQL delivers it
 *   at commit, and never for a rolled-back transaction, so a listening worker wakes exactly when
 *   there is something to claim.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE outbox_events (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      seq bigserial NOT NULL,
      name text NOT NULL CHECK (
        name ~ '^(contact|company|deal|ticket|invoice|product)-(property-group-|property-|note-)?(created|updated|deleted)$'
      ),
      payload json NOT NULL CHECK (json_typeof(payload) = 'object'),
      occurred_at timestamptz NOT NULL,
      claimed_until timestamptz,
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      PRIMARY KEY (account_id, id)
    )
  `

  yield* sql`CREATE INDEX outbox_events_seq ON outbox_events (seq)`

  yield* sql`
    CREATE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('wasl_outbox', '');
      RETURN NULL;
    END
    $$
  `

  yield* sql`
    CREATE TRIGGER outbox_events_notify
    AFTER INSERT ON outbox_events
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_events_notify()
  `
})

export default migration
