/**
 * 0050: saved views of the lists and each member's chosen views (the `SavedViewRepository` port
 * of @wasl/core, `SavedViewRepositoryPg` in pg/).
 *
 * - `saved_views (account_id, kind, id)`: a view of a kind's list, owned by `user_id`, seen by the
 *   whole account when `shared`. `complex_filters` and `columns` are the JSON lists the core
 *   validated, read whole, never searched inside. A view outlives its owner's membership (a
 *   shared one stays the account's), so `user_id` is no foreign key.
 * - `saved_view_choices (account_id, user_id, kind)`: the view a member opens each of contacts,
 *   deals and tickets on. It goes with the member's membership and with the view (both cascade);
 *   a view made private is left out when read, so it comes back if the view is shared again.
 * - `GET /api/me` shows the choices, so a change to them, or to whether a view is shared,
 *   announces the member's or the account's parts to the processes' caches (migration 0020).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { createCacheTriggers } from "./cache-triggers.ts"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE saved_views (
      account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('contact', 'company', 'deal', 'ticket', 'invoice', 'product')),
      id text NOT NULL CHECK (id ~ '^[0-9a-f]{24}$'),
      user_id bigint NOT NULL,
      name text NOT NULL,
      search text,
      "order" text,
      direction text CHECK (direction IN ('asc', 'desc')),
      complex_filters jsonb NOT NULL CHECK (jsonb_typeof(complex_filters) = 'array'),
      columns jsonb NOT NULL CHECK (jsonb_typeof(columns) = 'array'),
      shared boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, kind, id)
    )
  `
  yield* sql`
    CREATE TABLE saved_view_choices (
      account_id bigint NOT NULL,
      user_id bigint NOT NULL,
      kind text NOT NULL CHECK (kind IN ('contact', 'deal', 'ticket')),
      view_id text NOT NULL,
      PRIMARY KEY (account_id, user_id, kind),
      FOREIGN KEY (account_id, user_id) REFERENCES account_user (account_id, user_id) ON DELETE CASCADE,
      FOREIGN KEY (account_id, kind, view_id) REFERENCES saved_views (account_id, kind, id) ON DELETE CASCADE
    )
  `
  // The cascade from a deleted view finds its choices by this index.
  yield* sql`CREATE INDEX saved_view_choices_view ON saved_view_choices (account_id, kind, view_id)`
  yield* createCacheTriggers("me_cache_notify", [
    ["saved_view_choices", "INSERT OR DELETE OR UPDATE", "'me', 'account_id', 'user_id'"],
    ["saved_views", "UPDATE OF shared", "'me', 'account_id'"]
  ])
})

export default migration
