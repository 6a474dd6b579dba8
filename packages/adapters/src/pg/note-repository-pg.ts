/** Notes of records on PostgreSQL (table `notes`, migration 0004), newest first. */
import { type Note, NoteRepository, type NoteRef, type NoteScope } from "@wasl/core/Notes"
import { ObjectKindSchema, pageOffset } from "@wasl/core/Records"
import { RecordId } from "@wasl/core/Wire"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbTimestamp, decodeFirst, decodeRows } from "./rows.ts"

const NoteRow = Schema.Struct({
  id: RecordId,
  account_id: DbInt,
  object_type: ObjectKindSchema,
  record_id: RecordId,
  body: Schema.String,
  made_by: Schema.NullOr(DbInt),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const toNote = (row: typeof NoteRow.Type): Note => ({
  _id: row.id,
  account_id: row.account_id,
  object_type: row.object_type,
  record_id: row.record_id,
  body: row.body,
  made_by: row.made_by,
  created_at: row.created_at,
  updated_at: row.updated_at
})

const decodeAll = decodeRows(NoteRow)
const decodeOne = decodeFirst(NoteRow)

/**
 * Notes of records on PostgreSQL (table `notes`): a record's notes list newest first
 * (`created_at`, then id), and every statement filters on the account, kind and record.
 */
export const NoteRepositoryPg: Layer.Layer<NoteRepository, never, SqlClient.SqlClient> = Layer.effect(
  NoteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal("id, account_id, object_type, record_id, body, made_by, created_at, updated_at")
    const inScope = (s: NoteScope) =>
      sql`account_id = ${s.accountId}::int8 AND object_type = ${s.kind} AND record_id = ${s.recordId}`
    const isRef = (r: NoteRef) => sql`${inScope(r)} AND id = ${r.noteId}`

    return NoteRepository.of({
      list: (scope, page) =>
        Effect.gen(function*() {
          const [count] = yield* sql<{ readonly total: number }>`SELECT count(*)::int8 AS total FROM notes WHERE ${inScope(scope)}`
          const rows = yield* sql`
            SELECT ${columns} FROM notes WHERE ${inScope(scope)}
            ORDER BY created_at DESC, id DESC LIMIT ${page.perPage} OFFSET ${pageOffset(page)}
          `.pipe(Effect.flatMap(decodeAll))
          return { rows: rows.map(toNote), total: Number(count?.total ?? 0) }
        }).pipe(Effect.orDie),
      get: (ref) =>
        sql`SELECT ${columns} FROM notes WHERE ${isRef(ref)}`.pipe(
          Effect.flatMap(decodeOne),
          Effect.map(Option.map(toNote)),
          Effect.orDie
        ),
      insert: (n) =>
        sql`
          INSERT INTO notes (account_id, id, object_type, record_id, body, made_by, created_at, updated_at)
          VALUES (${n.account_id}::int8, ${n._id}, ${n.object_type}, ${n.record_id}, ${n.body}, ${n.made_by}::int8,
                  ${DateTime.toDateUtc(n.created_at)}::timestamptz, ${DateTime.toDateUtc(n.updated_at)}::timestamptz)
        `.pipe(Effect.asVoid, Effect.orDie),
      update: (ref, body, at) =>
        sql`
          UPDATE notes SET body = ${body}, updated_at = ${DateTime.toDateUtc(at)}::timestamptz
          WHERE ${isRef(ref)} RETURNING ${columns}
        `.pipe(Effect.flatMap(decodeOne), Effect.map(Option.map(toNote)), Effect.orDie),
      delete: (ref) => sql`DELETE FROM notes WHERE ${isRef(ref)} RETURNING 1`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
    })
  })
)
