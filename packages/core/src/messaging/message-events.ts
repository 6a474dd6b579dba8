/**
 * The message events of the outbox: `message-received` when a contact's message is stored,
 * `message-status-updated` when a sent message's status changes, each carrying the message in its
 * REST shape under `message`. Appended in the transaction of the change.
 */
import { Effect } from "effect"
import { Outbox } from "../events/outbox.ts"
import type { MessageEventName } from "../records/object-kind.ts"
import { type Message, messageJson } from "./message.ts"

/** Queues the event `name` of `message`. */
export const appendMessageEvent = (name: MessageEventName, message: Message): Effect.Effect<void, never, Outbox> =>
  Outbox.use((outbox) => outbox.append([{ accountId: message.account_id, name, payload: messageJson(message) }]))
