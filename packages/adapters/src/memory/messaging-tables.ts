/**
 * The messaging tables of the memory store: the twins of migrations 0008 (platforms, templates,
 * broadcasts, messages, OTP verifications and cooldowns) and 0009 (OTP reservations), with the
 * constraints the PostgreSQL adapters rely on (keys, foreign keys, checks) raised as defects, as
 * the database refuses them.
 */
import type { BroadcastStatus, Message, OtpReservation, Platform, Template, Verification } from "@wasl/core"
import type { DateTime } from "effect"
import type { MemoryState } from "./store.ts"

export interface TemplateRow extends Template {
  readonly account_id: number
}

export interface BroadcastRow {
  readonly id: number
  readonly account_id: number
  readonly name: string
  readonly language: string
  readonly template_id: number
  readonly platform_id: number
  readonly status: BroadcastStatus
  readonly reason: string | null
  readonly created_at: DateTime.Utc
  readonly updated_at: DateTime.Utc
}

export interface MessagingTables {
  /** Next id of each bigserial table: one sequence per table, across accounts. */
  readonly sequences: { readonly platforms: number; readonly templates: number; readonly broadcasts: number }
  /** By id (a Map keeps insertion order, which is id order). */
  readonly platforms: ReadonlyMap<number, Platform>
  readonly templates: ReadonlyMap<number, TemplateRow>
  readonly broadcasts: ReadonlyMap<number, BroadcastRow>
  /** By `accountKey(account_id, id)`. */
  readonly messages: ReadonlyMap<string, Message>
  readonly verifications: ReadonlyMap<string, Verification>
  /** The last accepted send, by `accountKey(account_id, recipient)`. */
  readonly cooldowns: ReadonlyMap<string, DateTime.Utc>
  /** By `accountKey(account_id, id)`, in the order they were opened. */
  readonly reservations: ReadonlyMap<string, OtpReservation>
}

export const emptyMessagingTables: MessagingTables = {
  sequences: { platforms: 1, templates: 1, broadcasts: 1 },
  platforms: new Map(),
  templates: new Map(),
  broadcasts: new Map(),
  messages: new Map(),
  verifications: new Map(),
  cooldowns: new Map(),
  reservations: new Map()
}

/** The key of a row whose primary key is (account_id, key). */
export const accountKey = (accountId: number, key: string): string => `${accountId}:${key}`

/** The state with its messaging tables replaced. */
export const withMessaging = (state: MemoryState, messaging: MessagingTables): MemoryState => ({ ...state, messaging })

/** `REFERENCES accounts (id)`. */
export const requireAccount = (state: MemoryState, accountId: number, table: string): void => {
  if (!state.accounts.has(accountId)) {
    throw new Error(`insert or update on table "${table}" violates foreign key constraint: account ${accountId}`)
  }
}

/** `FOREIGN KEY (account_id, broadcast_id) REFERENCES broadcasts (account_id, id)`. */
export const requireBroadcast = (state: MemoryState, accountId: number, broadcastId: number, table: string): void => {
  if (state.messaging.broadcasts.get(broadcastId)?.account_id !== accountId) {
    throw new Error(
      `insert or update on table "${table}" violates foreign key constraint: (${accountId}, ${broadcastId}) is not in broadcasts`
    )
  }
}

const RECORD_ID = /^[0-9a-f]{24}$/

/** The checks of a table keyed by (account_id, record id): the id's form and the key's uniqueness. */
export const requireNewRecordKey = (rows: ReadonlyMap<string, unknown>, accountId: number, id: string, table: string) => {
  if (!RECORD_ID.test(id)) throw new Error(`new row for relation "${table}" violates check constraint: id = ${id}`)
  if (rows.has(accountKey(accountId, id))) {
    throw new Error(`duplicate key value violates unique constraint "${table}_pkey": (${accountId}, ${id})`)
  }
}
