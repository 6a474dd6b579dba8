/**
 * The records of the six object kinds (decisions §3): insert, patch, delete and get, per account
 * and kind. Values go in and come out in the stored form of value-validation.ts (`StoredValues`,
 * by internal_name), already validated by the use-cases.
 *
 * Every method takes the account and never sees a record of another account (ARCHITECTURE
 * rule 8): a foreign id is simply not found. `custom` is the account's custom property
 * definitions of the kind (the store needs their ids and types to hold their values).
 *
 * Reads return the record with the data its REST shape derives from links and channels
 * (`DerivedData` of record-shape.ts: a deal's linked contacts as summaries, a contact's deal ids
 * and channels, a ticket's link counts), so that `recordJson(kind, record, custom, derived)` is its
 * REST shape. Deleting a record removes its custom values, its links and its notes.
 */
import { Context, type Effect, type Option } from "effect"
import type { ObjectKind } from "../auth/permission.ts"
import type { RecordListParams } from "./list-query.ts"
import type { PropertyDefinition } from "./property-definition.ts"
import type { DerivedData, StoredRecord } from "./record-shape.ts"
import type { RecordPatch, StoredValues } from "./value-validation.ts"

/** A record as read: its stored values and what its shape derives from links. */
export interface RecordWithDerived {
  readonly record: StoredRecord
  readonly derived: DerivedData
}

export interface RecordRef {
  readonly accountId: number
  readonly kind: ObjectKind
  readonly id: string
}

export interface RecordInsertInput extends RecordRef {
  readonly custom: ReadonlyArray<PropertyDefinition>
  /** The values to store (validated; no nulls). created_at = updated_at = now. */
  readonly values: StoredValues
}

export interface RecordUpdateInput extends RecordRef {
  readonly custom: ReadonlyArray<PropertyDefinition>
  /** Only the names given change; null clears. updated_at = now. */
  readonly patch: RecordPatch
}

export interface RecordGetInput extends RecordRef {
  readonly custom: ReadonlyArray<PropertyDefinition>
}

export interface RecordListInput extends RecordListParams {
  readonly accountId: number
  readonly kind: ObjectKind
  readonly custom: ReadonlyArray<PropertyDefinition>
}

export interface RecordPage {
  /** The records of the page, in order. */
  readonly rows: ReadonlyArray<RecordWithDerived>
  /** The exact number of records matching, over all pages. */
  readonly total: number
}

/**
 * The three links of decisions §5, named from their first side: a deal's contacts, a ticket's
 * contacts, a ticket's deals.
 */
export type RecordLinkName = "deal_contact" | "ticket_contact" | "ticket_deal"

export interface RecordLinkInput {
  readonly accountId: number
  readonly link: RecordLinkName
  /** The first side's id (the deal, the ticket). */
  readonly from: string
  /** The second side's id (the contact, the deal). */
  readonly to: string
}

export class RecordRepository extends Context.Service<RecordRepository, {
  /** Stores a new record (the id is the caller's, a fresh record id); returns it as stored. */
  readonly insert: (input: RecordInsertInput) => Effect.Effect<RecordWithDerived>
  /** Applies a patch; `None` when the account has no such record of the kind. */
  readonly update: (input: RecordUpdateInput) => Effect.Effect<Option.Option<RecordWithDerived>>
  /** Deletes the record with its values, links and notes; false when there was none. */
  readonly delete: (ref: RecordRef) => Effect.Effect<boolean>
  /** The record; `None` when the account has no such record of the kind. */
  readonly get: (input: RecordGetInput) => Effect.Effect<Option.Option<RecordWithDerived>>
  /** A page of the kind's records matching the filters and search, in order (decisions §4). */
  readonly list: (input: RecordListInput) => Effect.Effect<RecordPage>
  /** Of `ids`, those the account has a record of the kind with (each once, in the given order). */
  readonly existing: (accountId: number, kind: ObjectKind, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  /** Links two records of the account; false when it was already linked (or a side is missing). */
  readonly link: (input: RecordLinkInput) => Effect.Effect<boolean>
  /** Unlinks; false when they were not linked. */
  readonly unlink: (input: RecordLinkInput) => Effect.Effect<boolean>
}>()("@wasl/core/RecordRepository") {}
