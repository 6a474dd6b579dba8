/**
 * Sent messages. Every method takes the account and never sees another account's rows.
 */
import { Context, type Effect, type Option } from "effect"
import type { Message } from "./message.ts"

/** What the MessageRepository port offers (implement this to write an adapter). */
export interface MessageRepositoryShape {
  /** Stores a sent message. */
  readonly insert: (message: Message) => Effect.Effect<void>
  /** The account's message with that `_id`, or none. */
  readonly findById: (accountId: number, id: string) => Effect.Effect<Option.Option<Message>>
}

/** @ignore */
export const MessageRepositoryBase: Context.ServiceClass<
  MessageRepository,
  "@wasl/core/MessageRepository",
  MessageRepositoryShape
> = Context.Service<MessageRepository, MessageRepositoryShape>()("@wasl/core/MessageRepository")

/** The messages the account sent. */
export class MessageRepository extends MessageRepositoryBase {}
