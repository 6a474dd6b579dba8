/**
 * Exports on PostgreSQL (tables `exports` and `export_chunks`, migrations 0016 and 0023).
 *
 * The claim takes the first waiting export in turn order (`exports_turns`) with `FOR UPDATE SKIP
 * LOCKED`: a queued one, a running one between two batches, or a running one whose lease ran out
 * — and that no batch holds (`hold` locks the row for the batch's transaction, which the claim
 * then skips), so a slow batch is never taken over and a dead run is resumed from its stored
 * progress. The same statement moves the account's turn; the account's other waiting exports are
 * moved with `FOR UPDATE SKIP LOCKED` too (here and when a batch lets its export go): one that
 * another worker's batch holds keeps its place, and that batch moves it when it commits, so no
 * statement ever waits for another's batch.
 */
import {
  type ExportChunk,
  type ExportCompletion,
  type ExportProgress,
  type ExportRow,
  ExportRepository,
  type NewExport
} from "@wasl/core/Exports"
import { ObjectKindSchema } from "@wasl/core/Records"
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

    // The account's turn when it has waiting exports (the new one goes behind them, oldest first),
    // else a turn of its own from when it was asked for.
    const insert = (row: NewExport) =>
      sql`
        INSERT INTO exports (account_id, id, user_id, kind, query, columns, status, created_at, updated_at, turn_at, turn_seq)
        SELECT ${row.accountId}, ${row.id}, ${row.userId}, ${row.kind}, ${JSON.stringify(row.query)}::jsonb,
          ${JSON.stringify(row.columns)}::jsonb, 'queued', ${at(row.createdAt)}, ${at(row.createdAt)},
          COALESCE(t.turn_at, ${at(row.createdAt)}), COALESCE(t.turn_seq, nextval('claim_turns'))
        FROM (VALUES (1)) AS one LEFT JOIN LATERAL (
          SELECT turn_at, turn_seq FROM exports
          WHERE account_id = ${row.accountId} AND status IN ('queued', 'running')
          ORDER BY turn_at DESC, turn_seq DESC LIMIT 1
        ) t ON true
      `.pipe(Effect.asVoid, Effect.orDie)

    const get = (accountId: number, id: string) =>
      Effect.flatMap(sql`SELECT * FROM exports WHERE account_id = ${accountId} AND id = ${id}`, one).pipe(Effect.orDie)

    /**
     * A batch of the export ended at `now`: a new turn of its account then, for the export (while
     * it waits) and the account's other waiting exports that no worker holds.
     */
    const endTurn = (accountId: number, id: string, now: DateTime.Utc) =>
      sql`
        WITH turn AS (SELECT nextval('claim_turns') AS seq)
        UPDATE exports e SET turn_at = ${at(now)}, turn_seq = (SELECT seq FROM turn)
        FROM (
          SELECT account_id, id FROM exports
          WHERE account_id = ${accountId} AND status IN ('queued', 'running')
            AND (id = ${id} OR lease_until IS NULL OR lease_until < ${at(now)})
          FOR UPDATE SKIP LOCKED
        ) o
        WHERE e.account_id = o.account_id AND e.id = o.id
      `

    // A run starts when the export was queued or its lease ran out (its worker stopped mid-batch);
    // one released between two batches goes on with the same run.
    const claim = (now: DateTime.Utc, leaseUntil: DateTime.Utc) =>
      Effect.flatMap(
        sql`
          WITH picked AS (
            SELECT account_id, id FROM exports
            WHERE status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < ${at(now)})
            ORDER BY turn_at, turn_seq, created_at, account_id, id
            LIMIT 1
            FOR UPDATE SKIP LOCKED
          ),
          others AS (
            SELECT o.account_id, o.id FROM exports o JOIN picked p ON o.account_id = p.account_id AND o.id <> p.id
            WHERE o.status IN ('queued', 'running') AND (o.lease_until IS NULL OR o.lease_until < ${at(now)})
            FOR UPDATE OF o SKIP LOCKED
          ),
          turn AS (SELECT nextval('claim_turns') AS seq),
          busy AS (
            UPDATE exports e SET turn_at = ${at(leaseUntil)}, turn_seq = (SELECT seq FROM turn)
            FROM others o
            WHERE e.account_id = o.account_id AND e.id = o.id
          )
          UPDATE exports e SET status = 'running',
            attempts = e.attempts + (CASE WHEN e.status = 'queued' OR e.lease_until IS NOT NULL THEN 1 ELSE 0 END),
            updated_at = CASE WHEN e.status = 'queued' OR e.lease_until IS NOT NULL THEN ${at(now)} ELSE e.updated_at END,
            lease_until = ${at(leaseUntil)}, turn_at = ${at(leaseUntil)}, turn_seq = (SELECT seq FROM turn)
          FROM picked p
          WHERE e.account_id = p.account_id AND e.id = p.id
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

    const advance = (accountId: number, id: string, p: ExportProgress, now: DateTime.Utc) =>
      sql`
        UPDATE exports SET scan_after = ${p.after}, written_rows = ${p.rows}, written_bytes = ${p.bytes},
          written_chunks = ${p.chunks}, started_at = ${p.startedAt === null ? null : at(p.startedAt)},
          lease_until = NULL
        WHERE account_id = ${accountId} AND id = ${id}
      `.pipe(Effect.andThen(endTurn(accountId, id, now)), Effect.asVoid, Effect.orDie)

    // The progress columns keep what the last batch before stored; a completed export answers by its counts.
    const complete = (accountId: number, id: string, c: ExportCompletion) =>
      sql`
        UPDATE exports SET status = 'completed', row_count = ${c.rowCount}, byte_size = ${c.byteSize},
          completed_at = ${at(c.completedAt)}, expires_at = ${at(c.expiresAt)}, updated_at = ${at(c.completedAt)},
          lease_until = NULL
        WHERE account_id = ${accountId} AND id = ${id}
      `.pipe(Effect.andThen(endTurn(accountId, id, c.completedAt)), Effect.asVoid, Effect.orDie)

    const fail = (accountId: number, id: string, reason: string, now: DateTime.Utc) =>
      Effect.all([
        sql`DELETE FROM export_chunks WHERE account_id = ${accountId} AND export_id = ${id}`,
        sql`
          UPDATE exports SET status = 'failed', failure = ${reason}, updated_at = ${at(now)}, lease_until = NULL
          WHERE account_id = ${accountId} AND id = ${id}
        `,
        endTurn(accountId, id, now)
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
