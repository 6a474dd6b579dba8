/** In-memory twins of the PG repositories, for unit tests: same semantics, one shared store. */
import { Layer } from "effect"
import { AccountRepositoryMemory } from "./account-repository-memory.ts"
import { NotificationRepositoryMemory } from "./notification-repository-memory.ts"
import { OutboxMemory } from "./outbox-memory.ts"
import { PropertyGroupRepositoryMemory } from "./property-group-repository-memory.ts"
import { PropertyRepositoryMemory } from "./property-repository-memory.ts"
import { SessionRepositoryMemory } from "./session-repository-memory.ts"
import { MemoryStore } from "./store.ts"
import { TeamRepositoryMemory } from "./team-repository-memory.ts"
import { TokenRepositoryMemory } from "./token-repository-memory.ts"
import { TransactorMemory } from "./transactor-memory.ts"
import { UserRepositoryMemory } from "./user-repository-memory.ts"
import { WebhookRepositoryMemory } from "./webhook-repository-memory.ts"
import { PropertyValueStoreMemory } from "./property-value-store-memory.ts"
import { NoteRepositoryMemory } from "./note-repository-memory.ts"
import { RecordRepositoryMemory } from "./record-repository-memory.ts"

export { AccountRepositoryMemory } from "./account-repository-memory.ts"
export { NotificationRepositoryMemory } from "./notification-repository-memory.ts"
export { OutboxMemory } from "./outbox-memory.ts"
export { PropertyGroupRepositoryMemory } from "./property-group-repository-memory.ts"
export { PropertyRepositoryMemory } from "./property-repository-memory.ts"
export { SessionRepositoryMemory } from "./session-repository-memory.ts"
export * from "./store.ts"
export { TeamRepositoryMemory } from "./team-repository-memory.ts"
export { TokenRepositoryMemory } from "./token-repository-memory.ts"
export { TransactorMemory } from "./transactor-memory.ts"
export { UserRepositoryMemory } from "./user-repository-memory.ts"
export { WebhookRepositoryMemory } from "./webhook-repository-memory.ts"

export { PropertyValueStoreMemory } from "./property-value-store-memory.ts"
export { NoteRepositoryMemory } from "./note-repository-memory.ts"
export { RecordRepositoryMemory } from "./record-repository-memory.ts"
export * from "./record-tables.ts"

/**
 * Every repository port and the Transactor over one fresh store (each build of
 * this layer is a new, empty database). Also exposes `MemoryStore`, so tests
 * can seed or inspect rows. Needs `SecureRandom` for subscription ids.
 */
export const RepositoriesMemory = Layer.mergeAll(
  AccountRepositoryMemory,
  UserRepositoryMemory,
  TeamRepositoryMemory,
  NotificationRepositoryMemory,
  TokenRepositoryMemory,
  SessionRepositoryMemory,
  TransactorMemory,
  OutboxMemory,
  PropertyRepositoryMemory,
  PropertyGroupRepositoryMemory,
  PropertyValueStoreMemory,
  WebhookRepositoryMemory,
  RecordRepositoryMemory,
  NoteRepositoryMemory
).pipe(Layer.provideMerge(MemoryStore.layer))
