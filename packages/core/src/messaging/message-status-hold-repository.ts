/**
 * Statuses that arrived before their message: the provider may report `sent` or `delivered`
 * before Wasl has stored the answer of the send that made the message. They wait here, per
 * account and provider message id, and are applied when the send's message is stored. Every
 * method takes the account and never sees another account's holds.
 */
import { Context, type Effect } from "effect"
import type { StatusReport } from "./message-status.ts"

/** What the MessageStatusHoldRepository port offers (implement this to write an adapter). */
export interface MessageStatusHoldRepositoryShape {
  /** Keeps a status of that message; a second report of the same status is kept once (the first). */
  readonly hold: (accountId: number, providerMessageId: string, report: StatusReport) => Effect.Effect<void>
  /** Removes and answers the statuses held for that message, in no particular order. */
  readonly take: (accountId: number, providerMessageId: string) => Effect.Effect<ReadonlyArray<StatusReport>>
  /**
   * `take` for many messages at once: the statuses held for each, by provider message id (those
   * with none are absent).
   */
  readonly takeMany: (
    accountId: number,
    providerMessageIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<StatusReport>>>
}

const MessageStatusHoldRepositoryBase: Context.ServiceClass<
  MessageStatusHoldRepository,
  "@wasl/core/MessageStatusHoldRepository",
  MessageStatusHoldRepositoryShape
> = Context.Service<MessageStatusHoldRepository, MessageStatusHoldRepositoryShape>()(
  "@wasl/core/MessageStatusHoldRepository"
)

/** Statuses held until their message is stored. */
export class MessageStatusHoldRepository extends MessageStatusHoldRepositoryBase {}
