/**
 * Exports in memory, with ExportRepositoryPg's semantics. A run's transaction holds the store's
 * lock from `hold` to its end, so nothing can claim the export meanwhile, as on PostgreSQL where
 * the claim skips the row the run holds.
 */
import { type ExportRow, ExportRepository, queuedExport } from "@wasl/core"
import { DateTime, Effect, Layer, Option, Stream } from "effect"
import { exportKey, type ExportTable, type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

const withExports = (state: MemoryState, exports: ExportTable): MemoryState => ({ ...state, exports })

/** The state with the export `key` changed by `f` (no change when there is none). */
const changed = (state: MemoryState, key: string, f: (row: ExportRow) => ExportRow): MemoryState => {
  const row = state.exports.rows.get(key)
  if (row === undefined) return state
  return withExports(state, { ...state.exports, rows: new Map(state.exports.rows).set(key, f(row)) })
}

/** Whether a worker may claim it: queued, or running with its lease run out. */
const waiting = (row: ExportRow, now: DateTime.Utc): boolean =>
  row.status === "queued" ||
  (row.status === "running" && row.leaseUntil !== null && DateTime.isLessThan(row.leaseUntil, now))

/** `ExportRepository` over the memory store. */
export const ExportRepositoryMemory: Layer.Layer<ExportRepository, never, MemoryStore> = Layer.effect(
  ExportRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const update = <A>(f: (state: MemoryState) => readonly [A, MemoryState]) => updateStore(store, f)
    return ExportRepository.of({
      insert: (row) =>
        update((state) => {
          const rows = new Map(state.exports.rows).set(exportKey(row.accountId, row.id), queuedExport(row))
          return [undefined, withExports(state, { ...state.exports, rows })]
        }),
      get: (accountId, id) =>
        readStore(store, (state) => Option.fromNullishOr(state.exports.rows.get(exportKey(accountId, id)))),
      claim: (now, leaseUntil) =>
        update((state) => {
          const oldest = [...state.exports.rows.values()]
            .filter((row) => waiting(row, now))
            .sort((a, b) => DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt))[0]
          if (oldest === undefined) return [Option.none(), state]
          const claimed: ExportRow = { ...oldest, status: "running", attempts: oldest.attempts + 1, leaseUntil, updatedAt: now }
          return [Option.some(claimed), changed(state, exportKey(oldest.accountId, oldest.id), () => claimed)]
        }),
      hold: (accountId, id, attempts) =>
        readStore(store, (state) => {
          const row = state.exports.rows.get(exportKey(accountId, id))
          return row !== undefined && row.status === "running" && row.attempts === attempts
        }),
      appendChunk: (chunk) =>
        update((state) => {
          const key = exportKey(chunk.accountId, chunk.exportId)
          const chunks = new Map(state.exports.chunks).set(key, [...(state.exports.chunks.get(key) ?? []), chunk])
          return [undefined, withExports(state, { ...state.exports, chunks })]
        }),
      complete: (accountId, id, c) =>
        update((state) => [
          undefined,
          changed(state, exportKey(accountId, id), (row) => ({
            ...row,
            status: "completed",
            rowCount: c.rowCount,
            byteSize: c.byteSize,
            completedAt: c.completedAt,
            expiresAt: c.expiresAt,
            updatedAt: c.completedAt,
            leaseUntil: null
          }))
        ]),
      fail: (accountId, id, reason, now) =>
        update((state) => {
          const key = exportKey(accountId, id)
          const failed = changed(state, key, (row) => ({ ...row, status: "failed", failure: reason, updatedAt: now, leaseUntil: null }))
          const chunks = new Map(failed.exports.chunks)
          chunks.delete(key)
          return [undefined, withExports(failed, { ...failed.exports, chunks })]
        }),
      // Chunk by chunk from the state of each moment, as the PostgreSQL adapter reads them.
      chunks: (accountId, id) =>
        Stream.unfold(0, (seq) =>
          readStore(store, (state) => {
            const chunk = state.exports.chunks.get(exportKey(accountId, id))?.find((c) => c.seq === seq)
            return chunk === undefined ? undefined : [chunk.bytes, seq + 1] as const
          }))
    })
  })
)
