/**
 * The turns of the worker's claims in the memory store, shared by the imports and exports twins
 * (as migrations/claim-turns.ts orders them on PostgreSQL). A waiting job's turn is its account's: when it
 * begins, then its number (the order turns were taken in, which tells apart those that begin in
 * the same instant). Claims take the oldest turn first, and an account's jobs go oldest first.
 */
import { DateTime } from "effect"
import type { MemoryState } from "./store.ts"
import type { Turn } from "./turn.ts"

/** What the claim order reads of a waiting job. */
export interface Turned {
  /** Its account. */
  readonly accountId: number
  /** Its id. */
  readonly id: string
  /** When it was uploaded or asked for. */
  readonly createdAt: DateTime.Utc
  /** Its account's turn. */
  readonly turn: Turn
}

const compareTurns = (a: Turn, b: Turn): number => DateTime.toEpochMillis(a.at) - DateTime.toEpochMillis(b.at) || a.seq - b.seq

/** The claim order: the turn, then age, then account and id. */
export const byTurn = (a: Turned, b: Turned): number =>
  compareTurns(a.turn, b.turn) ||
  DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) ||
  a.accountId - b.accountId ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** A new turn beginning `at` (its number taken from the store's sequence), and the state after. */
export const takeTurn = (state: MemoryState, at: DateTime.Utc): readonly [Turn, MemoryState] => [
  { at, seq: state.sequences.claimTurns },
  { ...state, sequences: { ...state.sequences, claimTurns: state.sequences.claimTurns + 1 } }
]

/**
 * The turn of a job created at `now`: its account's (the latest turn of the account's waiting
 * jobs), the new job going behind them, oldest first; else one of its own from `now`. Answers the
 * state after.
 */
export const firstTurn = (state: MemoryState, now: DateTime.Utc, waiting: ReadonlyArray<Turn>): readonly [Turn, MemoryState] => {
  const account = waiting.reduce<Turn | undefined>((max, turn) => max === undefined || compareTurns(turn, max) > 0 ? turn : max, undefined)
  return account === undefined ? takeTurn(state, now) : [account, state]
}
