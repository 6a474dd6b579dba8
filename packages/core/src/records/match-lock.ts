/**
 * The MatchLock port: keeps two writes that find a record by a property's value, and create one
 * when none has it (a batch upsert, a CSV import with `match_on`, a send to a number no contact
 * has), from both finding none and both creating one. The duplicate would then make every later
 * upsert of that value a 422.
 */
import { Context, Effect } from "effect"
import type { ObjectKind } from "./object-kind.ts"

/** What the MatchLock port offers (implement this to write an adapter). */
export interface MatchLockShape {
  /**
   * Waits until no other transaction holds the lock of the account's records of `kind`, then
   * holds it until the current transaction ends (commit or rollback). Taken again in the same
   * transaction, it does not wait. One lock per account and kind, whatever the property, so a
   * transaction that matches on several properties cannot deadlock with another on their order.
   */
  readonly lock: (accountId: number, kind: ObjectKind) => Effect.Effect<void>
  /**
   * Waits until no other transaction holds the lock of one record of the account, then holds it
   * until the current transaction ends: for writes that read a record's values and write what
   * follows from them (a received message moving its contact's received times), which must not
   * interleave on the same record. Never take the account's match lock while holding one of these.
   */
  readonly lockRecord: (accountId: number, kind: ObjectKind, id: string) => Effect.Effect<void>
}

/**
 * The lock the record writes that match on a value take (see {@link MatchLockShape}). By default
 * it does nothing: right for a store whose transactions never interleave (`WaslMemory` runs one
 * at a time). A store whose transactions run side by side provides its own; the PostgreSQL one
 * is a transaction-scoped advisory lock.
 */
export const MatchLock: Context.Reference<MatchLockShape> = Context.Reference<MatchLockShape>("@wasl/core/MatchLock", {
  defaultValue: () => ({ lock: () => Effect.void, lockRecord: () => Effect.void })
})

/** Takes the lock of one record of the account until the current transaction ends (see {@link MatchLockShape}). */
export const lockRecord = (accountId: number, kind: ObjectKind, id: string): Effect.Effect<void> =>
  Effect.flatMap(MatchLock, (locks) => locks.lockRecord(accountId, kind, id))

/** Takes the match lock of the account's records of `kind` until the current transaction ends. */
export const lockMatches = (accountId: number, kind: ObjectKind): Effect.Effect<void> =>
  Effect.flatMap(MatchLock, (locks) => locks.lock(accountId, kind))
