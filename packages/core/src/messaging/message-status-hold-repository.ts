/**
 * Statuses that arrived before their message: the provider may report `sent` or `delivered`
 * before Wasl has stored the answer of the send that made the message. They wait here, per
 * account and provider message id, and are applied when the send's message is stored. A status
 * keeps the tracking string its send carried (`ProviderRequest.tracking`), so that a send whose
 * answer was lost, when its worker died, is found by it. Every method takes the account and never
 * sees another account's holds.
 */
import { Context, type Effect } from "effect"
import type { StatusReport } from "./message-status.ts"

/** What the MessageStatusHoldRepository port offers (implement this to write an adapter). */
export interface MessageStatusHoldRepositoryShape {
  /**
   * Keeps a status of that message, with the tracking string its send carried (null: none); a
   * second report of the same status is kept once (the first).
   */
  readonly hold: (
    accountId: number,
    providerMessageId: string,
    report: StatusReport,
    tracking: string | null
  ) => Effect.Effect<void>
  /**
   * The provider message ids of the held statuses carrying those tracking strings, by tracking
   * string (those no held status carries are absent); nothing is taken.
   */
  readonly findTracked: (
    accountId: number,
    trackings: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, string>>
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
