/**
 * 0030: managing an account's members, teams and settings, and inviting people to it.
 *
 * Every account's `Administrators` team (the one its first user was put in) gets the three
 * permissions that govern the account itself: `member-manage`, `team-manage` and
 * `account-manage`. Teams are announced to the caches when their permissions change (0017's and
 * 0020's triggers), so members of those teams hold them at once on every process.
 *
 * `invitations`: who was invited to which account and teams, found by the SHA-256 of the token
 * its link carries (the token itself is never stored), like `sessions (id_hash)`: the lookup comes
 * before the account is known, so that index does not lead with `account_id`. An invitation is
 * pending until accepted or revoked (never both) and can be accepted until `expires_at`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    UPDATE teams
    SET permissions = permissions || ARRAY(
      SELECT p FROM unnest(ARRAY['member-manage', 'team-manage', 'account-manage']) AS p WHERE p <> ALL (permissions)
    )
    WHERE name = 'Administrators'
  `

  yield* sql`
    CREATE TABLE invitations (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id bigserial NOT NULL,
      email text NOT NULL,
      team_ids bigint[] NOT NULL DEFAULT '{}',
      invited_by bigint REFERENCES users (id) ON DELETE SET NULL,
      token_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      CONSTRAINT invitations_accepted_or_revoked CHECK (accepted_at IS NULL OR revoked_at IS NULL)
    )
  `
  yield* sql`CREATE INDEX invitations_token_hash_idx ON invitations (token_hash)`
  yield* sql`
    CREATE INDEX invitations_account_pending_idx ON invitations (account_id, id)
    WHERE accepted_at IS NULL AND revoked_at IS NULL
  `
})

export default migration
