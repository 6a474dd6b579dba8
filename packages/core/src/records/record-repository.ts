/**
 * The records of the six object kinds: insert, patch, delete and get, per account
 * and kind. Values go in and come out in the stored form of value-validation.ts (`StoredValues`,
 * by internal_name), already validated by the use-cases.
 *
 * Every method takes the account and never sees a record of another account: a foreign id
 * is simply not found. `custom` is the account's custom property
 * definitions of the kind (the store needs their ids and types to hold their values).
 *
 * Reads return the record with the data its REST shape derives from links and channels
 * (`DerivedData` of record-shape.ts: a deal's linked contacts as summaries, a contact's deal ids
 * and channels, the linked ids and counts of tickets and companies, the `company_ids` of contacts,
 * deals and tickets), so that `recordJson(kind, record, custom, derived)` is its
 * REST shape. Deleting a record removes its custom values, its links and its notes.
 */
import { Context, type Effect, type Option } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { RecordListParams } from "./list-query.ts"
import type { PropertyDefinition } from "./property-definition.ts"
import type { DerivedData, StoredRecord } from "./record-shape.ts"
import type { RecordPatch, StoredValues } from "./value-validation.ts"

/** A record as read: its stored values and what its shape derives from links. */
export interface RecordWithDerived {
  /** The stored record. */
  readonly record: StoredRecord
  /** What its REST shape derives from links and channels. */
  readonly derived: DerivedData
}

/** Which record: the account, the kind and the id. */
export interface RecordRef {
  /** The account the record belongs to. */
  readonly accountId: number
  /** The record's object kind. */
  readonly kind: ObjectKind
  /** The record's id. */
  readonly id: string
}

/** A new record to store. */
export interface RecordInsertInput extends RecordRef {
  /** The account's custom property definitions of the kind. */
  readonly custom: ReadonlyArray<PropertyDefinition>
  /** The values to store (validated; no nulls). created_at = updated_at = now. */
  readonly values: StoredValues
}

/** A change to a stored record. */
export interface RecordUpdateInput extends RecordRef {
  /** The account's custom property definitions of the kind. */
  readonly custom: ReadonlyArray<PropertyDefinition>
  /** Only the names given change; null clears. updated_at = now. */
  readonly patch: RecordPatch
}

/** Which record to read. */
export interface RecordGetInput extends RecordRef {
  /** The account's custom property definitions of the kind. */
  readonly custom: ReadonlyArray<PropertyDefinition>
}

/** Which page of which records to list. */
export interface RecordListInput extends RecordListParams {
  /** The account whose records are listed. */
  readonly accountId: number
  /** The object kind listed. */
  readonly kind: ObjectKind
  /** The account's custom property definitions of the kind. */
  readonly custom: ReadonlyArray<PropertyDefinition>
}

/** Which records a scan reads: a list's query without its page. */
export type RecordScanInput = Omit<RecordListInput, "page" | "perPage">

/** One batch of a scan. */
export interface RecordScanBatch {
  /** The records after the position asked for, in the list's order. */
  readonly rows: ReadonlyArray<RecordWithDerived>
  /**
   * The position after the last of `rows`, to ask for the next batch with (the position asked for
   * when `rows` is empty). Opaque text of the adapter's, to be stored and handed back as it is.
   */
  readonly after: string | null
}

/** One page of a list. */
export interface RecordPage {
  /** The records of the page, in order. */
  readonly rows: ReadonlyArray<RecordWithDerived>
  /** The exact number of records matching, over all pages. */
  readonly total: number
}

/**
 * The links between records, named from their first side: a deal's contacts, a ticket's contacts,
 * a ticket's deals, a company's contacts, deals and tickets.
 */
export type RecordLinkName =
  | "deal_contact"
  | "ticket_contact"
  | "ticket_deal"
  | "company_contact"
  | "company_deal"
  | "company_ticket"

/** One link between two records of an account. */
export interface RecordLinkInput {
  /** The account both records belong to. */
  readonly accountId: number
  /** Which link. */
  readonly link: RecordLinkName
  /** The first side's id (the deal, the ticket, the company). */
  readonly from: string
  /** The second side's id (the contact, the deal). */
  readonly to: string
}

/** What the RecordRepository port offers (implement this to write an adapter). */
export interface RecordRepositoryShape {
  /** Stores a new record (the id is the caller's, a fresh record id); returns it as stored. */
  readonly insert: (input: RecordInsertInput) => Effect.Effect<RecordWithDerived>
  /**
   * Stores new records of one account and kind (a batch, an import's rows) as `insert` stores
   * each, all or none, in far fewer statements; returns them as stored, in the order given.
   */
  readonly insertAll: (inputs: ReadonlyArray<RecordInsertInput>) => Effect.Effect<ReadonlyArray<RecordWithDerived>>
  /** Applies a patch; `None` when the account has no such record of the kind. */
  readonly update: (input: RecordUpdateInput) => Effect.Effect<Option.Option<RecordWithDerived>>
  /** Deletes the record with its values, links and notes; false when there was none. */
  readonly delete: (ref: RecordRef) => Effect.Effect<boolean>
  /**
   * The record's stored values, read to measure a change against (its history): in a transaction
   * the record is held until it ends, so a concurrent update waits and the change that follows is
   * measured from the values it replaces. `None` when the account has no such record of the kind.
   */
  readonly valuesForUpdate: (input: RecordGetInput) => Effect.Effect<Option.Option<StoredValues>>
  /** The record; `None` when the account has no such record of the kind. */
  readonly get: (input: RecordGetInput) => Effect.Effect<Option.Option<RecordWithDerived>>
  /**
   * A page of the kind's records matching the filters and the search, with the exact total.
   * Ordered by the `order` property's value, then by `_id`, both in the direction asked for;
   * records without a value come last in either direction.
   */
  readonly list: (input: RecordListInput) => Effect.Effect<RecordPage>
  /**
   * The next `limit` records the list would show, in the list's order, after the position `after`
   * (null: from the first), by keyset: the order's key and `_id` of the last record of the batch
   * before, not an offset. Batch after batch, each in its own transaction if need be, they give
   * every record the list shows, each once, as long as no record's place in the order changes
   * meanwhile. Fewer than `limit` records: there are no more.
   */
  readonly scanBatch: (input: RecordScanInput, after: string | null, limit: number) => Effect.Effect<RecordScanBatch>
  /**
   * Of `ids`, those the account has a record of the kind with (each once, in the given order). In
   * a transaction each one found is held until it ends: a deletion of it waits (one that went first
   * leaves it out), so what the transaction does with it next finds it still there.
   */
  readonly existing: (accountId: number, kind: ObjectKind, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  /** Links two records of the account; false when it was already linked (or a side is missing). */
  readonly link: (input: RecordLinkInput) => Effect.Effect<boolean>
  /** Unlinks; false when they were not linked. */
  readonly unlink: (input: RecordLinkInput) => Effect.Effect<boolean>
}

const RecordRepositoryBase: Context.ServiceClass<
  RecordRepository,
  "@wasl/core/RecordRepository",
  RecordRepositoryShape
> = Context.Service<RecordRepository, RecordRepositoryShape>()("@wasl/core/RecordRepository")

/**
 * The records of the six object kinds and the links between them, per account: a record of
 * another account is never seen.
 */
export class RecordRepository extends RecordRepositoryBase {}
