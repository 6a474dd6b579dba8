/**
 * CSV imports on PostgreSQL (tables `imports` and `import_rows`, migrations 0015 and 0022). Rows
 * travel as one JSON parameter per statement (`jsonb_array_elements`), so a batch of a thousand
 * rows is one round trip whatever its size.
 *
 * `claim` is one statement: the first waiting import in turn order (`imports_turns`) that no
 * worker holds, `FOR UPDATE SKIP LOCKED`, feeding the UPDATE of its claim and of its account's
 * turn. The account's other waiting imports are moved with `FOR UPDATE SKIP LOCKED` too (here and
 * when a batch lets its import go): one that another worker's batch has locked keeps its place,
 * and that batch moves it when it commits, so no statement ever waits for another's batch.
 */
import { type FailedRow, type ImportJob, ImportRepository, ImportStatus } from "@wasl/core/Imports"
import { ObjectKindSchema } from "@wasl/core/Records"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeFirst, decodeRows } from "./rows.ts"

// jsonb comes back parsed from node-postgres, as text from some clients.
const Json = <S extends Schema.Top>(schema: S) => Schema.Union([schema, Schema.fromJsonString(schema)])
const Cells = Json(Schema.Array(Schema.String))
const Errors = Json(Schema.Record(Schema.String, Schema.Array(Schema.String)))

const ImportRowDb = Schema.Struct({
  account_id: DbInt,
  id: Schema.String,
  user_id: DbInt,
  kind: ObjectKindSchema,
  status: ImportStatus,
  file_name: Schema.String,
  columns: Cells,
  match_on: Schema.NullOr(Schema.String),
  rows_total: DbInt,
  next_line: DbInt,
  rows_read: DbInt,
  created: DbInt,
  updated: DbInt,
  failed: DbInt,
  reason: Schema.NullOr(Schema.String),
  created_at: DbTimestamp,
  updated_at: DbTimestamp,
  finished_at: DbNullOr(DbTimestamp)
})

const StagedRowDb = Schema.Struct({ line: DbInt, cells: Cells })
const FailedRowDb = Schema.Struct({ line: DbInt, cells: Cells, errors: Errors })

const decodeJob = decodeFirst(ImportRowDb)
const decodeStaged = decodeRows(StagedRowDb)
const decodeFailed = decodeRows(FailedRowDb)

const toJob = (row: typeof ImportRowDb.Type): ImportJob => ({
  id: row.id,
  accountId: row.account_id,
  userId: row.user_id,
  kind: row.kind,
  status: row.status,
  fileName: row.file_name,
  columns: row.columns,
  matchOn: row.match_on,
  rowsTotal: row.rows_total,
  nextLine: row.next_line,
  rowsRead: row.rows_read,
  created: row.created,
  updated: row.updated,
  failed: row.failed,
  reason: row.reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  finishedAt: row.finished_at
})

const JOB_COLUMNS = "account_id, id, user_id, kind, status, file_name, columns, match_on, rows_total, next_line, " +
  "rows_read, created, updated, failed, reason, created_at, updated_at, finished_at"

const date = DateTime.toDateUtc

/** CSV imports and their staged rows on PostgreSQL; the twin of `ImportRepositoryMemory`. */
export const ImportRepositoryPg: Layer.Layer<ImportRepository, never, SqlClient.SqlClient> = Layer.effect(
  ImportRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const jobColumns = sql.literal(JOB_COLUMNS)
    const toJobOption = (rows: ReadonlyArray<unknown>) => Effect.map(decodeJob(rows), Option.map(toJob))

    /**
     * A batch of the import ended at `now`: a new turn of its account then, for the import and the
     * account's other waiting imports that no worker holds.
     */
    const endTurn = (accountId: number, id: string, now: DateTime.Utc) =>
      sql`
        WITH turn AS (SELECT nextval('claim_turns') AS seq)
        UPDATE imports i SET turn_at = ${date(now)}, turn_seq = (SELECT seq FROM turn)
        FROM (
          SELECT account_id, id FROM imports
          WHERE account_id = ${accountId} AND status IN ('queued', 'running')
            AND (id = ${id} OR leased_until IS NULL OR leased_until <= ${date(now)})
          FOR UPDATE SKIP LOCKED
        ) o
        WHERE i.account_id = o.account_id AND i.id = o.id
      `

    return ImportRepository.of({
      // The account's turn when it has waiting imports (the new one goes behind them, oldest
      // first), else a turn of its own from its upload.
      create: (job) =>
        sql`
          INSERT INTO imports (account_id, id, user_id, kind, status, file_name, columns, created_at, updated_at, turn_at, turn_seq)
          SELECT ${job.accountId}, ${job.id}, ${job.userId}, ${job.kind}, 'queued', ${job.fileName},
            ${JSON.stringify(job.columns)}::jsonb, ${date(job.now)}, ${date(job.now)},
            COALESCE(t.turn_at, ${date(job.now)}), COALESCE(t.turn_seq, nextval('claim_turns'))
          FROM (VALUES (1)) AS one LEFT JOIN LATERAL (
            SELECT turn_at, turn_seq FROM imports
            WHERE account_id = ${job.accountId} AND status IN ('queued', 'running')
            ORDER BY turn_at DESC, turn_seq DESC LIMIT 1
          ) t ON true
        `.pipe(Effect.asVoid, Effect.orDie),

      appendRows: (accountId, id, rows) =>
        rows.length === 0 ? Effect.void : sql`
          INSERT INTO import_rows (account_id, import_id, line, cells)
          SELECT ${accountId}, ${id}, (e->>0)::int4, e->1
          FROM jsonb_array_elements(${JSON.stringify(rows.map((row) => [row.line, row.cells]))}::jsonb) AS e
        `.pipe(Effect.asVoid, Effect.orDie),

      setStaged: (accountId, id, rowsTotal, matchOn) =>
        sql`
          UPDATE imports SET rows_total = ${rowsTotal}, match_on = ${matchOn}
          WHERE account_id = ${accountId} AND id = ${id}
        `.pipe(Effect.asVoid, Effect.orDie),

      find: (accountId, id) =>
        sql`SELECT ${jobColumns} FROM imports WHERE account_id = ${accountId} AND id = ${id}`.pipe(
          Effect.flatMap(toJobOption),
          Effect.orDie
        ),

      claim: (now, leaseUntil) =>
        sql`
          WITH picked AS (
            SELECT account_id, id FROM imports
            WHERE status IN ('queued', 'running') AND (leased_until IS NULL OR leased_until <= ${date(now)})
            ORDER BY turn_at, turn_seq, created_at, account_id, id
            LIMIT 1
            FOR UPDATE SKIP LOCKED
          ),
          others AS (
            SELECT o.account_id, o.id FROM imports o JOIN picked p ON o.account_id = p.account_id AND o.id <> p.id
            WHERE o.status IN ('queued', 'running') AND (o.leased_until IS NULL OR o.leased_until <= ${date(now)})
            FOR UPDATE OF o SKIP LOCKED
          ),
          turn AS (SELECT nextval('claim_turns') AS seq),
          busy AS (
            UPDATE imports i SET turn_at = ${date(leaseUntil)}, turn_seq = (SELECT seq FROM turn)
            FROM others o
            WHERE i.account_id = o.account_id AND i.id = o.id
          )
          UPDATE imports i SET status = 'running', leased_until = ${date(leaseUntil)}, turn_at = ${date(leaseUntil)},
            turn_seq = (SELECT seq FROM turn), updated_at = ${date(now)}
          FROM picked p
          WHERE i.account_id = p.account_id AND i.id = p.id
          RETURNING ${sql.literal(JOB_COLUMNS.split(", ").map((c) => `i.${c}`).join(", "))}
        `.pipe(Effect.flatMap(toJobOption), Effect.orDie),

      rows: (accountId, id, fromLine, limit) =>
        sql`
          SELECT line, cells FROM import_rows
          WHERE account_id = ${accountId} AND import_id = ${id} AND line >= ${fromLine}
          ORDER BY line LIMIT ${limit}
        `.pipe(Effect.flatMap(decodeStaged), Effect.orDie),

      advance: (accountId, id, progress) =>
        Effect.gen(function*() {
          const moved = yield* sql`
            UPDATE imports SET next_line = ${progress.nextLine},
              rows_read = rows_read + ${progress.created + progress.updated + progress.failures.length},
              created = created + ${progress.created}, updated = updated + ${progress.updated},
              failed = failed + ${progress.failures.length},
              leased_until = NULL, updated_at = ${date(progress.now)}
            WHERE account_id = ${accountId} AND id = ${id} AND next_line = ${progress.from}
            RETURNING 1 AS moved
          `
          if (moved.length === 0) return false
          yield* endTurn(accountId, id, progress.now)
          if (progress.failures.length > 0) {
            yield* sql`
              UPDATE import_rows r SET errors = e->1
              FROM jsonb_array_elements(${JSON.stringify(progress.failures.map((f) => [f.line, f.errors]))}::jsonb) AS e
              WHERE r.account_id = ${accountId} AND r.import_id = ${id} AND r.line = (e->>0)::int4
            `
          }
          yield* sql`
            DELETE FROM import_rows
            WHERE account_id = ${accountId} AND import_id = ${id}
              AND line >= ${progress.from} AND line < ${progress.nextLine} AND errors IS NULL
          `
          return true
        }).pipe(Effect.orDie),

      finish: (accountId, id, status, reason, now) =>
        sql`
          UPDATE imports SET status = ${status}, reason = ${reason}, leased_until = NULL,
            updated_at = ${date(now)}, finished_at = ${date(now)}
          WHERE account_id = ${accountId} AND id = ${id}
        `.pipe(Effect.andThen(endTurn(accountId, id, now)), Effect.asVoid, Effect.orDie),

      failedRows: (accountId, id, afterLine, limit) =>
        sql`
          SELECT line, cells, errors FROM import_rows
          WHERE account_id = ${accountId} AND import_id = ${id} AND errors IS NOT NULL AND line > ${afterLine}
          ORDER BY line LIMIT ${limit}
        `.pipe(Effect.flatMap(decodeFailed), Effect.map((rows): ReadonlyArray<FailedRow> => rows), Effect.orDie)
    })
  })
)
