/** The messaging repositories on PostgreSQL (migrations 0008, 0009, 0024 and 0027). */
import type {
  BroadcastRepository,
  CampaignRepository,
  Conversations,
  MediaBacklog,
  ContactChannelRepository,
  MessageRepository,
  MessageStatusHoldRepository,
  PlatformRepository
} from "@wasl/core/Messaging"
import type { OtpLedger, OtpReservationRepository, VerificationRepository } from "@wasl/core/Otp"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { BroadcastRepositoryPg } from "./broadcast-repository-pg.ts"
import { CampaignRepositoryPg } from "./campaign-repository-pg.ts"
import { ConversationsPg } from "./conversations-pg.ts"
import { MediaBacklogPg } from "./media-backlog-pg.ts"
import { ContactChannelRepositoryPg } from "./contact-channel-repository-pg.ts"
import { MessageRepositoryPg } from "./message-repository-pg.ts"
import { MessageStatusHoldRepositoryPg } from "./message-status-hold-repository-pg.ts"
import { OtpLedgerPg } from "./otp-ledger-pg.ts"
import { OtpReservationRepositoryPg } from "./otp-reservation-repository-pg.ts"
import { PlatformRepositoryPg } from "./platform-repository-pg.ts"
import { VerificationRepositoryPg } from "./verification-repository-pg.ts"

export { BroadcastRepositoryPg } from "./broadcast-repository-pg.ts"
export { CampaignRepositoryPg } from "./campaign-repository-pg.ts"
export { ConversationsPg } from "./conversations-pg.ts"
export { MediaBacklogPg } from "./media-backlog-pg.ts"
export { ContactChannelRepositoryPg } from "./contact-channel-repository-pg.ts"
export { MessageRepositoryPg } from "./message-repository-pg.ts"
export { MessageStatusHoldRepositoryPg } from "./message-status-hold-repository-pg.ts"
export { OtpLedgerPg } from "./otp-ledger-pg.ts"
export { OtpReservationRepositoryPg } from "./otp-reservation-repository-pg.ts"
export { PlatformRepositoryPg } from "./platform-repository-pg.ts"
export { VerificationRepositoryPg } from "./verification-repository-pg.ts"

/**
 * PlatformRepository, BroadcastRepository, CampaignRepository, MessageRepository, Conversations, MediaBacklog,
 * ContactChannelRepository, MessageStatusHoldRepository, VerificationRepository, OtpLedger and
 * OtpReservationRepository on PostgreSQL, over one `SqlClient` (migrated).
 */
export const MessagingRepositoriesPg: Layer.Layer<
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
  | OtpReservationRepository,
  never,
  SqlClient
> = Layer.mergeAll(
  PlatformRepositoryPg,
  BroadcastRepositoryPg,
  CampaignRepositoryPg,
  MessageRepositoryPg,
  ConversationsPg,
  MediaBacklogPg,
  ContactChannelRepositoryPg,
  MessageStatusHoldRepositoryPg,
  VerificationRepositoryPg,
  OtpLedgerPg,
  OtpReservationRepositoryPg
)
