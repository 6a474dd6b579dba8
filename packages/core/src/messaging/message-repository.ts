/**
 * Messages, both directions. Every method takes the account and never sees another account's
 * rows.
 */
import { Context, type Effect, type Option } from "effect"
import type { Message } from "./message.ts"

/** What the MessageRepository port offers (implement this to write an adapter). */
export interface MessageRepositoryShape {
  /** Stores a message. */
  readonly insert: (message: Message) => Effect.Effect<void>
  /**
   * Stores messages, in the order given, as `insert` stores each: one statement for them all
   * (inside a transaction, all or none).
   */
  readonly insertMany: (messages: ReadonlyArray<Message>) => Effect.Effect<void>
  /** The account's message with that `_id`, or none. */
  readonly findById: (accountId: number, id: string) => Effect.Effect<Option.Option<Message>>
  /**
   * The account's message with that provider id (`wamid...`), or none; inside a transaction it
   * stays locked until the transaction ends, so two updates of one message run one after the other.
   */
  readonly findByProviderId: (accountId: number, providerMessageId: string) => Effect.Effect<Option.Option<Message>>
  /** Replaces the stored message of that account and `_id` (its status, times, attachments, error). */
  readonly update: (message: Message) => Effect.Effect<void>
}

const MessageRepositoryBase: Context.ServiceClass<
  MessageRepository,
  "@wasl/core/MessageRepository",
  MessageRepositoryShape
> = Context.Service<MessageRepository, MessageRepositoryShape>()("@wasl/core/MessageRepository")

/** The account's messages, both directions. */
export class MessageRepository extends MessageRepositoryBase {}
