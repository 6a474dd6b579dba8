/**
 * Processing a WhatsApp Cloud API webhook body that the receiver stored (its signature already
 * checked): the messages contacts sent to the account's numbers, and the statuses of the messages
 * those numbers sent.
 *
 * Each change belongs to the sending number whose `phone_id` is its `metadata.phone_number_id`
 * (a sandbox number: whose digits are). A number no account has — or that more than one account
 * registered, so that whose it is cannot be told — is counted and its change dropped: nothing is
 * ever given to an account that does not own the number.
 *
 * A received message, in one transaction holding its contact's record lock (the account's contact
 * match lock only while a new contact is made, recipient.ts), so messages of different contacts
 * are taken in side by side:
 * - stored once: a message whose id (`wamid...`) the account already has is left as it is, so
 *   Meta's retries change nothing;
 * - from the contact reached at the sender's number (recipient.ts), made with the profile's name
 *   (`incoming`) when the account has none; on the contact's channel entry for that number;
 * - `created_at` is the payload's time (never later than the body's receipt);
 * - the contact's received times move (received-times.ts), with its `contact-updated` event;
 * - the `message-received` event, and the IncomingMessage notification.
 *
 * A status, in one transaction: applied to the account's outbound message with that id
 * (message-status.ts), with its `message-status-updated` event when it changes something; held
 * for the send that has not stored its message yet (dispatch.ts applies it), the match lock taken
 * first so that the send either sees the hold or this sees its message.
 *
 * The review changes of the account's templates (`message_template_status_update`,
 * `template_category_update`), which name the WhatsApp Business Account rather than a number, are
 * read and applied by template-reviews.ts. A number's quality update sets its messaging limit tier
 * (number-quality-update.ts).
 */
import { DateTime, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { NotificationRepository } from "../account/notification-repository.ts"
import type { Outbox } from "../events/outbox.ts"
import type { BroadcastRepository } from "../messaging/broadcast-repository.ts"
import { parseTemplateReviewPayload } from "../messaging/template-webhook-payload.ts"
import { type ContactChannelRepository, ensureContactChannel } from "../messaging/contact-channel-repository.ts"
import type { Message, MessageError } from "../messaging/message.ts"
import { appendMessageEvent } from "../messaging/message-events.ts"
import { MessageRepository } from "../messaging/message-repository.ts"
import { MessageStatusHoldRepository } from "../messaging/message-status-hold-repository.ts"
import { applyStatusReport, REPORTED_STATUSES, type ReportedStatus, type StatusReport } from "../messaging/message-status.ts"
import { type Platform, platformThirdPartyId } from "../messaging/platform.ts"
import { PlatformRepository } from "../messaging/platform-repository.ts"
import { receivedTimesPatch } from "../messaging/received-times.ts"
import { recipientOfNumber } from "../messaging/recipient.ts"
import { lockMatches, lockRecord } from "../records/match-lock.ts"
import type { PipelineRepository } from "../records/pipeline-repository.ts"
import type { PropertyHistoryRepository } from "../records/property-history-repository.ts"
import { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository } from "../records/record-repository.ts"
import { deriveFullname } from "../records/record-shape.ts"
import { Transactor } from "../transactor.ts"
import { inboundContent } from "../messaging/inbound-content.ts"
import {
  type MetaError,
  type MetaMessage,
  type MetaStatus,
  type NumberChange,
  parseWebhookPayload
} from "../messaging/whatsapp-webhook-payload.ts"
import { newRecordId } from "../wire/record-id.ts"
import { notifyIncomingMessage } from "./incoming-message-notice.ts"
import { applyNumberQualityUpdates } from "./number-quality-update.ts"
import { storeRecordPatch } from "./record-writes.ts"
import { processTemplateReviewChanges } from "./template-reviews.ts"

/** What processing a body did, for the receiver's metrics. */
export interface WhatsAppWebhookSummary {
  /** Messages of the account's numbers taken (stored, or already stored: a retry). */
  readonly messages: number
  /** Statuses of the account's numbers taken (applied, already applied, or held). */
  readonly statuses: number
  /** Changes about a number no account (or more than one) has: dropped. */
  readonly unknownNumbers: number
  /** Review changes of templates of the accounts' broadcasts taken (applied, or already so). */
  readonly templates: number
  /** Review changes of a template no account's broadcast (or more than one account's) has: dropped. */
  readonly unknownTemplates: number
  /** What is not Meta's shape, or of a field or status Wasl does not take: a body, a change, an entry. */
  readonly ignored: number
}

/** What processing a webhook body needs. */
export type WhatsAppWebhookServices =
  | PlatformRepository
  | BroadcastRepository
  | MessageRepository
  | MessageStatusHoldRepository
  | ContactChannelRepository
  | RecordRepository
  | PipelineRepository
  | PropertyHistoryRepository
  | PropertyRepository
  | NotificationRepository
  | Outbox
  | Transactor
  | SecureRandom.SecureRandom

const seconds = (timestamp: string): DateTime.Utc => DateTime.makeUnsafe(Number(timestamp) * 1000)

/** The payload's time, but never after the body's receipt (a sender's clock is not Wasl's). */
const timeOf = (timestamp: string, receivedAt: DateTime.Utc): DateTime.Utc => DateTime.min(seconds(timestamp), receivedAt)

const errorOf = (e: MetaError): MessageError => ({
  code: e.code,
  title: e.title ?? e.message ?? "Unknown error",
  details: e.error_data?.details ?? e.message ?? null
})

const isReported = (status: string): status is ReportedStatus => (REPORTED_STATUSES as ReadonlyArray<string>).includes(status)

/** The sending number a change belongs to: the one account's oldest number of that id, else none. */
const ownerOf = (phoneNumberId: string): Effect.Effect<Option.Option<Platform>, never, PlatformRepository> =>
  Effect.map(PlatformRepository.use((repo) => repo.findByProviderNumber(phoneNumberId)), (platforms) => {
    const accounts = new Set(platforms.map((p) => p.account_id))
    return accounts.size === 1 ? Option.some(platforms[0]!) : Option.none()
  })

/** Stores one received message (see the module comment); nothing when the account has it already. */
const receive = (
  platform: Platform,
  m: MetaMessage,
  profileName: string | undefined,
  receivedAt: DateTime.Utc
): Effect.Effect<void, never, WhatsAppWebhookServices> =>
  Transactor.use((transactor) =>
    transactor.transaction(Effect.gen(function*() {
      const accountId = platform.account_id
      const messages = yield* MessageRepository
      const stored = Effect.map(messages.findByProviderId(accountId, m.id), Option.isSome)
      if (yield* stored) return
      const recipient = yield* recipientOfNumber(accountId, `+${m.from}`, { _tag: "Received", profileName })
      // Messages of one contact one after another: each sees the received times the one before wrote.
      yield* lockRecord(accountId, "contact", recipient.contactId)
      if (yield* stored) return // the same message, delivered twice at once, stored by the other
      const platformId = platformThirdPartyId(platform)
      const channel = yield* ensureContactChannel({
        accountId,
        contactId: recipient.contactId,
        platformThirdPartyId: platformId,
        contactThirdPartyId: m.from
      })
      const now = yield* DateTime.now
      const at = timeOf(m.timestamp, receivedAt)
      const message: Message = {
        _id: yield* newRecordId,
        account_id: accountId,
        provider_message_id: m.id,
        contact_id: recipient.contactId,
        contact_channel_id: channel._id,
        broadcast_id: null,
        platform_id: platform.id,
        platform_third_party_id: platformId,
        sender_third_party_id: m.from,
        receiver_third_party_id: platform.display_phone_number.replace(/[^0-9]/g, ""),
        direction: "inbound",
        status: "received",
        ...inboundContent(m),
        error: null,
        sent_at: null,
        delivered_at: null,
        read_at: null,
        failed_at: null,
        created_at: at,
        updated_at: now
      }
      yield* messages.insert(message)
      const custom = yield* PropertyRepository.use((repo) => repo.list(accountId, "contact"))
      const contact = yield* RecordRepository.use((repo) =>
        repo.get({ accountId, kind: "contact", id: recipient.contactId, custom })
      )
      const values = Option.match(contact, { onNone: () => ({}), onSome: (c) => c.record.values })
      const patch = receivedTimesPatch(values, at)
      if (Object.keys(patch).length > 0) {
        yield* storeRecordPatch(accountId, "contact", custom, recipient.contactId, patch, { userId: null, source: "system" }).pipe(Effect.orDie)
      }
      yield* appendMessageEvent("message-received", message)
      yield* notifyIncomingMessage(message, deriveFullname(values))
    }))
  )

/** Applies one status to the account's message, or holds it for a send not stored yet. */
const report = (platform: Platform, s: MetaStatus & { readonly status: ReportedStatus }, receivedAt: DateTime.Utc) =>
  Transactor.use((transactor) =>
    transactor.transaction(Effect.gen(function*() {
      const accountId = platform.account_id
      const messages = yield* MessageRepository
      const firstError = s.errors?.[0]
      const statusReport: StatusReport = {
        status: s.status,
        at: timeOf(s.timestamp, receivedAt),
        error: s.status === "failed" && firstError !== undefined ? errorOf(firstError) : null
      }
      let found = yield* messages.findByProviderId(accountId, s.id)
      if (Option.isNone(found)) {
        yield* lockMatches(accountId, "contact")
        found = yield* messages.findByProviderId(accountId, s.id)
      }
      if (Option.isNone(found)) {
        return yield* MessageStatusHoldRepository.use((holds) => holds.hold(accountId, s.id, statusReport, s.biz_opaque_callback_data ?? null))
      }
      const updated = applyStatusReport(found.value, statusReport, yield* DateTime.now)
      if (updated === null) return
      yield* messages.update(updated)
      yield* appendMessageEvent("message-status-updated", updated)
    }))
  )

const NOTHING: WhatsAppWebhookSummary = { messages: 0, statuses: 0, unknownNumbers: 0, templates: 0, unknownTemplates: 0, ignored: 0 }

const processChange = (
  change: NumberChange,
  receivedAt: DateTime.Utc
): Effect.Effect<WhatsAppWebhookSummary, never, WhatsAppWebhookServices> =>
  Effect.gen(function*() {
    const owner = yield* ownerOf(change.phoneNumberId)
    if (Option.isNone(owner)) return { ...NOTHING, unknownNumbers: 1, ignored: change.malformed }
    const platform = owner.value
    let ignored = change.malformed
    for (const m of change.messages) {
      yield* receive(platform, m, change.profileNames.get(m.from), receivedAt)
    }
    let statuses = 0
    for (const s of change.statuses) {
      if (!isReported(s.status)) {
        ignored++
        continue
      }
      yield* report(platform, { ...s, status: s.status }, receivedAt)
      statuses++
    }
    return { ...NOTHING, messages: change.messages.length, statuses, ignored }
  })

const add = (a: WhatsAppWebhookSummary, b: WhatsAppWebhookSummary): WhatsAppWebhookSummary => ({
  messages: a.messages + b.messages,
  statuses: a.statuses + b.statuses,
  unknownNumbers: a.unknownNumbers + b.unknownNumbers,
  templates: a.templates + b.templates,
  unknownTemplates: a.unknownTemplates + b.unknownTemplates,
  ignored: a.ignored + b.ignored
})

/**
 * Processes one stored webhook body (its raw text) received at `receivedAt` (see the module
 * comment). A body that is not Meta's shape is one ignored and changes nothing. Never fails:
 * a store that cannot be reached is a defect, and the body can be processed again (it is
 * idempotent).
 */
export const processWhatsAppWebhook: (
  body: string,
  receivedAt: DateTime.Utc
) => Effect.Effect<WhatsAppWebhookSummary, never, WhatsAppWebhookServices> = Effect.fn("processWhatsAppWebhook")(
  function*(body: string, receivedAt: DateTime.Utc) {
    const payload = parseWebhookPayload(body)
    if (Option.isNone(payload)) return { ...NOTHING, ignored: 1 }
    // Quality updates have a reader of their own; the messages reader counts their changes ignored.
    const quality = yield* applyNumberQualityUpdates(body)
    let summary: WhatsAppWebhookSummary = {
      ...NOTHING,
      unknownNumbers: quality.unknownNumbers,
      ignored: payload.value.ignored - quality.applied - quality.unknownNumbers
    }
    for (const change of payload.value.changes) summary = add(summary, yield* processChange(change, receivedAt))
    // The review fields have a reader of their own: a body Meta sends holds one field's changes.
    const reviews = parseTemplateReviewPayload(body)
    if (Option.isSome(reviews)) {
      const taken = yield* processTemplateReviewChanges(reviews.value.changes)
      summary = add(summary, { ...NOTHING, templates: taken.taken, unknownTemplates: taken.unknown, ignored: reviews.value.ignored })
    }
    return summary
  }
)
