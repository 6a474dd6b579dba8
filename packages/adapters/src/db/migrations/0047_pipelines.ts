/**
 * 0047: pipelines of deals and tickets (the `PipelineRepository` port of @wasl/core,
 * `PipelineRepositoryPg` in pg/), and the records' pipeline and stage.
 *
 * - `pipelines (account_id, kind, id)`: the account's own pipelines, and its default one (`id`
 *   `default`) once it changed it; the built-in ones are constants of the core, never stored.
 *   `stages` is the ordered JSON list the core validated (internal_name, name, closed, and for
 *   deals probability and won); a pipeline is read whole, never searched inside.
 * - `deals.pipeline`, `tickets.pipeline` (a pipeline's id) and `tickets.ticket_stage`. Rows
 *   written before this migration are in the default pipeline, tickets in its first stage `new`:
 *   each column is added with that default, which PostgreSQL records once for the existing rows
 *   without rewriting the table, and the default is then dropped, so a new row holds what the
 *   core wrote (it always writes both).
 * - `deal_stage` held one of seven option names (a CHECK of 0004): a stage is now any stage of the
 *   account's pipelines, which the core checks, so the CHECK goes.
 * - Indexes: `(account_id, pipeline, stage, id)` serves a board (a pipeline's records by stage)
 *   and the filters on pipeline; `(account_id, ticket_stage, id)` the filters on a ticket's stage
 *   (deals have `deals_deal_stage` from 0004).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const FOLDED_PIPELINE = `(left(lower(pipeline), 255) COLLATE "C")`

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE pipelines (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('deal', 'ticket')),
      id text NOT NULL CHECK (id = 'default' OR id ~ '^[0-9a-f]{24}$'),
      name jsonb NOT NULL CHECK (jsonb_typeof(name) = 'object'),
      stages jsonb NOT NULL CHECK (jsonb_typeof(stages) = 'array'),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, kind, id)
    )
  `
  yield* sql`ALTER TABLE deals DROP CONSTRAINT deals_deal_stage_check`
  yield* sql`ALTER TABLE deals ADD COLUMN pipeline text DEFAULT 'default'`
  yield* sql`ALTER TABLE deals ALTER COLUMN pipeline DROP DEFAULT`
  yield* sql`ALTER TABLE tickets ADD COLUMN pipeline text DEFAULT 'default'`
  yield* sql`ALTER TABLE tickets ALTER COLUMN pipeline DROP DEFAULT`
  yield* sql`ALTER TABLE tickets ADD COLUMN ticket_stage text COLLATE "C" DEFAULT 'new'`
  yield* sql`ALTER TABLE tickets ALTER COLUMN ticket_stage DROP DEFAULT`
  yield* sql.unsafe(`CREATE INDEX deals_pipeline_stage ON deals (account_id, ${FOLDED_PIPELINE}, deal_stage, id)`)
  yield* sql.unsafe(`CREATE INDEX tickets_pipeline_stage ON tickets (account_id, ${FOLDED_PIPELINE}, ticket_stage, id)`)
  yield* sql`CREATE INDEX tickets_ticket_stage ON tickets (account_id, ticket_stage, id)`
})

export default migration
