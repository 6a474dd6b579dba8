/**
 * 0008: messaging: sending numbers, templates, broadcasts, messages and managed OTP codes.
 *
 * - `platforms` (sending numbers): the provider's access token only sealed (SecretBox).
 * - `message_templates` and `broadcasts`: a broadcast is one template of the account sent from
 *   one platform; both ids are integers, as the API shows them. Foreign keys carry the account, so a
 *   broadcast can only point at its own account's template and platform.
 * - `messages`: what was sent; a one-time password appears in `body` only as `******`.
 * - `otp_verifications`: managed codes as HMAC-SHA256(server key, id + code); the partial index
 *   finds a recipient's live codes of a template (one live code per recipient and template).
 * - `otp_cooldowns`: the last accepted OTP send per account and recipient (digits); claimed with
 *   one upsert so concurrent sends cannot both pass the cooldown.
 * Every key and index leads with `account_id` (tenancy is structural).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE platforms (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id bigserial NOT NULL,
      name text NOT NULL,
      display_phone_number text NOT NULL,
      provider text NOT NULL CHECK (provider IN ('sandbox', 'whatsapp_cloud')),
      phone_id text,
      waba_id text,
      sealed_access_token text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id)
    )
  `

  yield* sql`
    CREATE TABLE message_templates (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id bigserial NOT NULL,
      name text NOT NULL,
      category text NOT NULL CHECK (category IN ('UTILITY', 'MARKETING', 'AUTHENTICATION')),
      external_id text,
      header jsonb,
      body text NOT NULL,
      footer text,
      buttons jsonb,
      code_expiration_minutes integer CHECK (code_expiration_minutes BETWEEN 1 AND 90),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id)
    )
  `

  yield* sql`
    CREATE TABLE broadcasts (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id bigserial NOT NULL,
      name text NOT NULL,
      language text NOT NULL,
      template_id bigint NOT NULL,
      platform_id bigint NOT NULL,
      status text NOT NULL CHECK (status IN ('APPROVED', 'PENDING', 'REJECTED')),
      reason text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, template_id) REFERENCES message_templates (account_id, id) ON DELETE CASCADE,
      FOREIGN KEY (account_id, platform_id) REFERENCES platforms (account_id, id) ON DELETE CASCADE
    )
  `

  yield* sql`
    CREATE TABLE messages (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      provider_message_id text NOT NULL,
      contact_id text NOT NULL,
      broadcast_id bigint NOT NULL,
      platform_id bigint NOT NULL,
      platform_third_party_id text NOT NULL,
      sender_third_party_id text NOT NULL,
      receiver_third_party_id text NOT NULL,
      status text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, broadcast_id) REFERENCES broadcasts (account_id, id) ON DELETE CASCADE
    )
  `
  yield* sql`CREATE INDEX messages_account_contact_idx ON messages (account_id, contact_id, created_at)`

  yield* sql`
    CREATE TABLE otp_verifications (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      broadcast_id bigint NOT NULL,
      contact_id text NOT NULL,
      recipient text NOT NULL,
      code_hash text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
      status text NOT NULL CHECK (status IN ('live', 'approved', 'expired', 'failed', 'max_attempts_reached')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, broadcast_id) REFERENCES broadcasts (account_id, id) ON DELETE CASCADE
    )
  `
  yield* sql`
    CREATE INDEX otp_verifications_live_idx ON otp_verifications (account_id, broadcast_id, recipient)
    WHERE status = 'live'
  `

  yield* sql`
    CREATE TABLE otp_cooldowns (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      recipient text NOT NULL,
      last_sent_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, recipient)
    )
  `
})

export default migration
