/**
 * Wasl in memory: `WaslMemory`, one layer with every port over one in-memory store, and the parts
 * it is made of.
 *
 * - `WaslMemory.layer()`: the whole deployment; what tests, trials and embedders use.
 * - What a test looks at instead of a database and a network: `MemoryStore` (the rows),
 *   `MemoryReceivers` (the webhook endpoints and every request sent to them), `MemoryMailbox`
 *   (the mails) and `SentMessages` (the WhatsApp messages, codes included).
 * - The in-memory twin of every port (`AccountRepositoryMemory`, `OutboxMemory`,
 *   `WebhookTransportMemory`, `MailerMemory`, ...), with the semantics of the PostgreSQL adapters
 *   to the letter: the same contract suites (`@wasl/adapters/testing`) pass on both.
 *   `RepositoriesMemory` merges the storage ports over one fresh store.
 * - The store's rows and helpers (`MemoryState`, `readStore`, `updateStore`, ...): internal
 *   plumbing shared by the memory adapters, exported for tests that seed or inspect rows the ports
 *   do not reach.
 *
 * Everything here imports only `effect` and `@wasl/core`, and runs on Node, Deno and Bun.
 *
 * @example
 * ```ts
 * import { assert, it } from "@effect/vitest"
 * import { Effect } from "effect"
 * import { bootstrapAccount } from "@wasl/core/Accounts"
 * import { MemoryStore, readStore, WaslMemory } from "@wasl/adapters/memory"
 *
 * it.effect("bootstraps an account", () =>
 *   Effect.gen(function*() {
 *     const { account_id } = yield* bootstrapAccount({
 *       account: "Acme",
 *       email: "owner@acme.test",
 *       password: "correct horse battery",
 *       plan: "business",
 *       otpCredits: 0
 *     })
 *     const store = yield* MemoryStore
 *     const stored = yield* readStore(store, (state) => state.accounts.get(account_id))
 *     assert.strictEqual(stored?.name, "Acme")
 *   }).pipe(Effect.provide(WaslMemory.layer())))
 * ```
 *
 * @module
 */
export { AccountRepositoryMemory } from "./account-repository-memory.ts"
export { afterCommit } from "./after-commit.ts"
export { CurrentUserReaderMemory } from "./current-user-reader-memory.ts"
export { DeliveryRepositoryMemory } from "./delivery-repository-memory.ts"
export * from "./mailer-memory.ts"
export * from "./memory-receivers.ts"
export { NotificationFeedMemory } from "./notification-feed-memory.ts"
export { NotificationRepositoryMemory } from "./notification-repository-memory.ts"
export { OutboxMemory } from "./outbox-memory.ts"
export { PropertyValueStoreMemory } from "./property-value-store-memory.ts"
export { PipelineRepositoryMemory } from "./pipeline-repository-memory.ts"
export { PropertyHistoryRepositoryMemory } from "./property-history-repository-memory.ts"
export { SavedViewRepositoryMemory } from "./saved-view-repository-memory.ts"
export { PropertyGroupRepositoryMemory } from "./property-group-repository-memory.ts"
export { PropertyRepositoryMemory } from "./property-repository-memory.ts"
export { QueueSignalsMemory } from "./queue-signals-memory.ts"
export { WhatsAppInboxMemory } from "./whatsapp-inbox-memory.ts"
export { RateLimiterMemory } from "./rate-limiter-memory.ts"
export { SessionRepositoryMemory } from "./session-repository-memory.ts"
export type { MemorySignalHub } from "./signal-hub.ts"
export * from "./store.ts"
export { TeamRepositoryMemory } from "./team-repository-memory.ts"
export { MemberRepositoryMemory } from "./member-repository-memory.ts"
export { InvitationRepositoryMemory } from "./invitation-repository-memory.ts"
export { TokenRepositoryMemory } from "./token-repository-memory.ts"
export { TransactorMemory } from "./transactor-memory.ts"
export { TwoFactorLoginRepositoryMemory } from "./two-factor-login-repository-memory.ts"
export { EmailTokenRepositoryMemory } from "./email-token-repository-memory.ts"
export { TwoFactorRepositoryMemory } from "./two-factor-repository-memory.ts"
export { UserRepositoryMemory } from "./user-repository-memory.ts"
export { WebhookRepositoryMemory } from "./webhook-repository-memory.ts"
export { BroadcastRepositoryMemory } from "./broadcast-repository-memory.ts"
export { CampaignRepositoryMemory } from "./campaign-repository-memory.ts"
export { MessageRepositoryMemory } from "./message-repository-memory.ts"
export { MediaStoreMemory } from "./media-store-memory.ts"
export { ConversationsMemory } from "./conversations-memory.ts"
export { MediaBacklogMemory } from "./media-backlog-memory.ts"
export { ContactChannelRepositoryMemory } from "./contact-channel-repository-memory.ts"
export { MessageStatusHoldRepositoryMemory } from "./message-status-hold-repository-memory.ts"
export * from "./messaging-provider-memory.ts"
export * from "./template-review-memory.ts"
export * from "./messaging-settings-layer.ts"
export * from "./messaging-tables.ts"
export * from "./messaging-constraints.ts"
export { OtpLedgerMemory } from "./otp-ledger-memory.ts"
export { MessageAllowanceLedgerMemory } from "./message-allowance-ledger-memory.ts"
export { IdempotencyStoreMemory, idempotencyKey } from "./idempotency-store-memory.ts"
export { OtpReservationRepositoryMemory } from "./otp-reservation-repository-memory.ts"
export { PlatformRepositoryMemory } from "./platform-repository-memory.ts"
export { SANDBOX_UNDELIVERABLE_PREFIX } from "./sandbox-outcome.ts"
export { VerificationRepositoryMemory } from "./verification-repository-memory.ts"
export { WebhookTransportMemory } from "./webhook-transport-memory.ts"
export * from "./webhook-url-guard-memory.ts"
export { RepositoriesMemory } from "./repositories-memory.ts"
export { RetentionMemory } from "./retention-memory.ts"
export { ReadinessMemory } from "./readiness-memory.ts"
export { DeliveryBacklogMemory } from "./delivery-backlog-memory.ts"
export { ExportRepositoryMemory } from "./export-repository-memory.ts"
export { ImportRepositoryMemory } from "./import-repository-memory.ts"
export type { ImportEntry, StagedImportRow } from "./import-tables.ts"
export type { Turn } from "./turn.ts"
export * from "./wasl-memory.ts"
// The options and the error of `WaslMemory.layer`, shared with the PostgreSQL deployment layers.
export { WaslConfigError, type WebhookOptions } from "../deployment/options.ts"
export { NoteRepositoryMemory } from "./note-repository-memory.ts"
export { RecordRepositoryMemory } from "./record-repository-memory.ts"
export { TrashRepositoryMemory } from "./trash-repository-memory.ts"
export type { MemoryTrashRow } from "./trash-tables.ts"
export { RecordMergeStoreMemory } from "./record-merge-store-memory.ts"
export * from "./record-tables.ts"
