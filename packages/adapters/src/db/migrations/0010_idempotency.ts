/**
 * 0010: idempotency keys (core idempotency/idempotency-store.ts).
 *
 * A row per key a caller sent with a state-changing request: `pending` while a request that runs
 * outside the key's transaction is running, then `done` with the answer to replay (status, content
 * type, the body sealed by the HTTP layer). The key leads with `account_id` like every other
 * (tenancy is structural); `principal` keeps two callers of one account apart. A row past
 * `expires_at` no longer counts and is overwritten by the next use of its key; the index on
 * `expires_at` is for removing such rows.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE idempotency_keys (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      principal text NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'done')),
      status integer,
      content_type text,
      body text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, principal, key),
      CHECK (state = 'pending' OR (status IS NOT NULL AND content_type IS NOT NULL AND body IS NOT NULL))
    )
  `
  yield* sql`CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at)`
})

export default migration
