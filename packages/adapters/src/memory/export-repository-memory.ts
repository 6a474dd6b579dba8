/**
 * Exports in memory, with ExportRepositoryPg's semantics. A batch's transaction holds the store's
 * lock from `hold` to its end, so nothing can claim the export meanwhile, as on PostgreSQL where
 * the claim skips the row the batch holds. Claims go by the accounts' turns (claim-turns.ts).
 */
import { type ExportRow, ExportRepository, queuedExport } from "@wasl/core/Exports"
import { DateTime, Effect, Layer, Option, Stream } from "effect"
import { byTurn, firstTurn, takeTurn } from "./claim-turns.ts"
import { exportKey, type ExportTable, type MemoryState, MemoryStore, readStore, updateStore } from "./store.ts"

const withExports = (state: MemoryState, exports: ExportTable): MemoryState => ({ ...state, exports })

/** The state with the export `key` changed by `f` (no change when there is none). */
const changed = (state: MemoryState, key: string, f: (row: ExportRow) => ExportRow): MemoryState => {
  const row = state.exports.rows.get(key)
  if (row === undefined) return state
  return withExports(state, { ...state.exports, rows: new Map(state.exports.rows).set(key, f(row)) })
}

const isWaiting = (row: ExportRow): boolean => row.status === "queued" || row.status === "running"

/** Whether a worker may claim it: waiting, and no worker holds it (never leased, let go, or its lease ran out). */
const isFree = (row: ExportRow, now: DateTime.Utc): boolean =>
  isWaiting(row) && (row.leaseUntil === null || DateTime.isLessThan(row.leaseUntil, now))

/**
 * A new turn of the account beginning `at`, for the export `id` (while it waits) and the account's
 * other waiting exports no worker holds at `now`; an ended export leaves the turns.
 */
const withTurn = (state: MemoryState, accountId: number, id: string, now: DateTime.Utc, at: DateTime.Utc): MemoryState => {
  const [turn, next] = takeTurn(state, at)
  const turns = new Map(next.exports.turns)
  for (const row of next.exports.rows.values()) {
    if (row.accountId !== accountId) continue
    const key = exportKey(row.accountId, row.id)
    if (!isWaiting(row)) turns.delete(key)
    else if (row.id === id || isFree(row, now)) turns.set(key, turn)
  }
  return withExports(next, { ...next.exports, turns })
}

/** `ExportRepository` over the memory store. */
export const ExportRepositoryMemory: Layer.Layer<ExportRepository, never, MemoryStore> = Layer.effect(
  ExportRepository,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    const update = <A>(f: (state: MemoryState) => readonly [A, MemoryState]) => updateStore(store, f)
    // Every export inserted has a turn while it waits; one seeded into the store without waits from when it was asked for.
    const turnOf = (state: MemoryState, row: ExportRow) =>
      state.exports.turns.get(exportKey(row.accountId, row.id)) ?? { at: row.createdAt, seq: 0 }
    return ExportRepository.of({
      insert: (row) =>
        update((state) => {
          const key = exportKey(row.accountId, row.id)
          const waiting = [...state.exports.rows.values()].filter((r) => r.accountId === row.accountId && isWaiting(r))
          const [turn, next] = firstTurn(state, row.createdAt, waiting.map((r) => turnOf(state, r)))
          const rows = new Map(next.exports.rows).set(key, queuedExport(row))
          return [undefined, withExports(next, { ...next.exports, rows, turns: new Map(next.exports.turns).set(key, turn) })]
        }),
      get: (accountId, id) =>
        readStore(store, (state) => Option.fromNullishOr(state.exports.rows.get(exportKey(accountId, id)))),
      claim: (now, leaseUntil) =>
        update((state) => {
          const first = [...state.exports.rows.values()]
            .filter((row) => isFree(row, now))
            .sort((a, b) => byTurn({ ...a, turn: turnOf(state, a) }, { ...b, turn: turnOf(state, b) }))[0]
          if (first === undefined) return [Option.none(), state]
          // A run starts when it was queued or its lease ran out; one let go between two batches goes on.
          const starts = first.status === "queued" || first.leaseUntil !== null
          const claimed: ExportRow = {
            ...first,
            status: "running",
            attempts: first.attempts + (starts ? 1 : 0),
            leaseUntil,
            updatedAt: starts ? now : first.updatedAt
          }
          const next = changed(state, exportKey(first.accountId, first.id), () => claimed)
          // The account is busy until the claim runs out: every other account's exports come first.
          return [Option.some(claimed), withTurn(next, first.accountId, first.id, now, leaseUntil)]
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
      advance: (accountId, id, progress, now) =>
        update((state) => {
          const next = changed(state, exportKey(accountId, id), (row) => ({ ...row, progress, leaseUntil: null }))
          return [undefined, withTurn(next, accountId, id, now, now)]
        }),
      complete: (accountId, id, c) =>
        update((state) => {
          const next = changed(state, exportKey(accountId, id), (row) => ({
            ...row,
            status: "completed",
            rowCount: c.rowCount,
            byteSize: c.byteSize,
            completedAt: c.completedAt,
            expiresAt: c.expiresAt,
            updatedAt: c.completedAt,
            leaseUntil: null
          }))
          return [undefined, withTurn(next, accountId, id, c.completedAt, c.completedAt)]
        }),
      fail: (accountId, id, reason, now) =>
        update((state) => {
          const key = exportKey(accountId, id)
          const failed = changed(state, key, (row) => ({ ...row, status: "failed", failure: reason, updatedAt: now, leaseUntil: null }))
          const chunks = new Map(failed.exports.chunks)
          chunks.delete(key)
          return [undefined, withTurn(withExports(failed, { ...failed.exports, chunks }), accountId, id, now, now)]
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
