/**
 * What every send shares: the provider request for a broadcast, the provider's answer turned into
 * the send's outcome, and the stored message.
 */
import { DateTime, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import { SecretBox } from "../auth/secret-box.ts"
import { invalid, ServiceUnavailable, type ValidationFailed } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import { lockMatches } from "../records/match-lock.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId } from "../wire/record-id.ts"
import type { Broadcast } from "./broadcast.ts"
import { type ContactChannelRepository, ensureContactChannel } from "./contact-channel-repository.ts"
import type { Message } from "./message.ts"
import { appendMessageEvent } from "./message-events.ts"
import { MessageRepository } from "./message-repository.ts"
import { MessageStatusHoldRepository } from "./message-status-hold-repository.ts"
import { applyStatusReports } from "./message-status.ts"
import { MessagingProvider, type ProviderOutcome, type ProviderPlatform, type ProviderRequest } from "./messaging-provider.ts"
import { type Platform, platformThirdPartyId } from "./platform.ts"
import type { Recipient } from "./recipient.ts"
import { MASKED_CODE, renderBody } from "./template.ts"
import { type FilledParameters, fillVariables } from "./template-variables.ts"

/** The message of the 422 a provider rejection answers with. */
export const UNDELIVERABLE = "The message could not be delivered to this recipient."

/** The sending number as the provider needs it, its access token opened. */
export const providerPlatformOf = (platform: Platform): Effect.Effect<ProviderPlatform, never, SecretBox> =>
  Effect.gen(function*() {
    const accessToken = platform.sealed_access_token === null
      ? null
      : Option.getOrNull(yield* SecretBox.use((box) => box.open(platform.sealed_access_token!)))
    return {
      provider: platform.provider,
      phoneId: platform.phone_id,
      displayPhoneNumber: platform.display_phone_number,
      accessToken
    }
  })

/**
 * The provider's id of an accepted message. A rejection is a 422 on `field`; a provider that
 * cannot take it now is a 503 with Retry-After.
 */
export const acceptedMessageId = (
  outcome: ProviderOutcome,
  field: string
): Effect.Effect<string, ValidationFailed | ServiceUnavailable> => {
  switch (outcome._tag) {
    case "Accepted":
      return Effect.succeed(outcome.messageId)
    case "Rejected":
      return Effect.fail(invalid(field, UNDELIVERABLE))
    case "Unavailable":
      return Effect.fail(
        new ServiceUnavailable({
          message: "The messaging provider cannot take the message now. Try again later.",
          retryAfter: outcome.retryAfterSeconds
        })
      )
  }
}

/**
 * Sends through the broadcast's sending number. A rejection is a 422 on `field` (`to` or
 * `contact_id`); a provider that cannot take it now is a 503 with Retry-After. Never charges or
 * stores anything itself.
 */
export const sendThroughProvider = (
  broadcast: Broadcast,
  recipient: Pick<Recipient, "digits">,
  field: "to" | "contact_id",
  extra: Pick<ProviderRequest, "code" | "offerCode" | "headerMedia" | "parameters">
): Effect.Effect<string, ValidationFailed | ServiceUnavailable, MessagingProvider | SecretBox> =>
  Effect.gen(function*() {
    const platform = yield* providerPlatformOf(broadcast.platform)
    const outcome = yield* MessagingProvider.use((provider) =>
      provider.send({
        platform,
        to: recipient.digits,
        template: { name: broadcast.template.name, language: broadcast.language, category: broadcast.template.category },
        ...extra
      })
    )
    return yield* acceptedMessageId(outcome, field)
  })

/** What storing a sent message needs. */
export type MessageStoreServices =
  | MessageRepository
  | ContactChannelRepository
  | MessageStatusHoldRepository
  | Outbox
  | Transactor
  | SecureRandom.SecureRandom

/**
 * Stores the sent message on the contact's channel entry for the sending number (made when it is
 * the first message between them); a code appears in its body only as `******`. Statuses the
 * provider reported before this answer was stored are applied at once (each with its
 * `message-status-updated` event).
 *
 * One transaction (the holds are taken under the account's contact match lock: see
 * `recordSentMessage`).
 */
export const storeMessage = (
  broadcast: Broadcast,
  recipient: Recipient,
  providerMessageId: string,
  hasCode: boolean,
  parameters?: FilledParameters
): Effect.Effect<Message, never, MessageStoreServices> =>
  Transactor.use((transactor) => transactor.transaction(storeMessageInTransaction(broadcast, recipient, providerMessageId, hasCode, parameters)))

/**
 * The message a send the provider accepted is stored as, on the contact's channel entry for the
 * sending number (made, in the caller's transaction, when it is the first message between them).
 */
export const sentMessageOf = (
  broadcast: Broadcast,
  recipient: Recipient,
  providerMessageId: string,
  hasCode: boolean,
  parameters?: FilledParameters
): Effect.Effect<Message, never, ContactChannelRepository | SecureRandom.SecureRandom> =>
  Effect.gen(function*() {
    const now = yield* DateTime.now
    const platform = broadcast.platform
    const platformId = platformThirdPartyId(platform)
    const channel = yield* ensureContactChannel({
      accountId: broadcast.account_id,
      contactId: recipient.contactId,
      platformThirdPartyId: platformId,
      contactThirdPartyId: recipient.digits
    })
    return {
      _id: yield* newRecordId,
      account_id: broadcast.account_id,
      provider_message_id: providerMessageId,
      contact_id: recipient.contactId,
      contact_channel_id: channel._id,
      broadcast_id: broadcast.id,
      platform_id: platform.id,
      platform_third_party_id: platformId,
      sender_third_party_id: platform.display_phone_number.replace(/[^0-9]/g, ""),
      receiver_third_party_id: recipient.digits,
      direction: "outbound",
      type: "template",
      status: "sent",
      body: parameters === undefined
        ? renderBody(broadcast.template, hasCode ? MASKED_CODE : undefined)
        : fillVariables(broadcast.template.body, parameters.body),
      content: null,
      context_id: null,
      attachments: [],
      error: null,
      sent_at: now,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      created_at: now,
      updated_at: now
    }
  })

/** `storeMessage` inside the caller's transaction, which must be one. */
const storeMessageInTransaction = (
  broadcast: Broadcast,
  recipient: Recipient,
  providerMessageId: string,
  hasCode: boolean,
  parameters?: FilledParameters
): Effect.Effect<Message, never, Exclude<MessageStoreServices, Transactor>> =>
  Effect.flatMap(
    sentMessageOf(broadcast, recipient, providerMessageId, hasCode, parameters),
    (message) => Effect.map(recordSentMessages([message]), (stored) => stored[0]!)
  )

/**
 * Stores a message the provider accepted (a template's or a free-form reply's) and applies the
 * statuses it reported before this answer was stored, each change with its
 * `message-status-updated` event; answers the message as stored. One transaction holding the
 * account's contact match lock, which the processing of a status takes before it holds one: the
 * status either finds the message or is held before this takes the holds.
 */
export const recordSentMessage = (
  message: Message
): Effect.Effect<Message, never, MessageRepository | MessageStatusHoldRepository | Outbox | Transactor> =>
  Transactor.use((transactor) => transactor.transaction(Effect.map(recordSentMessages([message]), (stored) => stored[0]!)))

/**
 * `recordSentMessage` for messages of one account, inside the caller's transaction, which must be
 * one: the lock taken once, the messages inserted and their held statuses taken in one statement
 * each, however many. Answers them as stored, in the order given.
 */
export const recordSentMessages = (
  stored: ReadonlyArray<Message>
): Effect.Effect<ReadonlyArray<Message>, never, MessageRepository | MessageStatusHoldRepository | Outbox> =>
  Effect.gen(function*() {
    if (stored.length === 0) return stored
    const accountId = stored[0]!.account_id
    yield* lockMatches(accountId, "contact")
    const messages = yield* MessageRepository
    yield* messages.insertMany(stored)
    const held = yield* MessageStatusHoldRepository.use((holds) =>
      holds.takeMany(accountId, stored.map((m) => m.provider_message_id))
    )
    if (held.size === 0) return stored
    const now = yield* DateTime.now
    return yield* Effect.forEach(stored, (message) =>
      Effect.gen(function*() {
        const updated = applyStatusReports(message, held.get(message.provider_message_id) ?? [], now)
        if (updated === null) return message
        yield* messages.update(updated)
        yield* appendMessageEvent("message-status-updated", updated)
        return updated
      }))
  })
