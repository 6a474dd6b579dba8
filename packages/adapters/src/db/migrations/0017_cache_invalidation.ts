/**
 * 0017: the announcements the processes' caches listen to (`RepositoryCachesPg`).
 *
 * A server keeps, for a few seconds, what every request reads first: an API token by id, a
 * member's grants, an account's property definitions of a kind. Whatever changes one of them —
 * a replica through the API, the CLI, an operator's SQL, a cascade from a deleted account or
 * user — makes these triggers `NOTIFY wasl_cache` with what to forget. PostgreSQL delivers the
 * notification at commit, to every process listening, so each replica drops its copy as soon as
 * the change is visible.
 *
 * Payloads (row triggers; PostgreSQL folds identical payloads of one transaction into one):
 *
 * - `token:<id>`: an API token deleted, or its owner, secret or abilities changed (not
 *   `last_used_at`: the trigger fires on `UPDATE OF` the other columns only);
 * - `grants:<account>:<user>`: a membership deleted or its status changed, or the user joined or
 *   left a team;
 * - `grants:<account>`: a team's permissions changed or the team deleted (every member's grants);
 * - `properties:<account>:<kind>`: a property definition created, changed or deleted.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { createCacheTriggers } from "./cache-triggers.ts"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // One function for every table: TG_ARGV[0] is what to forget, the other arguments the columns
  // naming which; the old row and the new one (an update moving a row) are both announced.
  yield* sql`
    CREATE FUNCTION cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      changed jsonb[] := '{}';
      one jsonb;
      payload text;
    BEGIN
      IF TG_OP <> 'INSERT' THEN changed := changed || to_jsonb(OLD); END IF;
      IF TG_OP <> 'DELETE' THEN changed := changed || to_jsonb(NEW); END IF;
      FOREACH one IN ARRAY changed LOOP
        payload := TG_ARGV[0];
        FOR i IN 1 .. TG_NARGS - 1 LOOP
          payload := payload || ':' || (one ->> TG_ARGV[i]);
        END LOOP;
        PERFORM pg_notify('wasl_cache', payload);
      END LOOP;
      RETURN NULL;
    END
    $$
  `
  yield* createCacheTriggers("cache_notify", [
    ["api_tokens", "DELETE OR UPDATE OF account_id, user_id, secret_hash, abilities", "'token', 'id'"],
    ["account_user", "DELETE OR UPDATE OF account_id, user_id, status", "'grants', 'account_id', 'user_id'"],
    ["team_user", "INSERT OR DELETE OR UPDATE", "'grants', 'account_id', 'user_id'"],
    ["teams", "DELETE OR UPDATE OF account_id, permissions", "'grants', 'account_id'"],
    ["properties", "INSERT OR DELETE OR UPDATE", "'properties', 'account_id', 'kind'"]
  ])
})

export default migration
