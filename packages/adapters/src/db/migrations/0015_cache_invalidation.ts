/**
 * 0015: the announcements the processes' caches listen to (`RepositoryCachesPg`).
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

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE FUNCTION api_tokens_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('wasl_cache', 'token:' || OLD.id);
      RETURN NULL;
    END
    $$
  `
  yield* sql`
    CREATE TRIGGER api_tokens_cache_notify
    AFTER DELETE OR UPDATE OF account_id, user_id, secret_hash, abilities ON api_tokens
    FOR EACH ROW EXECUTE FUNCTION api_tokens_cache_notify()
  `

  yield* sql`
    CREATE FUNCTION member_grants_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      changed record;
    BEGIN
      IF TG_OP = 'INSERT' THEN changed := NEW; ELSE changed := OLD; END IF;
      PERFORM pg_notify('wasl_cache', 'grants:' || changed.account_id || ':' || changed.user_id);
      IF TG_OP = 'UPDATE' THEN
        PERFORM pg_notify('wasl_cache', 'grants:' || NEW.account_id || ':' || NEW.user_id);
      END IF;
      RETURN NULL;
    END
    $$
  `
  yield* sql`
    CREATE TRIGGER account_user_cache_notify
    AFTER DELETE OR UPDATE OF account_id, user_id, status ON account_user
    FOR EACH ROW EXECUTE FUNCTION member_grants_cache_notify()
  `
  yield* sql`
    CREATE TRIGGER team_user_cache_notify
    AFTER INSERT OR DELETE OR UPDATE ON team_user
    FOR EACH ROW EXECUTE FUNCTION member_grants_cache_notify()
  `

  yield* sql`
    CREATE FUNCTION teams_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('wasl_cache', 'grants:' || OLD.account_id);
      RETURN NULL;
    END
    $$
  `
  yield* sql`
    CREATE TRIGGER teams_cache_notify
    AFTER DELETE OR UPDATE OF account_id, permissions ON teams
    FOR EACH ROW EXECUTE FUNCTION teams_cache_notify()
  `

  yield* sql`
    CREATE FUNCTION properties_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      changed record;
    BEGIN
      IF TG_OP = 'INSERT' THEN changed := NEW; ELSE changed := OLD; END IF;
      PERFORM pg_notify('wasl_cache', 'properties:' || changed.account_id || ':' || changed.kind);
      IF TG_OP = 'UPDATE' THEN
        PERFORM pg_notify('wasl_cache', 'properties:' || NEW.account_id || ':' || NEW.kind);
      END IF;
      RETURN NULL;
    END
    $$
  `
  yield* sql`
    CREATE TRIGGER properties_cache_notify
    AFTER INSERT OR DELETE OR UPDATE ON properties
    FOR EACH ROW EXECUTE FUNCTION properties_cache_notify()
  `
})

export default migration
