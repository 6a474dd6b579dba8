/**
 * 0051: campaigns (core messaging/campaign.ts, `CampaignRepositoryPg`) and the contacts' opt-out.
 *
 * - `contacts.whatsapp_opted_out`: the built-in boolean property campaigns skip a contact for.
 * - `campaigns`: one row per campaign asked for: its audience and variables as given, its status,
 *   the audience's resolution (`audience_after`, `audience_count`, `audience_resolved`, stored
 *   with each batch of recipients so a stopped worker resumes after it) and the worker's lease and
 *   turn. `campaigns_waiting` holds only the rows a worker may take (not ended), in turn order, so
 *   the claim every poll scans a handful of entries however many ended campaigns the table keeps.
 * - `campaign_recipients`: one row per contact of the audience, in audience order (`seq`), with
 *   the number and the variables filled when it was resolved, its status and, once sent, its
 *   message (whose own status gives the campaign's delivered and read counts).
 *   `campaign_recipients_pending` serves the claim of the next pending recipients.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`ALTER TABLE contacts ADD COLUMN whatsapp_opted_out boolean`

  yield* sql`
    CREATE TABLE campaigns (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      name text NOT NULL,
      broadcast_id bigint NOT NULL,
      user_id bigint NOT NULL,
      audience jsonb NOT NULL,
      parameters jsonb NOT NULL,
      status text NOT NULL
        CHECK (status IN ('scheduled', 'queued', 'running', 'paused', 'completed', 'canceled', 'failed')),
      reason text,
      audience_after text,
      audience_count integer NOT NULL DEFAULT 0,
      audience_resolved boolean NOT NULL DEFAULT false,
      resume_at timestamptz,
      lease_until timestamptz,
      turn_at timestamptz NOT NULL,
      scheduled_at timestamptz,
      started_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id)
    )
  `
  yield* sql`CREATE INDEX campaigns_account_created ON campaigns (account_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE INDEX campaigns_waiting ON campaigns (turn_at)
    WHERE status IN ('scheduled', 'queued', 'running', 'paused')
  `
  yield* sql`
    CREATE TABLE campaign_recipients (
      account_id bigint NOT NULL,
      campaign_id text NOT NULL,
      contact_id text NOT NULL,
      seq integer NOT NULL,
      digits text,
      parameters jsonb,
      status text NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'skipped', 'failed')),
      message_id text,
      reason text,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, campaign_id, contact_id),
      FOREIGN KEY (account_id, campaign_id) REFERENCES campaigns (account_id, id) ON DELETE CASCADE
    )
  `
  yield* sql`CREATE UNIQUE INDEX campaign_recipients_order ON campaign_recipients (account_id, campaign_id, seq)`
  yield* sql`
    CREATE INDEX campaign_recipients_pending ON campaign_recipients (account_id, campaign_id, seq)
    WHERE status IN ('pending', 'sending')
  `
})

export default migration
