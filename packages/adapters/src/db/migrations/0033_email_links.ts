/**
 * 0033: changing and verifying a user's e-mail through mailed links.
 *
 * On `users`: `change_email_to`, the address a user asked to move to until they follow the link
 * mailed there (nullable: adding it rewrites no row).
 *
 * `email_tokens`: the links' tokens, by SHA-256 (never the token), each for one user and purpose
 * (`change` to the address it names, `verify` of it), with its expiry. Like `two_factor_logins`, a
 * user's row, global (a user's e-mail is not an account's), looked up by hash; at most one per
 * user and purpose (the latest link sent), which the unique key keeps.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`ALTER TABLE users ADD COLUMN change_email_to text`

  yield* sql`
    CREATE TABLE email_tokens (
      token_hash text PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('change', 'verify')),
      email text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT email_tokens_user_purpose_key UNIQUE (user_id, purpose)
    )
  `
})

export default migration
