/** Every storage port in memory, over one store. */
import type { WaslRepositories } from "@wasl/core/Deployment"
import type { QueueSignals } from "@wasl/core/Events"
import type { NotificationFeed } from "@wasl/core/Notifications"
import { Layer } from "effect"
import type { SecureRandom } from "effect/crypto"
import { AccountRepositoryMemory } from "./account-repository-memory.ts"
import { CurrentUserReaderMemory } from "./current-user-reader-memory.ts"
import { DeliveryRepositoryMemory } from "./delivery-repository-memory.ts"
import { NotificationFeedMemory } from "./notification-feed-memory.ts"
import { NotificationRepositoryMemory } from "./notification-repository-memory.ts"
import { OutboxMemory } from "./outbox-memory.ts"
import { PipelineRepositoryMemory } from "./pipeline-repository-memory.ts"
import { PropertyHistoryRepositoryMemory } from "./property-history-repository-memory.ts"
import { SavedViewRepositoryMemory } from "./saved-view-repository-memory.ts"
import { PropertyGroupRepositoryMemory } from "./property-group-repository-memory.ts"
import { PropertyRepositoryMemory } from "./property-repository-memory.ts"
import { QueueSignalsMemory } from "./queue-signals-memory.ts"
import { RateLimiterMemory } from "./rate-limiter-memory.ts"
import { SessionRepositoryMemory } from "./session-repository-memory.ts"
import { MemoryStore } from "./store.ts"
import { TeamRepositoryMemory } from "./team-repository-memory.ts"
import { MemberRepositoryMemory } from "./member-repository-memory.ts"
import { InvitationRepositoryMemory } from "./invitation-repository-memory.ts"
import { TokenRepositoryMemory } from "./token-repository-memory.ts"
import { TransactorMemory } from "./transactor-memory.ts"
import { TwoFactorLoginRepositoryMemory } from "./two-factor-login-repository-memory.ts"
import { EmailTokenRepositoryMemory } from "./email-token-repository-memory.ts"
import { TwoFactorRepositoryMemory } from "./two-factor-repository-memory.ts"
import { UserRepositoryMemory } from "./user-repository-memory.ts"
import { WebhookRepositoryMemory } from "./webhook-repository-memory.ts"
import { PropertyValueStoreMemory } from "./property-value-store-memory.ts"
import { BroadcastRepositoryMemory } from "./broadcast-repository-memory.ts"
import { CampaignRepositoryMemory } from "./campaign-repository-memory.ts"
import { MessageRepositoryMemory } from "./message-repository-memory.ts"
import { ConversationsMemory } from "./conversations-memory.ts"
import { MediaBacklogMemory } from "./media-backlog-memory.ts"
import { ContactChannelRepositoryMemory } from "./contact-channel-repository-memory.ts"
import { MessageStatusHoldRepositoryMemory } from "./message-status-hold-repository-memory.ts"
import { OtpLedgerMemory } from "./otp-ledger-memory.ts"
import { MessageAllowanceLedgerMemory } from "./message-allowance-ledger-memory.ts"
import { OtpReservationRepositoryMemory } from "./otp-reservation-repository-memory.ts"
import { PlatformRepositoryMemory } from "./platform-repository-memory.ts"
import { VerificationRepositoryMemory } from "./verification-repository-memory.ts"
import { NoteRepositoryMemory } from "./note-repository-memory.ts"
import { RecordRepositoryMemory } from "./record-repository-memory.ts"
import { TrashRepositoryMemory } from "./trash-repository-memory.ts"
import { RecordMergeStoreMemory } from "./record-merge-store-memory.ts"
import { IdempotencyStoreMemory } from "./idempotency-store-memory.ts"
import { RetentionMemory } from "./retention-memory.ts"
import { ReadinessMemory } from "./readiness-memory.ts"
import { DeliveryBacklogMemory } from "./delivery-backlog-memory.ts"
import { ExportRepositoryMemory } from "./export-repository-memory.ts"
import { ImportRepositoryMemory } from "./import-repository-memory.ts"
import { WhatsAppInboxMemory } from "./whatsapp-inbox-memory.ts"

/**
 * Every repository port, the Transactor and the store's QueueSignals over one
 * fresh store (each build of this layer is a new, empty database). Also exposes
 * `MemoryStore`, so tests can seed or inspect rows. Needs `SecureRandom` for
 * subscription ids.
 */
export const RepositoriesMemory: Layer.Layer<
  WaslRepositories | QueueSignals | NotificationFeed | MemoryStore,
  never,
  SecureRandom.SecureRandom
> = CurrentUserReaderMemory.pipe(Layer.provideMerge(Layer.mergeAll(
  AccountRepositoryMemory,
  UserRepositoryMemory,
  TeamRepositoryMemory,
  MemberRepositoryMemory,
  InvitationRepositoryMemory,
  NotificationRepositoryMemory,
  TokenRepositoryMemory,
  SessionRepositoryMemory,
  TwoFactorRepositoryMemory,
  TwoFactorLoginRepositoryMemory,
  EmailTokenRepositoryMemory,
  TransactorMemory,
  OutboxMemory,
  PropertyRepositoryMemory,
  PropertyGroupRepositoryMemory,
  PipelineRepositoryMemory,
  PropertyHistoryRepositoryMemory,
  SavedViewRepositoryMemory,
  PropertyValueStoreMemory,
  WebhookRepositoryMemory,
  PlatformRepositoryMemory,
  BroadcastRepositoryMemory,
  CampaignRepositoryMemory,
  MessageRepositoryMemory,
  ConversationsMemory,
  MediaBacklogMemory,
  ContactChannelRepositoryMemory,
  MessageStatusHoldRepositoryMemory,
  VerificationRepositoryMemory,
  OtpLedgerMemory,
  MessageAllowanceLedgerMemory,
  OtpReservationRepositoryMemory,
  DeliveryRepositoryMemory,
  QueueSignalsMemory,
  NotificationFeedMemory,
  RecordRepositoryMemory,
  TrashRepositoryMemory,
  RecordMergeStoreMemory,
  NoteRepositoryMemory,
  IdempotencyStoreMemory,
  RetentionMemory,
  RateLimiterMemory,
  ReadinessMemory,
  DeliveryBacklogMemory,
  ExportRepositoryMemory,
  ImportRepositoryMemory,
  WhatsAppInboxMemory
))).pipe(Layer.provideMerge(MemoryStore.layer))
