/**
 * 0025: the WhatsApp inbox (the `WhatsAppInbox` port in @wasl/core whatsapp/whatsapp-inbox.ts,
 * `WhatsAppInboxPg` in pg/whatsapp-inbox-pg.ts): Meta's callbacks as they came, until the worker
 * has processed them.
 *
 * - One row per stored callback; processing deletes it, so the table holds only what is still to
 *   do and needs no pruning. No `account_id`: a callback is Meta's, for any number of sending
 *   numbers of any accounts, and which account each part belongs to is the processing's to find.
 * - `body` is `text`, the bytes as Meta signed them (the receiver stores only UTF-8 JSON, which
 *   holds no NUL). Not `json`/`jsonb`: nothing queries inside it, and the processing parses it.
 * - Claims walk the primary key (`id`, the arrival order) `FOR UPDATE SKIP LOCKED`, skipping rows
 *   whose lease or retry time has not come (`claimed_until`); the table is small while the worker
 *   keeps up.
 * - A statement-level trigger runs `NOTIFY wasl_whatsapp_inbox` after every insert, delivered at
 *   commit, so a listening worker wakes as soon as a callback is stored.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE whatsapp_inbox (
      id bigserial PRIMARY KEY,
      body text NOT NULL,
      received_at timestamptz NOT NULL,
      claimed_until timestamptz,
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0)
    )
  `

  yield* sql`
    CREATE FUNCTION whatsapp_inbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('wasl_whatsapp_inbox', '');
      RETURN NULL;
    END
    $$
  `

  yield* sql`
    CREATE TRIGGER whatsapp_inbox_notify
    AFTER INSERT ON whatsapp_inbox
    FOR EACH STATEMENT EXECUTE FUNCTION whatsapp_inbox_notify()
  `
})

export default migration
