/**
 * The record tables of the memory store, the twins of migration 0004's: the records of the six
 * kinds, the three links between them, and the notes. Pure functions over immutable tables; the
 * repositories run them inside one store update.
 *
 * The tables are persistent hash maps (effect's `HashMap`), not copied `Map`s as the small tables
 * are: records are the bulk data of an embedded Wasl, and a write must not copy an account's whole
 * table. Every table leads with the account, as PostgreSQL's keys do.
 *
 * What PostgreSQL's keys enforce, these functions do: a record id is unique per account and kind
 * (a taken one is a defect), a link joins two records of one account (`LINK_KINDS`) at most once,
 * and deleting a record takes its links with it (the foreign keys' `ON DELETE CASCADE`).
 *
 * Internal plumbing of the memory adapters, exported for tests that seed or inspect records.
 */
import type { Note } from "@wasl/core/Notes"
import type { ObjectKind, RecordLinkName, StoredValue } from "@wasl/core/Records"
import { type DateTime, HashMap, Option } from "effect"

/** A record as held: the memory form of a row of its kind's table. */
export interface MemoryRecordRow {
  /** The account of the record. */
  readonly accountId: number
  /** The record's kind (contact, deal, ...). */
  readonly kind: ObjectKind
  /** The record id (24 hex), unique per account and kind. */
  readonly id: string
  /** Built-in values by internal_name, in their stored form (derived ones are never held). */
  readonly builtin: Readonly<Record<string, StoredValue>>
  /**
   * Custom values by property id (PostgreSQL's `custom` jsonb): a value is read through its
   * definition, so a deleted property's values can never be misread as another's.
   */
  readonly custom: Readonly<Record<string, StoredValue>>
  /** When the record was made. */
  readonly createdAt: DateTime.Utc
  /** When the record last changed. */
  readonly updatedAt: DateTime.Utc
}

/** A link from the first side's record (the deal, the ticket) to the second's. */
export interface MemoryLinkRow {
  /** Which link (`deal_contact`, `ticket_contact`, `ticket_deal`). */
  readonly link: RecordLinkName
  /** The first side's record id. */
  readonly from: string
  /** The second side's record id. */
  readonly to: string
  /** When the link was made (links list oldest first). */
  readonly createdAt: DateTime.Utc
}

/** Records by `tableKey(account, kind)`, then by id. */
export type RecordTable = HashMap.HashMap<string, HashMap.HashMap<string, MemoryRecordRow>>
/** Links by account, oldest first. */
export type LinkTable = HashMap.HashMap<number, ReadonlyArray<MemoryLinkRow>>
/** Notes by account, then by id (the note id is unique per account, as its primary key). */
export type NoteTable = HashMap.HashMap<number, HashMap.HashMap<string, Note>>

/** The kinds on the two sides of each link. */
export const LINK_KINDS: { readonly [L in RecordLinkName]: { readonly from: ObjectKind; readonly to: ObjectKind } } = {
  deal_contact: { from: "deal", to: "contact" },
  ticket_contact: { from: "ticket", to: "contact" },
  ticket_deal: { from: "ticket", to: "deal" },
  company_contact: { from: "company", to: "contact" },
  company_deal: { from: "company", to: "deal" },
  company_ticket: { from: "company", to: "ticket" }
}

const tableKey = (accountId: number, kind: ObjectKind) => `${accountId}:${kind}`

// -----------------------------------------------------------------------------------------------
// Records
// -----------------------------------------------------------------------------------------------

/** The account's records of the kind, by id. */
export const recordRowsOf = (table: RecordTable, accountId: number, kind: ObjectKind): HashMap.HashMap<string, MemoryRecordRow> =>
  Option.getOrElse(HashMap.get(table, tableKey(accountId, kind)), () => HashMap.empty<string, MemoryRecordRow>())

/** The account's record of the kind with the id, if any. */
export const findRecordRow = (table: RecordTable, accountId: number, kind: ObjectKind, id: string): MemoryRecordRow | undefined =>
  Option.getOrUndefined(HashMap.get(recordRowsOf(table, accountId, kind), id))

/** Stores a row, new or replacing the one with its id. */
export const putRecordRow = (table: RecordTable, row: MemoryRecordRow): RecordTable =>
  HashMap.set(table, tableKey(row.accountId, row.kind), HashMap.set(recordRowsOf(table, row.accountId, row.kind), row.id, row))

/** Stores a new row; a taken id is a defect, like the primary key's refusal. */
export const insertRecordRow = (table: RecordTable, row: MemoryRecordRow): RecordTable => {
  if (findRecordRow(table, row.accountId, row.kind, row.id) !== undefined) {
    throw new Error(`duplicate key value violates unique constraint on the ${row.kind} records: ${row.id}`)
  }
  return putRecordRow(table, row)
}

/** The table without the record (no links or notes are touched: see `removeLinksOfRecord`). */
export const removeRecordRow = (table: RecordTable, accountId: number, kind: ObjectKind, id: string): RecordTable =>
  HashMap.set(table, tableKey(accountId, kind), HashMap.remove(recordRowsOf(table, accountId, kind), id))

/** Every record of the account and kind through `f` (a row it returns unchanged stays as it is). */
export const mapRecordRows = (
  table: RecordTable,
  accountId: number,
  kind: ObjectKind,
  f: (row: MemoryRecordRow) => MemoryRecordRow
): RecordTable => HashMap.set(table, tableKey(accountId, kind), HashMap.map(recordRowsOf(table, accountId, kind), f))

// -----------------------------------------------------------------------------------------------
// Links
// -----------------------------------------------------------------------------------------------

/** The account's links, oldest first. */
export const recordLinksOf = (links: LinkTable, accountId: number): ReadonlyArray<MemoryLinkRow> =>
  Option.getOrElse(HashMap.get(links, accountId), () => [])

const sameLink = (a: Pick<MemoryLinkRow, "link" | "from" | "to">, b: Pick<MemoryLinkRow, "link" | "from" | "to">) =>
  a.link === b.link && a.from === b.from && a.to === b.to

/** Whether the account has the link. */
export const hasRecordLink = (links: LinkTable, accountId: number, link: Pick<MemoryLinkRow, "link" | "from" | "to">): boolean =>
  recordLinksOf(links, accountId).some((row) => sameLink(row, link))

/** Adds a link the caller checked is new and joins two of the account's records. */
export const addRecordLink = (links: LinkTable, accountId: number, row: MemoryLinkRow): LinkTable =>
  HashMap.set(links, accountId, [...recordLinksOf(links, accountId), row])

/** The table without the account's link (unchanged when there was none). */
export const removeRecordLink = (links: LinkTable, accountId: number, link: Pick<MemoryLinkRow, "link" | "from" | "to">): LinkTable =>
  HashMap.set(links, accountId, recordLinksOf(links, accountId).filter((row) => !sameLink(row, link)))

/** The links a record is a side of are gone with it (the foreign keys cascade). */
export const removeLinksOfRecord = (links: LinkTable, accountId: number, kind: ObjectKind, id: string): LinkTable =>
  HashMap.set(
    links,
    accountId,
    recordLinksOf(links, accountId).filter((row) =>
      !((LINK_KINDS[row.link].from === kind && row.from === id) || (LINK_KINDS[row.link].to === kind && row.to === id))
    )
  )

// -----------------------------------------------------------------------------------------------
// Notes
// -----------------------------------------------------------------------------------------------

/** The account's notes, by id. */
export const notesOfAccount = (notes: NoteTable, accountId: number): HashMap.HashMap<string, Note> =>
  Option.getOrElse(HashMap.get(notes, accountId), () => HashMap.empty<string, Note>())

/** The notes of one record, in no order. */
export const notesOfRecord = (notes: NoteTable, accountId: number, kind: ObjectKind, recordId: string): Array<Note> =>
  [...HashMap.values(notesOfAccount(notes, accountId))].filter((n) => n.object_type === kind && n.record_id === recordId)

/** Stores a note, new or replacing the one with its id. */
export const putNoteRow = (notes: NoteTable, note: Note): NoteTable =>
  HashMap.set(notes, note.account_id, HashMap.set(notesOfAccount(notes, note.account_id), note._id, note))

/** The table without the account's note (unchanged when there was none). */
export const removeNoteRow = (notes: NoteTable, accountId: number, noteId: string): NoteTable =>
  HashMap.set(notes, accountId, HashMap.remove(notesOfAccount(notes, accountId), noteId))

/** A record's notes are deleted with it (notes are polymorphic over the kinds: no foreign key can). */
export const removeNotesOfRecord = (notes: NoteTable, accountId: number, kind: ObjectKind, recordId: string): NoteTable =>
  HashMap.set(
    notes,
    accountId,
    HashMap.filter(notesOfAccount(notes, accountId), (n) => !(n.object_type === kind && n.record_id === recordId))
  )
