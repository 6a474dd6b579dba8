/**
 * The messaging tables' constraints in the memory store, thrown as the database refuses the row,
 * and the state with its messaging tables replaced. Internal plumbing of the memory adapters.
 */
import { accountKey, type MessagingTables } from "./messaging-tables.ts"
import type { MemoryState } from "./store.ts"

/** The state with its messaging tables replaced. Internal plumbing of the memory adapters. */
export const withMessaging = (state: MemoryState, messaging: MessagingTables): MemoryState => ({ ...state, messaging })

/** `REFERENCES accounts (id)`: a missing account is thrown, as the database refuses the row. Internal plumbing. */
export const requireAccount = (state: MemoryState, accountId: number, table: string): void => {
  if (!state.accounts.has(accountId)) {
    throw new Error(`insert or update on table "${table}" violates foreign key constraint: account ${accountId}`)
  }
}

/**
 * `FOREIGN KEY (account_id, broadcast_id) REFERENCES broadcasts (account_id, id)`: a broadcast of
 * another account, or none, is thrown. Internal plumbing of the memory adapters.
 */
export const requireBroadcast = (state: MemoryState, accountId: number, broadcastId: number, table: string): void => {
  if (state.messaging.broadcasts.get(broadcastId)?.account_id !== accountId) {
    throw new Error(
      `insert or update on table "${table}" violates foreign key constraint: (${accountId}, ${broadcastId}) is not in broadcasts`
    )
  }
}

const RECORD_ID = /^[0-9a-f]{24}$/

/**
 * The checks of a table keyed by (account_id, record id): the id's form and the key's uniqueness,
 * thrown as the database's check and key refuse the row. Internal plumbing of the memory adapters.
 */
export const requireNewRecordKey = (rows: ReadonlyMap<string, unknown>, accountId: number, id: string, table: string): void => {
  if (!RECORD_ID.test(id)) throw new Error(`new row for relation "${table}" violates check constraint: id = ${id}`)
  if (rows.has(accountKey(accountId, id))) {
    throw new Error(`duplicate key value violates unique constraint "${table}_pkey": (${accountId}, ${id})`)
  }
}
