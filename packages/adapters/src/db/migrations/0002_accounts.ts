/**
 * 0002: accounts, users and what hangs off them (teams, permissions, tokens, sessions,
 * notification preferences and notifications).
 *
 * Tenancy is structural: every table
 * that belongs to an account carries `account_id`, and its primary key, unique
 * keys and indexes lead with it, so a distributed PostgreSQL (Citus) can shard
 * on `account_id` without a schema change. Hence composite primary keys
 * `(account_id, id)` where a row also has its own id, and foreign keys that
 * carry the account (a team member must be a member of the team's account; a
 * token, session, preference or notification belongs to a membership), which
 * makes cross-account references impossible by construction.
 *
 * The only indexes that do not lead with `account_id` serve lookups made before
 * the account is known: `users` (global, by e-mail), `account_user (user_id)`
 * (a user's accounts at login), `api_tokens (id)` (the bearer carries only the
 * token id) and `sessions (id_hash)` (the cookie). They are non-unique on
 * purpose (uniqueness comes from the sequence / the hash), which a sharded
 * table allows.
 *
 * Timestamps are `timestamptz`, written by the application from Effect's Clock.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE accounts (
      id bigserial PRIMARY KEY,
      name text NOT NULL,
      plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'starter', 'business', 'custom')),
      webhook_limit integer CHECK (webhook_limit >= 0),
      otp_credits bigint NOT NULL DEFAULT 0 CHECK (otp_credits >= 0),
      industry text,
      logo text,
      address text,
      time_zone text,
      calendar text,
      hour12 boolean,
      locale text,
      currency text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )
  `

  yield* sql`
    CREATE TABLE subscriptions (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      name text NOT NULL DEFAULT 'default',
      status text NOT NULL DEFAULT 'active',
      provider text NOT NULL DEFAULT 'wasl',
      interval integer NOT NULL DEFAULT 30,
      trial_ends_at timestamptz,
      paused_at timestamptz,
      ends_at timestamptz,
      canceled_at timestamptz,
      will_change_at timestamptz,
      will_change_to text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      CONSTRAINT subscriptions_one_per_account UNIQUE (account_id)
    )
  `

  yield* sql`
    CREATE TABLE users (
      id bigserial PRIMARY KEY,
      email text NOT NULL,
      password_hash text NOT NULL,
      firstname text NOT NULL DEFAULT '',
      lastname text NOT NULL DEFAULT '',
      image text,
      locale text NOT NULL DEFAULT 'en',
      email_verified_at timestamptz,
      contacts_view_id text,
      deals_view_id text,
      tickets_view_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`

  yield* sql`
    CREATE TABLE account_user (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
      last_used timestamptz,
      time_zone text NOT NULL DEFAULT 'UTC',
      calendar text,
      hour12 boolean NOT NULL DEFAULT false,
      locale text,
      currency text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, user_id)
    )
  `
  yield* sql`CREATE INDEX account_user_user_id_idx ON account_user (user_id)`

  yield* sql`
    CREATE TABLE teams (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id bigserial NOT NULL,
      name text NOT NULL,
      description text,
      made_by bigint REFERENCES users (id) ON DELETE SET NULL,
      permissions text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id)
    )
  `

  yield* sql`
    CREATE TABLE team_user (
      account_id bigint NOT NULL,
      team_id bigint NOT NULL,
      user_id bigint NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, team_id, user_id),
      FOREIGN KEY (account_id, team_id) REFERENCES teams (account_id, id) ON DELETE CASCADE,
      FOREIGN KEY (account_id, user_id) REFERENCES account_user (account_id, user_id) ON DELETE CASCADE
    )
  `
  yield* sql`CREATE INDEX team_user_account_user_idx ON team_user (account_id, user_id)`

  yield* sql`
    CREATE TABLE notification_preferences (
      account_id bigint NOT NULL,
      id bigserial NOT NULL,
      user_id bigint NOT NULL,
      name text NOT NULL,
      stored boolean NOT NULL DEFAULT true,
      popup boolean NOT NULL DEFAULT true,
      browser boolean NOT NULL DEFAULT true,
      email boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      CONSTRAINT notification_preferences_account_user_name_key UNIQUE (account_id, user_id, name),
      FOREIGN KEY (account_id, user_id) REFERENCES account_user (account_id, user_id) ON DELETE CASCADE
    )
  `

  yield* sql`
    CREATE TABLE notifications (
      account_id bigint NOT NULL,
      id bigserial NOT NULL,
      user_id bigint NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL DEFAULT '{}',
      read_at timestamptz,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, user_id) REFERENCES account_user (account_id, user_id) ON DELETE CASCADE
    )
  `
  yield* sql`CREATE INDEX notifications_account_user_read_idx ON notifications (account_id, user_id, read_at)`

  yield* sql`
    CREATE TABLE api_tokens (
      account_id bigint NOT NULL,
      id bigserial NOT NULL,
      user_id bigint NOT NULL,
      name text NOT NULL,
      secret_hash text NOT NULL,
      abilities jsonb NOT NULL DEFAULT '[]',
      last_used_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, user_id) REFERENCES account_user (account_id, user_id) ON DELETE CASCADE
    )
  `
  yield* sql`CREATE INDEX api_tokens_account_user_idx ON api_tokens (account_id, user_id)`
  yield* sql`CREATE INDEX api_tokens_id_idx ON api_tokens (id)`

  yield* sql`
    CREATE TABLE sessions (
      account_id bigint NOT NULL,
      id_hash text NOT NULL,
      user_id bigint NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id_hash),
      FOREIGN KEY (account_id, user_id) REFERENCES account_user (account_id, user_id) ON DELETE CASCADE
    )
  `
  yield* sql`CREATE INDEX sessions_id_hash_idx ON sessions (id_hash)`
  yield* sql`CREATE INDEX sessions_account_expires_idx ON sessions (account_id, expires_at)`
})

export default migration
