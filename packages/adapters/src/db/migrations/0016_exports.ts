/**
 * 0016: CSV exports (core exports/, `ExportRepositoryPg`).
 *
 * - `exports`: one row per export asked for: the list query and columns, who asked, and the run's
 *   state. `exports_waiting` holds only the rows a worker may claim (queued, or running and perhaps
 *   abandoned), oldest first, so the claim every poll is a scan of a handful of entries however
 *   many finished exports the table keeps.
 * - `export_chunks`: the file, in pieces of about 1 MiB in order (`seq`). `written_at` is the age
 *   the pruner goes by (retention kind `exports`): the instant the writing run began, from which
 *   the export's `expires_at` also counts. `export_chunks_age` serves the pruning, across accounts.
 *   The pieces are large, so they go to TOAST, out of the table's pages; a piece is read alone.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE exports (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL,
      user_id bigint NOT NULL,
      kind text NOT NULL,
      query jsonb NOT NULL,
      columns jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      lease_until timestamptz,
      row_count bigint,
      byte_size bigint,
      failure text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      completed_at timestamptz,
      expires_at timestamptz,
      PRIMARY KEY (account_id, id)
    )
  `
  yield* sql`CREATE INDEX exports_waiting ON exports (created_at) WHERE status IN ('queued', 'running')`
  yield* sql`
    CREATE TABLE export_chunks (
      account_id bigint NOT NULL,
      export_id text NOT NULL,
      seq integer NOT NULL,
      bytes bytea NOT NULL,
      written_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, export_id, seq),
      FOREIGN KEY (account_id, export_id) REFERENCES exports (account_id, id) ON DELETE CASCADE
    )
  `
  yield* sql`CREATE INDEX export_chunks_age ON export_chunks (written_at)`
})

export default migration
