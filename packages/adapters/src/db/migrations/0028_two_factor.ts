/**
 * 0028: two-factor authentication (TOTP).
 *
 * On `users`: the TOTP secret as the SecretBox sealed it, when the user confirmed it (two-factor
 * is on exactly when `two_factor_confirmed_at` is set), the SHA-256 hashes of the unused recovery
 * codes, and the latest time step a code was taken from (no code of it or of an earlier step is
 * taken again). Nullable or defaulted: adding them rewrites no row.
 *
 * `two_factor_logins`: logins whose password was right, waiting for their second factor, by the
 * SHA-256 of the challenge the client holds, with their attempts so far. Like `users`, a user's
 * row, global: it is made before an account is chosen, so it carries no `account_id`; its
 * lookup is by hash, as `sessions (id_hash)`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    ALTER TABLE users
      ADD COLUMN two_factor_secret text,
      ADD COLUMN two_factor_confirmed_at timestamptz,
      ADD COLUMN two_factor_recovery_codes text[] NOT NULL DEFAULT '{}',
      ADD COLUMN two_factor_last_step bigint,
      ADD CONSTRAINT users_two_factor_confirmed_has_secret
        CHECK (two_factor_confirmed_at IS NULL OR two_factor_secret IS NOT NULL)
  `

  yield* sql`
    CREATE TABLE two_factor_logins (
      id_hash text PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX two_factor_logins_user_id_idx ON two_factor_logins (user_id)`
})

export default migration
