/** The messaging repositories on PostgreSQL (migrations 0008 and 0009). */
import type {
  BroadcastRepository,
  Conversations,
  MediaBacklog,
  MessageRepository,
  OtpLedger,
  OtpReservationRepository,
  PlatformRepository,
  VerificationRepository
} from "@wasl/core"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { BroadcastRepositoryPg } from "./broadcast-repository-pg.ts"
import { ConversationsPg } from "./conversations-pg.ts"
import { MediaBacklogPg } from "./media-backlog-pg.ts"
import { MessageRepositoryPg } from "./message-repository-pg.ts"
import { OtpLedgerPg } from "./otp-ledger-pg.ts"
import { OtpReservationRepositoryPg } from "./otp-reservation-repository-pg.ts"
import { PlatformRepositoryPg } from "./platform-repository-pg.ts"
import { VerificationRepositoryPg } from "./verification-repository-pg.ts"

export { BroadcastRepositoryPg } from "./broadcast-repository-pg.ts"
export { ConversationsPg } from "./conversations-pg.ts"
export { MediaBacklogPg } from "./media-backlog-pg.ts"
export { MessageRepositoryPg } from "./message-repository-pg.ts"
export { OtpLedgerPg } from "./otp-ledger-pg.ts"
export { OtpReservationRepositoryPg } from "./otp-reservation-repository-pg.ts"
export { PlatformRepositoryPg } from "./platform-repository-pg.ts"
export { VerificationRepositoryPg } from "./verification-repository-pg.ts"

/**
 * PlatformRepository, BroadcastRepository, MessageRepository, Conversations, MediaBacklog,
 * VerificationRepository,
 * OtpLedger and OtpReservationRepository on PostgreSQL, over one `SqlClient` (migrated).
 */
export const MessagingRepositoriesPg: Layer.Layer<
  | PlatformRepository
  | BroadcastRepository
  | MessageRepository
  | Conversations
  | MediaBacklog
  | VerificationRepository
  | OtpLedger
  | OtpReservationRepository,
  never,
  SqlClient
> = Layer.mergeAll(
  PlatformRepositoryPg,
  BroadcastRepositoryPg,
  MessageRepositoryPg,
  ConversationsPg,
  MediaBacklogPg,
  VerificationRepositoryPg,
  OtpLedgerPg,
  OtpReservationRepositoryPg
)
