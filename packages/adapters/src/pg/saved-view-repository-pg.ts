import type { ChosenViews } from "@wasl/core/Accounts"
import { OBJECT_KINDS, ORDER_DIRECTIONS, type SavedView, SavedViewRepository } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Statement } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeRows } from "./rows.ts"

const SavedViewRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(OBJECT_KINDS),
  account_id: DbInt,
  user_id: DbInt,
  name: Schema.String,
  search: DbNullOr(Schema.String),
  order: DbNullOr(Schema.String),
  direction: DbNullOr(Schema.Literals(ORDER_DIRECTIONS)),
  complex_filters: Schema.Array(Schema.Unknown),
  columns: Schema.Array(Schema.String),
  shared: Schema.Boolean,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const decodeAll = decodeRows(SavedViewRow)

const COLUMNS = `id, kind, account_id, user_id, name, search, "order", direction, complex_filters, columns, shared, created_at, updated_at`

/**
 * The member's chosen views as one row (`views.contact`, `views.deal`, `views.ticket`: an id or
 * null), left out where the view is not one the member sees; an aggregate, so always one row.
 * `CurrentUserReaderPg` reads it with the rest of `GET /api/me`.
 */
export const chosenViewsOf = (
  sql: SqlClient.SqlClient,
  accountId: number,
  userId: number
): Statement.Statement<Record<string, string | null>> => sql`
  SELECT
    max(c.view_id) FILTER (WHERE c.kind = 'contact') AS "views.contact",
    max(c.view_id) FILTER (WHERE c.kind = 'deal') AS "views.deal",
    max(c.view_id) FILTER (WHERE c.kind = 'ticket') AS "views.ticket"
  FROM saved_view_choices c
  JOIN saved_views v ON v.account_id = c.account_id AND v.kind = c.kind AND v.id = c.view_id
  WHERE c.account_id = ${accountId} AND c.user_id = ${userId} AND (v.shared OR v.user_id = ${userId})`

/** The chosen views of a {@link chosenViewsOf} row. */
export const toChosenViews = (row: Readonly<Record<string, unknown>> | undefined): ChosenViews => ({
  contact: (row?.["views.contact"] as string | null | undefined) ?? null,
  deal: (row?.["views.deal"] as string | null | undefined) ?? null,
  ticket: (row?.["views.ticket"] as string | null | undefined) ?? null
})

/** Saved views and the members' chosen ones on PostgreSQL (tables `saved_views`, `saved_view_choices`, migration 0050). */
export const SavedViewRepositoryPg: Layer.Layer<SavedViewRepository, never, SqlClient.SqlClient> = Layer.effect(
  SavedViewRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(COLUMNS)
    const views = (rows: ReadonlyArray<unknown>) =>
      Effect.map(decodeAll(rows), (decoded) => decoded.map(({ id, ...row }): SavedView => ({ _id: id, ...row })))
    return SavedViewRepository.of({
      listVisible: (accountId, kind, userId) =>
        sql`
          SELECT ${columns} FROM saved_views
          WHERE account_id = ${accountId} AND kind = ${kind} AND (shared OR user_id = ${userId})
          ORDER BY created_at, id
        `.pipe(Effect.flatMap(views), Effect.orDie),
      find: (accountId, kind, id) =>
        sql`SELECT ${columns} FROM saved_views WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id}`.pipe(
          Effect.flatMap(views),
          Effect.map((found) => Option.fromNullishOr(found[0])),
          Effect.orDie
        ),
      save: (v) =>
        sql`
          INSERT INTO saved_views (account_id, kind, id, user_id, name, search, "order", direction, complex_filters, columns,
                                   shared, created_at, updated_at)
          VALUES (${v.account_id}, ${v.kind}, ${v._id}, ${v.user_id}, ${v.name}, ${v.search}, ${v.order}, ${v.direction},
                  ${JSON.stringify(v.complex_filters)}::jsonb, ${JSON.stringify(v.columns)}::jsonb, ${v.shared},
                  ${DateTime.toDateUtc(v.created_at)}, ${DateTime.toDateUtc(v.updated_at)})
          ON CONFLICT (account_id, kind, id) DO UPDATE
          SET name = EXCLUDED.name, search = EXCLUDED.search, "order" = EXCLUDED."order", direction = EXCLUDED.direction,
              complex_filters = EXCLUDED.complex_filters, columns = EXCLUDED.columns, shared = EXCLUDED.shared,
              updated_at = EXCLUDED.updated_at
        `.pipe(Effect.asVoid, Effect.orDie),
      delete: (accountId, kind, id) =>
        sql`DELETE FROM saved_views WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      chosen: (accountId, userId) =>
        chosenViewsOf(sql, accountId, userId).pipe(Effect.map((rows) => toChosenViews(rows[0])), Effect.orDie),
      choose: (accountId, userId, kind, viewId) =>
        viewId === null
          ? sql`DELETE FROM saved_view_choices WHERE account_id = ${accountId} AND user_id = ${userId} AND kind = ${kind}`.pipe(
            Effect.asVoid,
            Effect.orDie
          )
          // From the view's row, so a view deleted meanwhile leaves no choice (rather than a key violation).
          : sql`
            WITH cleared AS (
              DELETE FROM saved_view_choices WHERE account_id = ${accountId} AND user_id = ${userId} AND kind = ${kind}
            )
            INSERT INTO saved_view_choices (account_id, user_id, kind, view_id)
            SELECT account_id, ${userId}, kind, id FROM saved_views
            WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${viewId}
            ON CONFLICT (account_id, user_id, kind) DO UPDATE SET view_id = EXCLUDED.view_id
          `.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
