/**
 * CSV imports in the memory store, the twin of `ImportRepositoryPg`: an import with its claim, its
 * account's turn and its staged rows by line; a claim takes the import no worker holds whose
 * account's turn is oldest (claim-turns.ts).
 */
import { type FailedRow, type ImportJob, ImportRepository } from "@wasl/core/Imports"
import { DateTime, Effect, Layer, Option } from "effect"
import { byTurn, firstTurn, takeTurn } from "./claim-turns.ts"
import { requireAccount } from "./property-repository-memory.ts"
import type { ImportEntry, StagedImportRow } from "./import-tables.ts"
import { mapSet, type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

const key = (accountId: number, id: string) => `${accountId}:${id}`

/** The entry, which must exist (as the table's foreign key requires). */
const entryOf = (state: MemoryState, accountId: number, id: string): ImportEntry => {
  const entry = state.imports.get(key(accountId, id))
  if (entry === undefined) throw new Error(`import_rows: no import ${accountId}:${id}`)
  return entry
}

const put = (state: MemoryState, entry: ImportEntry): MemoryState => ({
  ...state,
  imports: mapSet(state.imports, key(entry.job.accountId, entry.job.id), entry)
})

const isWaiting = (entry: ImportEntry) => entry.job.status === "queued" || entry.job.status === "running"

/** Waiting, and held by no worker at `now`. */
const isFree = (entry: ImportEntry, now: DateTime.Utc) =>
  isWaiting(entry) && (entry.leasedUntil === null || DateTime.isLessThanOrEqualTo(entry.leasedUntil, now))

/**
 * A new turn of the import's account beginning `at`: the import's, and that of the account's other
 * waiting imports no worker holds at `now`. Answers the state with the others moved, and the turn.
 */
const withTurn = (state: MemoryState, accountId: number, id: string, now: DateTime.Utc, at: DateTime.Utc) => {
  const [turn, next] = takeTurn(state, at)
  const imports = new Map(next.imports)
  for (const [k, entry] of next.imports) {
    if (entry.job.accountId === accountId && entry.job.id !== id && isFree(entry, now)) imports.set(k, { ...entry, turn })
  }
  return [{ ...next, imports }, turn] as const
}

/** CSV imports in the memory store; the twin of `ImportRepositoryPg`. */
export const ImportRepositoryMemory: Layer.Layer<ImportRepository, never, MemoryStore> = Layer.effect(
  ImportRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return ImportRepository.of({
      create: (job) =>
        updateStore(store, (state) => {
          requireAccount(state, job.accountId, "imports")
          if (state.imports.has(key(job.accountId, job.id))) throw new Error(`imports: duplicate key ${job.id}`)
          const stored: ImportJob = {
            id: job.id,
            accountId: job.accountId,
            userId: job.userId,
            kind: job.kind,
            status: "queued",
            fileName: job.fileName,
            columns: job.columns,
            matchOn: null,
            rowsTotal: 0,
            nextLine: 2,
            rowsRead: 0,
            created: 0,
            updated: 0,
            failed: 0,
            reason: null,
            createdAt: job.now,
            updatedAt: job.now,
            finishedAt: null
          }
          const waiting = [...state.imports.values()].filter((e) => e.job.accountId === job.accountId && isWaiting(e))
          const [turn, next] = firstTurn(state, job.now, waiting.map((e) => e.turn))
          return [undefined, put(next, { job: stored, leasedUntil: null, turn, rows: new Map() })] as const
        }),
      appendRows: (accountId, id, rows) =>
        updateStore(store, (state) => {
          const entry = entryOf(state, accountId, id)
          const staged = new Map(entry.rows)
          for (const row of rows) {
            if (staged.has(row.line)) throw new Error(`import_rows: duplicate line ${row.line}`)
            staged.set(row.line, { cells: row.cells, errors: null })
          }
          return [undefined, put(state, { ...entry, rows: staged })] as const
        }),
      setStaged: (accountId, id, rowsTotal, matchOn) =>
        updateStore(store, (state) => {
          const entry = entryOf(state, accountId, id)
          return [undefined, put(state, { ...entry, job: { ...entry.job, rowsTotal, matchOn } })] as const
        }),
      find: (accountId, id) =>
        readStore(store, (state) => Option.fromNullishOr(state.imports.get(key(accountId, id))?.job)),
      claim: (now, leaseUntil) =>
        updateStore(store, (state) => {
          const first = [...state.imports.values()]
            .filter((e) => isFree(e, now))
            .sort((a, b) => byTurn({ ...a.job, turn: a.turn }, { ...b.job, turn: b.turn }))[0]
          if (first === undefined) return [Option.none(), state] as const
          const job: ImportJob = { ...first.job, status: "running", updatedAt: now }
          // The account is busy until the claim runs out: every other account's imports come first.
          const [busy, turn] = withTurn(state, job.accountId, job.id, now, leaseUntil)
          return [Option.some(job), put(busy, { ...first, job, leasedUntil: leaseUntil, turn })] as const
        }),
      rows: (accountId, id, fromLine, limit) =>
        readStore(store, (state) =>
          [...(state.imports.get(key(accountId, id))?.rows ?? [])]
            .filter(([line]) => line >= fromLine)
            .sort(([a], [b]) => a - b)
            .slice(0, limit)
            .map(([line, row]) => ({ line, cells: row.cells }))),
      advance: (accountId, id, progress) =>
        updateStore(store, (state) => {
          const entry = entryOf(state, accountId, id)
          if (entry.job.nextLine !== progress.from) return [false, state] as const
          const failures = new Map(progress.failures.map((f) => [f.line, f.errors]))
          const rows = new Map<number, StagedImportRow>()
          for (const [line, row] of entry.rows) {
            const errors = failures.get(line)
            if (errors !== undefined) rows.set(line, { ...row, errors })
            else if (line < progress.from || line >= progress.nextLine || row.errors !== null) rows.set(line, row)
          }
          const { job } = entry
          const next: ImportJob = {
            ...job,
            nextLine: progress.nextLine,
            rowsRead: job.rowsRead + progress.created + progress.updated + progress.failures.length,
            created: job.created + progress.created,
            updated: job.updated + progress.updated,
            failed: job.failed + progress.failures.length,
            updatedAt: progress.now
          }
          const [turned, turn] = withTurn(state, accountId, id, progress.now, progress.now)
          return [true, put(turned, { job: next, leasedUntil: null, turn, rows })] as const
        }),
      finish: (accountId, id, status, reason, now) =>
        updateStore(store, (state) => {
          const entry = entryOf(state, accountId, id)
          const job: ImportJob = { ...entry.job, status, reason, updatedAt: now, finishedAt: now }
          const [turned] = withTurn(state, accountId, id, now, now)
          return [undefined, put(turned, { ...entry, job, leasedUntil: null })] as const
        }),
      failedRows: (accountId, id, afterLine, limit) =>
        readStore(store, (state): ReadonlyArray<FailedRow> => {
          const entry = state.imports.get(key(accountId, id))
          if (entry === undefined) return []
          return [...entry.rows]
            .filter(([line, row]) => line > afterLine && row.errors !== null)
            .sort(([a], [b]) => a - b)
            .slice(0, limit)
            .map(([line, row]) => ({ line, cells: row.cells, errors: row.errors! }))
        })
    })
  })
)
