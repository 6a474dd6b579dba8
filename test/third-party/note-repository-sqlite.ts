/**
 * A `NoteRepository` written outside Wasl, as a third party would: the notes live in SQLite
 * (`node:sqlite`), the rest of the ports stay Wasl's. It is proved by running Wasl's own contract
 * suite for the port against it (note-repository-sqlite.test.ts).
 *
 * A port's writes must commit or roll back with the `Transactor`'s unit of work, so the adapter
 * also wraps the deployment's Transactor: each transaction runs inside a SQLite savepoint, which
 * is released with the transaction or rolled back with it. SQLite is one connection here: like
 * Wasl's memory store, a transaction holds it, and an operation outside one waits for it.
 */
import { Transactor } from "@wasl/core/Deployment"
import { type Note, NoteRepository } from "@wasl/core/Notes"
import { Context, DateTime, Effect, Exit, Layer, Option, Semaphore } from "effect"
import { DatabaseSync } from "node:sqlite"

/** The SQLite database and the lock its one connection is used under. */
export class NotesDatabase extends Context.Service<NotesDatabase, {
  readonly db: DatabaseSync
  readonly lock: Semaphore.Semaphore
}>()("third-party/NotesDatabase") {
  /** A fresh in-memory SQLite database with the notes table. */
  static readonly layer: Layer.Layer<NotesDatabase> = Layer.sync(NotesDatabase, () => {
    const db = new DatabaseSync(":memory:")
    db.exec(`CREATE TABLE notes (
      account_id INTEGER NOT NULL, id TEXT NOT NULL, object_type TEXT NOT NULL, record_id TEXT NOT NULL,
      body TEXT NOT NULL, made_by INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, id))`)
    return { db, lock: Semaphore.makeUnsafe(1) }
  })
}

/** Set while the fiber runs inside a transaction, which already holds the connection. */
const InTransaction = Context.Reference<boolean>("third-party/InTransaction", { defaultValue: () => false })

/** Runs a statement on the connection, waiting for a running transaction unless inside it. */
const onConnection = <A>(f: (db: DatabaseSync) => A): Effect.Effect<A, never, NotesDatabase> =>
  Effect.gen(function*() {
    const { db, lock } = yield* NotesDatabase
    const statement = Effect.sync(() => f(db))
    return yield* ((yield* InTransaction) ? statement : lock.withPermit(statement))
  })

interface NoteRow {
  readonly account_id: number
  readonly id: string
  readonly object_type: Note["object_type"]
  readonly record_id: string
  readonly body: string
  readonly made_by: number | null
  readonly created_at: number
  readonly updated_at: number
}

const toNote = (row: NoteRow): Note => ({
  _id: row.id,
  account_id: row.account_id,
  object_type: row.object_type,
  record_id: row.record_id,
  body: row.body,
  made_by: row.made_by,
  created_at: DateTime.makeUnsafe(row.created_at),
  updated_at: DateTime.makeUnsafe(row.updated_at)
})

const WHERE_REF = "account_id = ? AND object_type = ? AND record_id = ? AND id = ?"

/** The notes in SQLite. */
export const NoteRepositorySqlite: Layer.Layer<NoteRepository, never, NotesDatabase> = Layer.effect(
  NoteRepository,
  Effect.map(NotesDatabase, (database) => {
    const run = <A>(f: (db: DatabaseSync) => A) => Effect.provideService(onConnection(f), NotesDatabase, database)
    const find = (db: DatabaseSync, ref: { accountId: number; kind: string; recordId: string; noteId: string }) =>
      db.prepare(`SELECT * FROM notes WHERE ${WHERE_REF}`).get(ref.accountId, ref.kind, ref.recordId, ref.noteId) as
        | NoteRow
        | undefined
    return NoteRepository.of({
      list: (scope, page) =>
        run((db) => {
          const where = "account_id = ? AND object_type = ? AND record_id = ?"
          const args = [scope.accountId, scope.kind, scope.recordId] as const
          const rows = db.prepare(`SELECT * FROM notes WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
            .all(...args, page.perPage, (page.page - 1) * page.perPage) as unknown as ReadonlyArray<NoteRow>
          const { total } = db.prepare(`SELECT count(*) AS total FROM notes WHERE ${where}`).get(...args) as { total: number }
          return { rows: rows.map(toNote), total }
        }),
      get: (ref) => run((db) => Option.map(Option.fromNullishOr(find(db, ref)), toNote)),
      insert: (note) =>
        run((db) => {
          // A taken id breaks the primary key: thrown, hence a defect, as the port requires.
          db.prepare("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(
            note.account_id, note._id, note.object_type, note.record_id, note.body, note.made_by,
            DateTime.toEpochMillis(note.created_at), DateTime.toEpochMillis(note.updated_at)
          )
        }),
      update: (ref, body, at) =>
        run((db) => {
          db.prepare(`UPDATE notes SET body = ?, updated_at = ? WHERE ${WHERE_REF}`)
            .run(body, DateTime.toEpochMillis(at), ref.accountId, ref.kind, ref.recordId, ref.noteId)
          return Option.map(Option.fromNullishOr(find(db, ref)), toNote)
        }),
      delete: (ref) =>
        run((db) =>
          db.prepare(`DELETE FROM notes WHERE ${WHERE_REF}`).run(ref.accountId, ref.kind, ref.recordId, ref.noteId).changes > 0
        )
    })
  })
)

/**
 * The deployment's Transactor with the SQLite notes in its unit of work: each (nested)
 * transaction is a savepoint, released on success and rolled back on failure or interruption.
 */
export const TransactorWithSqlite: Layer.Layer<Transactor, never, Transactor | NotesDatabase> = Layer.effect(
  Transactor,
  Effect.gen(function*() {
    const inner = yield* Transactor
    const { db, lock } = yield* NotesDatabase
    let depth = 0
    const savepoint = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(
        Effect.sync(() => {
          const name = `wasl_${depth++}`
          db.exec(`SAVEPOINT ${name}`)
          return name
        }),
        () => Effect.provideService(effect, InTransaction, true),
        (name, exit) =>
          Effect.sync(() => {
            depth--
            db.exec(Exit.isSuccess(exit) ? `RELEASE ${name}` : `ROLLBACK TO ${name}; RELEASE ${name}`)
          })
      )
    return Transactor.of({
      transaction: (effect) =>
        Effect.flatMap(InTransaction, (nested) =>
          inner.transaction(nested ? savepoint(effect) : lock.withPermit(savepoint(effect))))
    })
  })
)
