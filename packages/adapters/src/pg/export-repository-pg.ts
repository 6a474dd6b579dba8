/**
 * Exports on PostgreSQL (tables `exports` and `export_chunks`, migration 0016).
 *
 * The claim takes the oldest waiting export with `FOR UPDATE SKIP LOCKED` through the partial
 * index `exports_waiting`: a queued one, or a running one whose lease ran out — and that no batch
 * holds (`hold` locks the row for the batch's transaction, which the claim then skips), so a slow
 * batch is never taken over and a dead run is resumed from its stored progress.
 */
import { type ExportChunk, type ExportCompletion, type ExportProgress, type ExportRow, ExportRepository, type NewExport, ObjectKindSchema } from "@wasl/core"
import { DateTime, Effect, Layer, Option, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeFirst } from "./rows.ts"

const ExportDbRow = Schema.Struct({
  account_id: DbInt,
  id: Schema.String,
  user_id: DbInt,
  kind: ObjectKindSchema,
  // jsonb: the driver parses it.
  query: Schema.Record(Schema.String, Schema.String),
  columns: Schema.Array(Schema.String),
  status: Schema.Literals(["queued", "running", "completed", "failed"]),
  attempts: DbInt,
  lease_until: DbNullOr(DbTimestamp),
  scan_after: Schema.NullOr(Schema.String),
  written_rows: DbInt,
  written_bytes: DbInt,
  written_chunks: DbInt,
  started_at: DbNullOr(DbTimestamp),
  row_count: Schema.NullOr(DbInt),
  byte_size: Schema.NullOr(DbInt),
  failure: Schema.NullOr(Schema.String),
  created_at: DbTimestamp,
  updated_at: DbTimestamp,
  completed_at: DbNullOr(DbTimestamp),
  expires_at: DbNullOr(DbTimestamp)
})

const toExport = (r: typeof ExportDbRow.Type): ExportRow => ({
  accountId: r.account_id,
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  query: r.query,
  columns: r.columns,
  status: r.status,
  attempts: r.attempts,
  progress: {
    after: r.scan_after,
    rows: r.written_rows,
    bytes: r.written_bytes,
    chunks: r.written_chunks,
    startedAt: r.started_at
  },
  leaseUntil: r.lease_until,
  rowCount: r.row_count,
  byteSize: r.byte_size,
  failure: r.failure,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  completedAt: r.completed_at,
  expiresAt: r.expires_at
})

const decodeOne = decodeFirst(ExportDbRow)
const at = DateTime.toDateUtc

/** ExportRepository on PostgreSQL (`SqlClient`, migrated). */
export const ExportRepositoryPg: Layer.Layer<ExportRepository, never, SqlClient.SqlClient> = Layer.effect(
  ExportRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = (rows: ReadonlyArray<unknown>) => Effect.map(decodeOne(rows), Option.map(toExport))

    const insert = (row: NewExport) =>
      sql`
        INSERT INTO exports (account_id, id, user_id, kind, query, columns, status, created_at, updated_at)
        VALUES (${row.accountId}, ${row.id}, ${row.userId}, ${row.kind}, ${JSON.stringify(row.query)}::jsonb,
          ${JSON.stringify(row.columns)}::jsonb, 'queued', ${at(row.createdAt)}, ${at(row.createdAt)})
      `.pipe(Effect.asVoid, Effect.orDie)

    const get = (accountId: number, id: string) =>
      Effect.flatMap(sql`SELECT * FROM exports WHERE account_id = ${accountId} AND id = ${id}`, one).pipe(Effect.orDie)

    const claim = (now: DateTime.Utc, leaseUntil: DateTime.Utc) =>
      Effect.flatMap(
        sql`
          UPDATE exports e SET status = 'running', attempts = e.attempts + 1, lease_until = ${at(leaseUntil)},
            updated_at = ${at(now)}
          FROM (
            SELECT account_id, id FROM exports
            WHERE status = 'queued' OR (status = 'running' AND lease_until < ${at(now)})
            ORDER BY created_at LIMIT 1
            FOR UPDATE SKIP LOCKED
          ) w
          WHERE e.account_id = w.account_id AND e.id = w.id
          RETURNING e.*
        `,
        one
      ).pipe(Effect.orDie)

    const hold = (accountId: number, id: string, attempts: number) =>
      Effect.map(
        sql`
          SELECT 1 FROM exports
          WHERE account_id = ${accountId} AND id = ${id} AND status = 'running' AND attempts = ${attempts}
          FOR UPDATE
        `,
        (rows) => rows.length > 0
      ).pipe(Effect.orDie)

    const appendChunk = (chunk: ExportChunk) =>
      sql`
        INSERT INTO export_chunks (account_id, export_id, seq, bytes, written_at)
        VALUES (${chunk.accountId}, ${chunk.exportId}, ${chunk.seq}, ${chunk.bytes}, ${at(chunk.writtenAt)})
      `.pipe(Effect.asVoid, Effect.orDie)

    const advance = (accountId: number, id: string, p: ExportProgress, leaseUntil: DateTime.Utc) =>
      sql`
        UPDATE exports SET scan_after = ${p.after}, written_rows = ${p.rows}, written_bytes = ${p.bytes},
          written_chunks = ${p.chunks}, started_at = ${p.startedAt === null ? null : at(p.startedAt)},
          lease_until = ${at(leaseUntil)}
        WHERE account_id = ${accountId} AND id = ${id}
      `.pipe(Effect.asVoid, Effect.orDie)

    // The progress columns keep what the last batch before stored; a completed export answers by its counts.
    const complete = (accountId: number, id: string, c: ExportCompletion) =>
      sql`
        UPDATE exports SET status = 'completed', row_count = ${c.rowCount}, byte_size = ${c.byteSize},
          completed_at = ${at(c.completedAt)}, expires_at = ${at(c.expiresAt)}, updated_at = ${at(c.completedAt)},
          lease_until = NULL
        WHERE account_id = ${accountId} AND id = ${id}
      `.pipe(Effect.asVoid, Effect.orDie)

    const fail = (accountId: number, id: string, reason: string, now: DateTime.Utc) =>
      Effect.all([
        sql`DELETE FROM export_chunks WHERE account_id = ${accountId} AND export_id = ${id}`,
        sql`
          UPDATE exports SET status = 'failed', failure = ${reason}, updated_at = ${at(now)}, lease_until = NULL
          WHERE account_id = ${accountId} AND id = ${id}
        `
      ], { discard: true }).pipe(Effect.orDie)

    // One statement per chunk, by key, when the reader wants it: a download holds one chunk.
    const chunks = (accountId: number, id: string) =>
      Stream.unfold(0, (seq) =>
        Effect.map(
          sql<{ readonly bytes: Uint8Array }>`
            SELECT bytes FROM export_chunks WHERE account_id = ${accountId} AND export_id = ${id} AND seq = ${seq}
          `,
          (rows) => rows.length === 0 ? undefined : [rows[0]!.bytes, seq + 1] as const
        )).pipe(Stream.orDie)

    return ExportRepository.of({ insert, get, claim, hold, appendChunk, advance, complete, fail, chunks })
  })
)
