/**
 * What a merge moves from the record it empties to the one it keeps, apart from values: its
 * notes, its links and, for contacts, its channel entries and messages. The emptied record then
 * goes to the trash (trash-repository.ts) with nothing attached.
 *
 * Every method takes the account and never touches another account's rows.
 */
import { Context, type Effect } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { RecordLinkInput } from "./record-repository.ts"

/** Which two records of one account and kind a merge joins. */
export interface MergePair {
  /** The account both belong to. */
  readonly accountId: number
  /** Their kind. */
  readonly kind: ObjectKind
  /** The record kept, under its id. */
  readonly into: string
  /** The record emptied into it, then trashed. */
  readonly from: string
}

/** What the RecordMergeStore port offers (implement this to write an adapter). */
export interface RecordMergeStoreShape {
  /**
   * Holds both records for the rest of the transaction (in id order, so two merges of the same
   * pair never deadlock): an update or a link call of either waits for the merge, then finds the
   * emptied one gone. Answers the ids of the two that exist.
   */
  readonly hold: (pair: MergePair) => Effect.Effect<ReadonlyArray<string>>
  /**
   * Moves the notes and links of `from` to `into` (a link `into` already has is kept once) and, for
   * contacts, its channel entries (one `into` already has for the same number and contact id takes
   * its messages) and its messages. Answers the links `into` gained.
   */
  readonly moveOver: (pair: MergePair) => Effect.Effect<ReadonlyArray<RecordLinkInput>>
}

const RecordMergeStoreBase: Context.ServiceClass<
  RecordMergeStore,
  "@wasl/core/RecordMergeStore",
  RecordMergeStoreShape
> = Context.Service<RecordMergeStore, RecordMergeStoreShape>()("@wasl/core/RecordMergeStore")

/** Moves what is attached to a record onto another of its kind, for a merge. */
export class RecordMergeStore extends RecordMergeStoreBase {}
