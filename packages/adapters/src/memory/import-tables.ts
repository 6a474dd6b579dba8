/** The imports table of the memory store: an import with its claim and its staged rows by line. */
import type { ImportJob, RowErrors } from "@wasl/core/Imports"
import type { DateTime } from "effect"
import type { Turn } from "./turn.ts"

/** A staged row: its cells, and its messages once refused. */
export interface StagedImportRow {
  /** Its cells, in the header's order. */
  readonly cells: ReadonlyArray<string>
  /** Its 422 messages once refused; null before. */
  readonly errors: RowErrors | null
}

/** An import in the memory store. */
export interface ImportEntry {
  /** The import. */
  readonly job: ImportJob
  /** Until when a worker holds it; null when none does. */
  readonly leasedUntil: DateTime.Utc | null
  /** Its account's turn while it waits (the claim order). */
  readonly turn: Turn
  /** Its staged rows by line. */
  readonly rows: ReadonlyMap<number, StagedImportRow>
}
