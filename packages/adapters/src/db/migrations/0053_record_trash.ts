/**
 * 0053: the trash (`TrashRepositoryPg`). A deleted record is kept whole in `record_trash` until it
 * is restored or purged: `record`, its REST shape when deleted (what the trash list shows), and
 * `snapshot`, its rows as `to_jsonb` wrote them — the record's row, its custom values' side rows,
 * its notes, its rows of every link table it is a side of (by table) and a contact's channel
 * entries — from which a restore inserts them again. The record's own rows are then deleted as a
 * final delete deletes them, so the trash needs nothing of the read paths: a trashed record is
 * simply not among the records.
 *
 * `(account_id, kind, deleted_at DESC, id DESC)` serves the trash list, `deleted_at` the worker's
 * purge of entries past their retention.
 *
 * `outbox_events.name` takes the restore events too (`deal-restored`, …).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE record_trash (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('contact', 'company', 'deal', 'ticket', 'invoice', 'product')),
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      record jsonb NOT NULL,
      snapshot jsonb NOT NULL,
      deleted_at timestamptz NOT NULL,
      deleted_by bigint,
      merged_into text CHECK (merged_into ~ '^[0-9a-f]{24}$'),
      PRIMARY KEY (account_id, kind, id)
    )
  `
  yield* sql`CREATE INDEX record_trash_list ON record_trash (account_id, kind, deleted_at DESC, id DESC)`
  yield* sql`CREATE INDEX record_trash_deleted_at ON record_trash (deleted_at)`
  yield* sql`
    ALTER TABLE outbox_events
      DROP CONSTRAINT outbox_events_name_check,
      ADD CONSTRAINT outbox_events_name_check CHECK (
        name ~ '^(contact|company|deal|ticket|invoice|product)-((property-group-|property-|note-)?(created|updated|deleted)|restored)$'
        OR name IN ('message-received', 'message-status-updated')
      )
  `
})

export default migration
