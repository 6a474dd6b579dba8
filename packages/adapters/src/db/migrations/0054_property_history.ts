/**
 * 0054: the property history of records (the `PropertyHistoryRepository` port of @wasl/core,
 * `PropertyHistoryRepositoryPg` in pg/), and its retention (`RetentionPg`, kind `history`).
 *
 * - `property_history`: one row per changed property of a record, by `(account_id, kind,
 *   record_id)` and without a foreign key to the record's table, so the history outlives the
 *   record's row (a record in the trash keeps it; the purge deletes it, `purge`). `seq` orders the
 *   entries of one moment as they were appended. `value` and `previous_value` are the stored
 *   values as JSON (NULL: none). `user_id` names the acting user and stays when the user goes.
 * - The timeline reads one record's entries newest first from `property_history_record`; the
 *   pruning walks `property_history_changed` from its oldest entry.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE property_history (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      kind text NOT NULL CHECK (kind IN ('contact', 'company', 'deal', 'ticket', 'invoice', 'product')),
      record_id text NOT NULL,
      property text NOT NULL,
      value jsonb,
      previous_value jsonb,
      source text NOT NULL CHECK (source IN ('api', 'batch', 'import', 'merge', 'restore', 'system')),
      user_id bigint,
      changed_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, seq)
    )
  `
  yield* sql`
    CREATE INDEX property_history_record ON property_history (account_id, kind, record_id, changed_at DESC, seq DESC)
  `
  yield* sql`CREATE INDEX property_history_changed ON property_history (changed_at)`
})

export default migration
