/**
 * The memory store's trash table: each deleted record with what a restore takes back
 * (trash-repository-memory.ts).
 *
 * @module
 */
import type { Note } from "@wasl/core/Notes"
import type { TrashEntry } from "@wasl/core/Records"
import type { ContactChannelRow } from "./messaging-tables.ts"
import type { MemoryLinkRow, MemoryRecordRow } from "./record-tables.ts"

/** A record in the trash with what it takes back on restore. */
export interface MemoryTrashRow {
  /** The account the record belongs to. */
  readonly accountId: number
  /** What the trash list shows of it. */
  readonly entry: TrashEntry
  /** Its row as it was deleted. */
  readonly row: MemoryRecordRow
  /** Its links, and those of records restored meanwhile that wait for it. */
  readonly links: ReadonlyArray<MemoryLinkRow>
  /** Its notes. */
  readonly notes: ReadonlyArray<Note>
  /** A contact's channel entries. */
  readonly channels: ReadonlyArray<ContactChannelRow>
}
