/**
 * In-memory twins of the PG repositories (same semantics, one shared store), the outgoing
 * ports of an all-in-memory deployment (webhook receivers, transport and URL guard, a mailer),
 * the memory messaging provider (`MessagingProviderMemory`, with the `SentMessages` it fills) and
 * the messaging settings layer (`MessagingSettingsLayer`).
 */
import { Layer } from "effect"
import { AccountRepositoryMemory } from "./account-repository-memory.ts"
import { DeliveryRepositoryMemory } from "./delivery-repository-memory.ts"
import { NotificationRepositoryMemory } from "./notification-repository-memory.ts"
import { OutboxMemory } from "./outbox-memory.ts"
import { PropertyGroupRepositoryMemory } from "./property-group-repository-memory.ts"
import { PropertyRepositoryMemory } from "./property-repository-memory.ts"
import { QueueSignalsMemory } from "./queue-signals-memory.ts"
import { SessionRepositoryMemory } from "./session-repository-memory.ts"
import { MemoryStore } from "./store.ts"
import { TeamRepositoryMemory } from "./team-repository-memory.ts"
import { TokenRepositoryMemory } from "./token-repository-memory.ts"
import { TransactorMemory } from "./transactor-memory.ts"
import { UserRepositoryMemory } from "./user-repository-memory.ts"
import { WebhookRepositoryMemory } from "./webhook-repository-memory.ts"
import { PropertyValueStoreMemory } from "./property-value-store-memory.ts"
import { BroadcastRepositoryMemory } from "./broadcast-repository-memory.ts"
import { MessageRepositoryMemory } from "./message-repository-memory.ts"
import { OtpLedgerMemory } from "./otp-ledger-memory.ts"
import { OtpReservationRepositoryMemory } from "./otp-reservation-repository-memory.ts"
import { PlatformRepositoryMemory } from "./platform-repository-memory.ts"
import { VerificationRepositoryMemory } from "./verification-repository-memory.ts"

export { AccountRepositoryMemory } from "./account-repository-memory.ts"
export { afterCommit } from "./after-commit.ts"
export { DeliveryRepositoryMemory } from "./delivery-repository-memory.ts"
export * from "./mailer-memory.ts"
export * from "./memory-receivers.ts"
export { NotificationRepositoryMemory } from "./notification-repository-memory.ts"
export { OutboxMemory } from "./outbox-memory.ts"
export { PropertyGroupRepositoryMemory } from "./property-group-repository-memory.ts"
export { PropertyRepositoryMemory } from "./property-repository-memory.ts"
export { QueueSignalsMemory } from "./queue-signals-memory.ts"
export { SessionRepositoryMemory } from "./session-repository-memory.ts"
export type { MemorySignalHub } from "./signal-hub.ts"
export * from "./store.ts"
export { TeamRepositoryMemory } from "./team-repository-memory.ts"
export { TokenRepositoryMemory } from "./token-repository-memory.ts"
export { TransactorMemory } from "./transactor-memory.ts"
export { UserRepositoryMemory } from "./user-repository-memory.ts"
export { WebhookRepositoryMemory } from "./webhook-repository-memory.ts"
export { BroadcastRepositoryMemory } from "./broadcast-repository-memory.ts"
export { MessageRepositoryMemory } from "./message-repository-memory.ts"
export * from "./messaging-provider-memory.ts"
export * from "./messaging-settings-layer.ts"
export * from "./messaging-tables.ts"
export { OtpLedgerMemory } from "./otp-ledger-memory.ts"
export { OtpReservationRepositoryMemory } from "./otp-reservation-repository-memory.ts"
export { PlatformRepositoryMemory } from "./platform-repository-memory.ts"
export { SANDBOX_UNDELIVERABLE_PREFIX } from "./sandbox-outcome.ts"
export { VerificationRepositoryMemory } from "./verification-repository-memory.ts"
export { WebhookTransportMemory } from "./webhook-transport-memory.ts"
export * from "./webhook-url-guard-memory.ts"

export { PropertyValueStoreMemory } from "./property-value-store-memory.ts"

/**
 * Every repository port, the Transactor and the store's QueueSignals over one
 * fresh store (each build of this layer is a new, empty database). Also exposes
 * `MemoryStore`, so tests can seed or inspect rows. Needs `SecureRandom` for
 * subscription ids.
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
  PlatformRepositoryMemory,
  BroadcastRepositoryMemory,
  MessageRepositoryMemory,
  VerificationRepositoryMemory,
  OtpLedgerMemory,
  OtpReservationRepositoryMemory,
  DeliveryRepositoryMemory,
  QueueSignalsMemory
).pipe(Layer.provideMerge(MemoryStore.layer))
