/** An account's turn at the worker's claims in the memory store (claim-turns.ts takes and compares them). */
import type { DateTime } from "effect"

/** An account's turn. */
export interface Turn {
  /** When it begins (for a held job's account, when the claim runs out). */
  readonly at: DateTime.Utc
  /** Its number: turns that begin in the same instant go in the order they were taken. */
  readonly seq: number
}
