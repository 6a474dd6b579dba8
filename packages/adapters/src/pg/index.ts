/** The PostgreSQL repositories: every port of the foundation over one `SqlClient`. */
import type { WaslRepositories } from "@wasl/core/Deployment"
import { Layer } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { SqlClient } from "effect/sql/SqlClient"
import { AccountRepositoryPg } from "./account-repository-pg.ts"
import { CurrentUserReaderPg } from "./current-user-reader-pg.ts"
import { EmailTokenRepositoryPg } from "./email-token-repository-pg.ts"
import { NotificationRepositoryPg } from "./notification-repository-pg.ts"
import { OutboxPg } from "./outbox-pg.ts"
import { WhatsAppInboxPg } from "./whatsapp-inbox-pg.ts"
import { PipelineRepositoryPg } from "./pipeline-repository-pg.ts"
import { PropertyHistoryRepositoryPg } from "./property-history-repository-pg.ts"
import { SavedViewRepositoryPg } from "./saved-view-repository-pg.ts"
import { PropertyGroupRepositoryPg } from "./property-group-repository-pg.ts"
import { PropertyRepositoryPg } from "./property-repository-pg.ts"
import { SessionRepositoryPg } from "./session-repository-pg.ts"
import { TeamRepositoryPg } from "./team-repository-pg.ts"
import { MemberRepositoryPg } from "./member-repository-pg.ts"
import { InvitationRepositoryPg } from "./invitation-repository-pg.ts"
import { TokenRepositoryPg } from "./token-repository-pg.ts"
import { TransactorPg } from "./transactor-pg.ts"
import { TwoFactorLoginRepositoryPg } from "./two-factor-login-repository-pg.ts"
import { TwoFactorRepositoryPg } from "./two-factor-repository-pg.ts"
import { UserRepositoryPg } from "./user-repository-pg.ts"
import { PropertyValueStorePg } from "./property-value-store-pg.ts"
import { RecordRepositoryPg } from "./record-repository-pg.ts"
import { TrashRepositoryPg } from "./trash-repository-pg.ts"
import { RecordMergeStorePg } from "./record-merge-store-pg.ts"
import { WebhookRepositoryPg } from "./webhook-repository-pg.ts"
import { DeliveryRepositoryPg } from "./delivery-repository-pg.ts"
import { NoteRepositoryPg } from "./note-repository-pg.ts"
import { MessagingRepositoriesPg } from "./messaging/index.ts"
import { IdempotencyStorePg } from "./idempotency-store-pg.ts"
import { RetentionPg } from "./retention-pg.ts"
import { RateLimiterPg } from "./rate-limiter-pg.ts"
import { ReadinessPg } from "./readiness-pg.ts"
import { DeliveryBacklogPg } from "./delivery-backlog-pg.ts"
import { ExportRepositoryPg } from "./export-repository-pg.ts"
import { ImportRepositoryPg } from "./import-repository-pg.ts"
import { MatchLockPg } from "./match-lock-pg.ts"
import { MessageAllowanceLedgerPg } from "./message-allowance-ledger-pg.ts"

export { AccountRepositoryPg } from "./account-repository-pg.ts"
export { CurrentUserReaderPg } from "./current-user-reader-pg.ts"
export { EmailTokenRepositoryPg } from "./email-token-repository-pg.ts"
export { NotificationRepositoryPg } from "./notification-repository-pg.ts"
export { OUTBOX_CHANNEL, OutboxPg } from "./outbox-pg.ts"
export { PipelineRepositoryPg } from "./pipeline-repository-pg.ts"
export { PropertyHistoryRepositoryPg } from "./property-history-repository-pg.ts"
export { SavedViewRepositoryPg } from "./saved-view-repository-pg.ts"
export { PropertyGroupRepositoryPg } from "./property-group-repository-pg.ts"
export { PropertyRepositoryPg } from "./property-repository-pg.ts"
export { SessionRepositoryPg } from "./session-repository-pg.ts"
export { TeamRepositoryPg } from "./team-repository-pg.ts"
export { MemberRepositoryPg } from "./member-repository-pg.ts"
export { InvitationRepositoryPg } from "./invitation-repository-pg.ts"
export { TokenRepositoryPg } from "./token-repository-pg.ts"
export { TransactorPg } from "./transactor-pg.ts"
export { TwoFactorLoginRepositoryPg } from "./two-factor-login-repository-pg.ts"
export { TwoFactorRepositoryPg } from "./two-factor-repository-pg.ts"
export { UserRepositoryPg } from "./user-repository-pg.ts"

export { PropertyValueStorePg } from "./property-value-store-pg.ts"
export { RecordRepositoryPg } from "./record-repository-pg.ts"
export { TrashRepositoryPg } from "./trash-repository-pg.ts"
export { RecordMergeStorePg } from "./record-merge-store-pg.ts"
export { WebhookRepositoryPg } from "./webhook-repository-pg.ts"
export { DELIVERIES_CHANNEL, DeliveryRepositoryPg } from "./delivery-repository-pg.ts"
export { QueueSignalsPg } from "./queue-signals-pg.ts"
export { WHATSAPP_INBOX_CHANNEL, WhatsAppInboxPg } from "./whatsapp-inbox-pg.ts"
export { NotificationFeedPg } from "./notification-feed-pg.ts"
export { NoteRepositoryPg } from "./note-repository-pg.ts"
export { IdempotencyStorePg } from "./idempotency-store-pg.ts"
export { RateLimiterPg } from "./rate-limiter-pg.ts"
export * from "./messaging/index.ts"
export { RetentionPg } from "./retention-pg.ts"
export { ReadinessPg } from "./readiness-pg.ts"
export { DeliveryBacklogPg } from "./delivery-backlog-pg.ts"
export {
  CACHE_CHANNEL,
  type CachedRepositories,
  DEFAULT_CACHE_TTL,
  type RepositoryCachesOptions,
  RepositoryCachesPg
} from "./cache/repository-caches-pg.ts"
export type { CurrentUserPorts } from "./cache/current-user-cache.ts"
export { ExportRepositoryPg } from "./export-repository-pg.ts"
export { ImportRepositoryPg } from "./import-repository-pg.ts"
export { MatchLockPg } from "./match-lock-pg.ts"
export { MessageAllowanceLedgerPg } from "./message-allowance-ledger-pg.ts"
export {
  databaseReadsTotal,
  type ReadOptions,
  ReadReplicas,
  type ReadReplicasOptions,
  ReadReplicasPg,
  type ReadReplicasShape
} from "./read-replicas.ts"

/**
 * Every storage port on PostgreSQL (`WaslRepositories`: the repositories, the outbox, the delivery
 * queue, the WhatsApp inbox, the Transactor and the rate-limit counts; and the `MatchLock`), over one `SqlClient` (migrated). Needs `SecureRandom` (subscription
 * ids). The queues' wake-ups (`QueueSignalsPg`) and the live notifications (`NotificationFeedPg`)
 * are separate layers: they need a `PgClient`.
 */
export const RepositoriesPg: Layer.Layer<WaslRepositories, never, SecureRandom.SecureRandom | SqlClient> = Layer.mergeAll(
  AccountRepositoryPg,
  UserRepositoryPg,
  TeamRepositoryPg,
  MemberRepositoryPg,
  InvitationRepositoryPg,
  NotificationRepositoryPg,
  CurrentUserReaderPg,
  TokenRepositoryPg,
  SessionRepositoryPg,
  TwoFactorRepositoryPg,
  TwoFactorLoginRepositoryPg,
  EmailTokenRepositoryPg,
  TransactorPg,
  OutboxPg,
  PropertyRepositoryPg,
  PropertyGroupRepositoryPg,
  PipelineRepositoryPg,
  PropertyHistoryRepositoryPg,
  SavedViewRepositoryPg,
  PropertyValueStorePg,
  RecordRepositoryPg,
  TrashRepositoryPg,
  RecordMergeStorePg,
  NoteRepositoryPg,
  WebhookRepositoryPg,
  DeliveryRepositoryPg,
  MessagingRepositoriesPg,
  IdempotencyStorePg,
  RetentionPg,
  RateLimiterPg,
  ReadinessPg,
  DeliveryBacklogPg,
  ExportRepositoryPg,
  ImportRepositoryPg,
  MatchLockPg,
  MessageAllowanceLedgerPg,
  WhatsAppInboxPg
)
