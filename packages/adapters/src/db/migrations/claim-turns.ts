/**
 * The claim order of a table of the worker's jobs (`imports`, `exports`): accounts take turns, a
 * batch each.
 *
 * `turn_at` and `turn_seq`: where a waiting job stands, its account's turn — when it begins, then
 * its number from the sequence `claim_turns` (migration 0022), so that turns beginning in the same
 * instant go in the order they were taken. A new job takes its account's turn when the account has
 * waiting jobs (it goes behind them, oldest first), else one of its own from its creation. A claim
 * gives the account's waiting jobs a turn at the end of its lease (the account is busy: every other
 * account's job comes first); the batch's commit lets the job go and gives them a turn at that
 * instant, behind every account that waited meanwhile. An account's jobs move together, with one
 * number.
 *
 * - `<table>_turns` replaces `<table>_waiting`: the claim reads the waiting jobs in turn order and
 *   takes the first no worker holds. A held job's turn is at its lease's end, after every job free
 *   to claim, so the claim reads one entry or a few.
 * - `<table>_account_waiting`: an account's waiting jobs, which each claim and each batch move
 *   together, however many finished ones the account keeps.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** Adds the turn columns and indexes to `table` (its existing jobs turn from their creation). */
export const addClaimTurns = (table: "imports" | "exports"): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const t = sql(table)
    yield* sql`ALTER TABLE ${t} ADD COLUMN turn_at timestamptz, ADD COLUMN turn_seq bigint NOT NULL DEFAULT nextval('claim_turns')`
    yield* sql`UPDATE ${t} SET turn_at = created_at`
    yield* sql`ALTER TABLE ${t} ALTER COLUMN turn_at SET NOT NULL`
    yield* sql`DROP INDEX ${sql(`${table}_waiting`)}`
    yield* sql`
      CREATE INDEX ${sql(`${table}_turns`)} ON ${t} (turn_at, turn_seq, created_at, account_id, id)
      WHERE status IN ('queued', 'running')
    `
    yield* sql`CREATE INDEX ${sql(`${table}_account_waiting`)} ON ${t} (account_id) WHERE status IN ('queued', 'running')`
  })
