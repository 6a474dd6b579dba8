/**
 * The ports Wasl runs on, named as groups: what an adapter set must provide. `@wasl/adapters`
 * provides all of them in one layer per deployment shape (PostgreSQL, embedded PGlite, memory).
 */
import type { SecureRandom } from "effect/crypto"
import type { AccountRepository } from "./account/account-repository.ts"
import type { CurrentUserReader } from "./account/current-user-reader.ts"
import type { EmailTokenRepository } from "./account/email-token-repository.ts"
import type { MessageAllowanceLedger } from "./account/message-allowance-ledger.ts"
import type { NotificationFeed } from "./account/notification-feed.ts"
import type { NotificationRepository } from "./account/notification-repository.ts"
import type { InvitationRepository } from "./account/invitation-repository.ts"
import type { MemberRepository } from "./account/member-repository.ts"
import type { TeamRepository } from "./account/team-repository.ts"
import type { UserRepository } from "./account/user-repository.ts"
import type { PasswordHasher } from "./auth/password-hasher.ts"
import type { RateLimiter } from "./auth/rate-limiter.ts"
import type { SecretBox } from "./auth/secret-box.ts"
import type { SessionRepository } from "./auth/session-repository.ts"
import type { TokenHasher } from "./auth/token-hasher.ts"
import type { TokenRepository } from "./auth/token-repository.ts"
import type { TwoFactorLoginRepository } from "./auth/two-factor-login-repository.ts"
import type { TwoFactorRepository } from "./auth/two-factor-repository.ts"
import type { Outbox } from "./events/outbox.ts"
import type { IdempotencyStore } from "./idempotency/idempotency-store.ts"
import type { ImportRepository } from "./imports/import-repository.ts"
import type { QueueSignals } from "./events/queue-signals.ts"
import type { Mailer } from "./mail/mailer.ts"
import type { MessagingProvider } from "./messaging/messaging-provider.ts"
import type { TemplateReview } from "./messaging/template-review.ts"
import type { CampaignRepository } from "./messaging/campaign-repository.ts"
import type { BroadcastRepository } from "./messaging/broadcast-repository.ts"
import type { MessageRepository } from "./messaging/message-repository.ts"
import type { Conversations } from "./messaging/conversations.ts"
import type { MediaStore } from "./messaging/media-store.ts"
import type { MediaBacklog } from "./messaging/media-backlog.ts"
import type { ContactChannelRepository } from "./messaging/contact-channel-repository.ts"
import type { MessageStatusHoldRepository } from "./messaging/message-status-hold-repository.ts"
import type { OtpLedger } from "./messaging/otp-ledger.ts"
import type { OtpReservationRepository } from "./messaging/otp-reservation-repository.ts"
import type { PlatformRepository } from "./messaging/platform-repository.ts"
import type { VerificationRepository } from "./messaging/verification-repository.ts"
import type { MessagingSettings } from "./messaging/messaging-settings.ts"
import type { OtpCodeHasher } from "./messaging/otp-code.ts"
import type { NoteRepository } from "./notes/note-repository.ts"
import type { PipelineRepository } from "./records/pipeline-repository.ts"
import type { PropertyHistoryRepository } from "./records/property-history-repository.ts"
import type { PropertyGroupRepository } from "./records/property-group-repository.ts"
import type { PropertyRepository } from "./records/property-repository.ts"
import type { PropertyValueStore } from "./records/property-value-store.ts"
import type { RecordRepository } from "./records/record-repository.ts"
import type { SavedViewRepository } from "./records/saved-view-repository.ts"
import type { TrashRepository } from "./records/trash-repository.ts"
import type { RecordMergeStore } from "./records/record-merge-store.ts"
import type { Retention } from "./retention/retention.ts"
import type { Readiness } from "./health/readiness.ts"
import type { DeliveryBacklog } from "./webhooks/delivery-backlog.ts"
import type { Transactor } from "./transactor.ts"
import type { DeliveryRepository } from "./webhooks/delivery-repository.ts"
import type { WebhookRepository } from "./webhooks/webhook-repository.ts"
import type { WebhookTransport } from "./webhooks/webhook-transport.ts"
import type { WebhookUrlGuard } from "./webhooks/webhook-url.ts"
import type { ExportRepository } from "./exports/export-repository.ts"
import type { WhatsAppInbox } from "./whatsapp/whatsapp-inbox.ts"

/**
 * The storage ports: every repository, the outbox, the WhatsApp inbox, the transactor that makes writes atomic and
 * the request counters of rate limits, and what operators watch: readiness and the delivery backlog.
 */
export type WaslRepositories =
  | AccountRepository
  | UserRepository
  | TeamRepository
  | MemberRepository
  | InvitationRepository
  | NotificationRepository
  | CurrentUserReader
  | TokenRepository
  | SessionRepository
  | TwoFactorRepository
  | TwoFactorLoginRepository
  | EmailTokenRepository
  | Transactor
  | Outbox
  | PropertyRepository
  | PropertyGroupRepository
  | PipelineRepository
  | PropertyHistoryRepository
  | SavedViewRepository
  | PropertyValueStore
  | RecordRepository
  | TrashRepository
  | RecordMergeStore
  | NoteRepository
  | WebhookRepository
  | DeliveryRepository
  | PlatformRepository
  | BroadcastRepository
  | CampaignRepository
  | MessageRepository
  | Conversations
  | MediaBacklog
  | ContactChannelRepository
  | MessageStatusHoldRepository
  | VerificationRepository
  | OtpLedger
  | MessageAllowanceLedger
  | OtpReservationRepository
  | IdempotencyStore
  | ImportRepository
  | Retention
  | RateLimiter
  | Readiness
  | DeliveryBacklog
  | ExportRepository
  | WhatsAppInbox

/**
 * Every port the use-cases, the HTTP handlers and the delivery worker need: the storage ports,
 * the worker's wake-up signals, the live notification feed, hashing and secrets, and the ports through which Wasl reaches the
 * outside world (webhook endpoints, mail, WhatsApp and its template review) and the store of received media.
 * `DeliveryPolicy` is not listed: it has a default (attempts 0 s, 5 min, 30 min, 1 h, 3 h and
 * 1 day after the one before; 30 seconds each) that a deployment may override.
 */
export type WaslServices =
  | WaslRepositories
  | QueueSignals
  | NotificationFeed
  | PasswordHasher
  | TokenHasher
  | SecureRandom.SecureRandom
  | SecretBox
  | OtpCodeHasher
  | WebhookUrlGuard
  | WebhookTransport
  | Mailer
  | MessagingProvider
  | TemplateReview
  | MessagingSettings
  | MediaStore
