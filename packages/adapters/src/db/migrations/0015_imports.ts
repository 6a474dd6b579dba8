/**
 * 0015: CSV imports (`POST /api/{kind}/imports`; the `ImportRepository` port).
 *
 * - `imports`: one row per upload, with the worker's place in it (`next_line`), its counts and
 *   its claim (`leased_until`: a worker that dies leaves it to run out, then another claims the
 *   import and goes on from `next_line`). `imports_waiting` is what a claim scans: the queued and
 *   running ones, oldest first.
 * - `import_rows`: the file's rows as uploaded (`cells`, a JSON array of the row's strings, one
 *   per column of `imports.columns`), staged in the upload's transaction. A row written as a
 *   record is deleted in the batch that writes it; a refused one stays with its 422 messages
 *   (`errors`) for the status and the errors CSV (`import_rows_failed`).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE imports (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('contact', 'company', 'deal', 'ticket', 'invoice', 'product')),
      status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      file_name text NOT NULL,
      columns jsonb NOT NULL,
      match_on text,
      rows_total integer NOT NULL DEFAULT 0,
      next_line integer NOT NULL DEFAULT 2,
      rows_read integer NOT NULL DEFAULT 0,
      created integer NOT NULL DEFAULT 0,
      updated integer NOT NULL DEFAULT 0,
      failed integer NOT NULL DEFAULT 0,
      reason text,
      leased_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      finished_at timestamptz,
      PRIMARY KEY (account_id, id)
    )
  `
  yield* sql`CREATE INDEX imports_waiting ON imports (created_at, account_id, id) WHERE status IN ('queued', 'running')`
  yield* sql`
    CREATE TABLE import_rows (
      account_id bigint NOT NULL,
      import_id text NOT NULL,
      line integer NOT NULL,
      cells jsonb NOT NULL,
      errors jsonb,
      PRIMARY KEY (account_id, import_id, line),
      FOREIGN KEY (account_id, import_id) REFERENCES imports (account_id, id) ON DELETE CASCADE
    )
  `
  yield* sql`CREATE INDEX import_rows_failed ON import_rows (account_id, import_id, line) WHERE errors IS NOT NULL`
})

export default migration
