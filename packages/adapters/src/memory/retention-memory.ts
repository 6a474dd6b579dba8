import { type ExportChunk, type ExportRow } from "@wasl/core/Exports"
import { type ImportJob } from "@wasl/core/Imports"
import { type OtpReservation } from "@wasl/core/Otp"
import { Retention, type RetentionKind } from "@wasl/core/Retention"
import { DateTime, Effect, Layer } from "effect"
import type { DeliveryRow, InvitationRow, MemoryState, NotificationRow } from "./store.ts"
import { MemoryStore, updateStore } from "./store.ts"
import { withMessaging } from "./messaging-constraints.ts"

const millis = DateTime.toEpochMillis

/** The `limit` oldest of `rows` whose age is before `cutoff` (by age, then in table order). */
const oldest = <A>(rows: Iterable<A>, ageOf: (row: A) => number | null, cutoff: number, limit: number): Set<A> => {
  const aged: Array<{ readonly row: A; readonly age: number }> = []
  for (const row of rows) {
    const age = ageOf(row)
    if (age !== null && age < cutoff) aged.push({ row, age })
  }
  return new Set(aged.sort((a, b) => a.age - b.age).slice(0, limit).map((a) => a.row))
}

/** A finished delivery's age: when it finished (pending ones are never pruned). */
const deliveryAge = (row: DeliveryRow): number | null => row.status === "pending" ? null : millis(row.updatedAt)

/** A notification's age: when it was read; for one never listed, when it was made; unread listed ones never. */
const notificationAge = (row: NotificationRow): number | null =>
  row.readAt !== null ? millis(row.readAt) : row.stored === false ? millis(row.createdAt) : null

/** A finished import's age: when it finished (queued and running ones are never pruned). */
const importAge = (job: ImportJob): number | null =>
  (job.status === "completed" || job.status === "failed") && job.finishedAt !== null ? millis(job.finishedAt) : null

/** A finished export's age: its expiry, or when it failed (queued and running ones are never pruned). */
const exportAge = (row: ExportRow): number | null =>
  row.status === "completed" || row.status === "failed" ? millis(row.expiresAt ?? row.updatedAt) : null

/** A finished OTP reservation's age: when it was settled or released (open ones are never pruned). */
const reservationAge = (r: OtpReservation): number | null => r.status === "open" ? null : millis(r.updated_at)

/** An invitation's age: when it was accepted or revoked, or else its expiry (ahead of any cutoff while pending). */
const invitationAge = (row: InvitationRow): number =>
  millis(row.acceptedAt ?? row.revokedAt ?? row.invitation.expires_at)

/** The files of exports: a batch of chunks written before the cutoff. */
const pruneExportChunks = (state: MemoryState, cutoff: number, limit: number): readonly [number, MemoryState] => {
  const pieces = [...state.exports.chunks].flatMap(([key, chunks]) => chunks.map((chunk) => ({ key, chunk })))
  const gone = oldest(pieces, ({ chunk }) => millis(chunk.writtenAt), cutoff, limit)
  if (gone.size === 0) return [0, state]
  const goneChunks = new Set([...gone].map(({ chunk }) => chunk))
  const chunks = new Map<string, ReadonlyArray<ExportChunk>>()
  for (const [key, list] of state.exports.chunks) {
    const kept = list.filter((chunk) => !goneChunks.has(chunk))
    if (kept.length > 0) chunks.set(key, kept)
  }
  return [gone.size, { ...state, exports: { ...state.exports, chunks } }]
}

/** The exports themselves, the retention after their expiry: a batch of them, with any chunks left. */
const pruneExportRows = (state: MemoryState, cutoff: number, limit: number): readonly [number, MemoryState] => {
  const gone = oldest(state.exports.rows.entries(), ([, row]) => exportAge(row), cutoff, limit)
  if (gone.size === 0) return [0, state]
  const rows = new Map(state.exports.rows)
  const chunks = new Map(state.exports.chunks)
  for (const [key] of gone) {
    rows.delete(key)
    chunks.delete(key)
  }
  return [gone.size, { ...state, exports: { ...state.exports, rows, chunks } }]
}

/** Each kind's batch over the state: the next state and how many rows went. */
const PRUNE: Readonly<Record<RetentionKind, (state: MemoryState, cutoff: number, limit: number) => readonly [number, MemoryState]>> = {
  deliveries: (state, cutoff, limit) => {
    const gone = oldest(state.deliveries.entries(), ([, row]) => deliveryAge(row), cutoff, limit)
    if (gone.size === 0) return [0, state]
    const deliveries = new Map(state.deliveries)
    for (const [key] of gone) deliveries.delete(key)
    return [gone.size, { ...state, deliveries }]
  },
  notifications: (state, cutoff, limit) => {
    const gone = oldest(state.notifications, notificationAge, cutoff, limit)
    if (gone.size === 0) return [0, state]
    return [gone.size, { ...state, notifications: state.notifications.filter((row) => !gone.has(row)) }]
  },
  verifications: (state, cutoff, limit) => {
    const gone = oldest(state.messaging.verifications.entries(), ([, v]) => millis(v.expires_at), cutoff, limit)
    if (gone.size === 0) return [0, state]
    const verifications = new Map(state.messaging.verifications)
    for (const [key] of gone) verifications.delete(key)
    return [gone.size, withMessaging(state, { ...state.messaging, verifications })]
  },
  idempotency: (state, cutoff, limit) => {
    const gone = oldest(state.idempotencyKeys.entries(), ([, row]) => millis(row.expiresAt), cutoff, limit)
    if (gone.size === 0) return [0, state]
    const idempotencyKeys = new Map(state.idempotencyKeys)
    for (const [key] of gone) idempotencyKeys.delete(key)
    return [gone.size, { ...state, idempotencyKeys }]
  },
  exports: (state, cutoff, limit) => {
    const [files, withoutFiles] = pruneExportChunks(state, cutoff, limit)
    const [exports, next] = pruneExportRows(withoutFiles, cutoff, limit)
    return [files + exports, next]
  },
  imports: (state, cutoff, limit) => {
    const gone = oldest(state.imports.entries(), ([, entry]) => importAge(entry.job), cutoff, limit)
    if (gone.size === 0) return [0, state]
    const imports = new Map(state.imports)
    for (const [key] of gone) imports.delete(key)
    return [gone.size, { ...state, imports }]
  },
  reservations: (state, cutoff, limit) => {
    const gone = oldest(state.messaging.reservations.entries(), ([, r]) => reservationAge(r), cutoff, limit)
    if (gone.size === 0) return [0, state]
    const reservations = new Map(state.messaging.reservations)
    for (const [key] of gone) reservations.delete(key)
    return [gone.size, withMessaging(state, { ...state.messaging, reservations })]
  },
  statusHolds: (state, cutoff, limit) => {
    const gone = oldest(state.messaging.statusHolds.entries(), ([, hold]) => millis(hold.created_at), cutoff, limit)
    if (gone.size === 0) return [0, state]
    const statusHolds = new Map(state.messaging.statusHolds)
    for (const [key] of gone) statusHolds.delete(key)
    return [gone.size, withMessaging(state, { ...state.messaging, statusHolds })]
  },
  history: (state, cutoff, limit) => {
    const gone = oldest(state.propertyHistory, (entry) => millis(entry.changedAt), cutoff, limit)
    if (gone.size === 0) return [0, state]
    return [gone.size, { ...state, propertyHistory: state.propertyHistory.filter((entry) => !gone.has(entry)) }]
  },
  invitations: (state, cutoff, limit) => {
    const gone = oldest(state.invitations.rows, invitationAge, cutoff, limit)
    if (gone.size === 0) return [0, state]
    return [gone.size, { ...state, invitations: { ...state.invitations, rows: state.invitations.rows.filter((row) => !gone.has(row)) } }]
  },
  trash: (state, cutoff, limit) => {
    const gone = oldest(state.recordTrash.entries(), ([, kept]) => millis(kept.entry.deletedAt), cutoff, limit)
    if (gone.size === 0) return [0, state]
    const recordTrash = new Map(state.recordTrash)
    for (const [key] of gone) recordTrash.delete(key)
    return [gone.size, { ...state, recordTrash }]
  }
}

/**
 * Retention over the memory store, with RetentionPg's semantics: each batch deletes the oldest
 * prunable rows of its kind older than the cutoff (a delivery with its attempts, an import with
 * its staged rows, a settled or released OTP reservation, a held status, an invitation no longer pending, a property history entry; export files and then exports, each at
 * most `limit`), at most `limit`, in one atomic step.
 */
export const RetentionMemory: Layer.Layer<Retention, never, MemoryStore> = Layer.effect(
  Retention,
  Effect.gen(function*() {
    const store = yield* MemoryStore
    return Retention.of({
      pruneBatch: (kind, cutoff, limit) => {
        const count = Math.floor(limit)
        if (!(count > 0)) return Effect.succeed(0)
        return updateStore(store, (state) => PRUNE[kind](state, millis(cutoff), count))
      }
    })
  })
)
