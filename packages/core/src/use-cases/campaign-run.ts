/**
 * The worker's side of campaigns: each call of a runner's `runNext` takes the campaign whose turn
 * it is (`CampaignRepository.claimDue`, with a lease) and moves it on by one step:
 *
 * - `scheduled` (its time come) or `queued`: resolves the next batch of its audience into
 *   recipients — the contacts named, or those the contacts list query matches now, in the list's
 *   order — each `pending`, or `skipped` with its reason: no whatsapp_number nor phone,
 *   `whatsapp_opted_out`, or a variable's property empty on the contact. Each batch is one
 *   transaction with the position reached, so a worker that stops resumes after it; the last
 *   batch starts the campaign (`running`).
 * - `running`: a round of sends, `roundLength` long at most. Recipients are claimed a batch at a
 *   time in the transaction that takes their messages of the monthly allowance (used up: the
 *   campaign is `paused` with {@link MESSAGE_ALLOWANCE_USED_UP}, and those claimed without one go
 *   back). Each is sent at the sending number's pace (`sendRate` a second, spaced evenly), with up
 *   to `concurrency` in flight; its outcome is stored with the recipient: accepted, its Message and
 *   the recipient `sent`, in one transaction with other accepted ones (a few recorders store them
 *   a batch at a time, so a commit serves many messages); refused, the recipient `failed` and its
 *   allowance given back; the provider throttling or unreachable (WhatsApp's 130429 and the like), the recipient `pending`
 *   again, its allowance given back, and the campaign left until the provider's retry time, when
 *   it resumes. Once nothing is pending nor sending the campaign is `completed` and its creator
 *   gets the WhatsappBroadcastCompleted notification, in the same transaction.
 * - `paused`: resumed once the month's allowance has room again (the next month, a plan change),
 *   else looked at again a minute later.
 *
 * A broadcast gone, or no longer approved, fails the campaign with the reason.
 *
 * Nobody twice, nobody left out: a recipient is claimed only from `pending`, and from the moment
 * its provider call starts until its outcome is stored nothing interrupts it. Stopping the worker
 * (interruption) lets the sends in flight finish and puts the claimed recipients not yet sent back
 * to `pending`, their allowance given back, so the next run sends each exactly once. A process
 * that dies outright can leave recipients `sending` whose provider call may or may not have gone
 * out (those in flight, and the rest of its last claim, a few milliseconds of sends); so can a
 * batch of accepted sends that failed to be stored. Each send carries a tracking string naming
 * its campaign and contact ({@link campaignTracking}), which WhatsApp hands back with every status
 * of the message (`biz_opaque_callback_data`), and a status whose message Wasl has not stored is
 * held with it. So each turn of a running or paused campaign (one worker holds a campaign at a
 * time: any recipient `sending` then was left so) first settles those recipients: one whose
 * status arrived is `sent` with that message (its statuses applied); one without any after
 * `confirmWindow` from its claim was never taken by the provider, and goes back to `pending`, its
 * allowance given back, to be sent. Until then the campaign waits for them, looked at every
 * {@link UNCONFIRMED_RECHECK}. A send whose statuses reach Wasl only after the window (its
 * receiver down that long) is made a second time: the window is how long the receiver is trusted
 * to take to hear of a message.
 */
import { Clock, DateTime, Deferred, Duration, Effect, FiberSet, Option, Queue, Result, Semaphore } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { MessageAllowanceLedger } from "../account/message-allowance-ledger.ts"
import { allowanceMonth, MESSAGE_ALLOWANCE_USED_UP } from "../account/message-allowance.ts"
import type { NotificationRepository } from "../account/notification-repository.ts"
import type { UserRepository } from "../account/user-repository.ts"
import type { SecretBox } from "../auth/secret-box.ts"
import { exportListParams } from "../exports/export-request.ts"
import type { Broadcast } from "../messaging/broadcast.ts"
import { BroadcastRepository } from "../messaging/broadcast-repository.ts"
import {
  type Campaign,
  type CampaignCounts,
  type CampaignEvent,
  type CampaignRecipient,
  NO_COUNTS,
  transitionCampaign
} from "../messaging/campaign.ts"
import { CampaignRepository, type NewRecipient, type RecipientOutcome } from "../messaging/campaign-repository.ts"
import {
  type MessageStoreServices,
  providerPlatformOf,
  recordSentMessages,
  sentMessageOf,
  UNDELIVERABLE
} from "../messaging/dispatch.ts"
import { MessageStatusHoldRepository } from "../messaging/message-status-hold-repository.ts"
import { MessagingProvider, type ProviderPlatform } from "../messaging/messaging-provider.ts"
import { contactNumberOf, digitsOf } from "../messaging/recipient.ts"
import { templateVariableCounts } from "../messaging/template.ts"
import { fillParameters } from "../messaging/template-variables.ts"
import { findBuiltinProperty } from "../records/builtin-properties.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository, type RecordWithDerived } from "../records/record-repository.ts"
import { Transactor } from "../transactor.ts"
import { type AllowanceUse, giveBackMessageAllowance, messageAllowanceOf, useMessageAllowances } from "./message-allowance.ts"
import { notifyUser } from "./notify.ts"
import { customOf } from "./record-lookup.ts"
import { NOT_APPROVED } from "./send-template.ts"

/** The default pace of a sending number: WhatsApp's 80 messages a second (`WASL_WHATSAPP_SEND_RATE`). */
export const DEFAULT_SEND_RATE = 80
/** The notification's name. */
export const BROADCAST_COMPLETED = "WhatsappBroadcastCompleted" as const

/** The reason of a recipient without a number. */
export const NO_WHATSAPP_NUMBER = "The contact has no whatsapp_number or phone."
/** The reason of a recipient who opted out. */
export const OPTED_OUT = "The contact opted out of WhatsApp messages (whatsapp_opted_out)."
/** The reason of a recipient named by id whose contact was deleted before the campaign started. */
export const CONTACT_GONE = "The contact no longer exists."
/** The reason of a campaign whose broadcast was removed (with its sending number). */
export const BROADCAST_GONE = "The campaign's broadcast no longer exists."

/** The built-in contact property that keeps a contact out of every campaign. */
export const OPTED_OUT_PROPERTY = "whatsapp_opted_out"

/** How the campaign runner works. Every field has a default. */
export interface CampaignRunOptions {
  /** Messages a second per sending number. Default {@link DEFAULT_SEND_RATE}. */
  readonly sendRate?: number | undefined
  /** Sends in flight at once. Default 1,000. */
  readonly concurrency?: number | undefined
  /** The longest round of sends one campaign gets before others take their turn. Default 5 s. */
  readonly roundLength?: Duration.Duration | undefined
  /** How long a worker holds a campaign: a worker that dies leaves it this long. Default 2 minutes. */
  readonly lease?: Duration.Duration | undefined
  /** Contacts resolved into recipients per transaction. Default 500. */
  readonly audienceBatch?: number | undefined
  /**
   * How long after its claim a recipient whose send's outcome was lost (its worker died) waits for
   * a status of its message before it is sent again. Default 15 minutes.
   */
  readonly confirmWindow?: Duration.Duration | undefined
}

/** The options with their defaults in place. */
interface CampaignRunSettings {
  readonly sendRate: number
  readonly concurrency: number
  readonly roundLength: Duration.Duration
  readonly lease: Duration.Duration
  readonly audienceBatch: number
  readonly confirmWindow: Duration.Duration
}

/** The services a campaign run needs. */
export type CampaignRunServices =
  | BroadcastRepository
  | CampaignRepository
  | MessageAllowanceLedger
  | MessageStoreServices
  | MessagingProvider
  | NotificationRepository
  | PropertyRepository
  | RecordRepository
  | SecretBox
  | SecureRandom.SecureRandom
  | Transactor
  | UserRepository

/** How long a paused campaign waits before its allowance is looked at again. */
const PAUSED_RECHECK = Duration.minutes(1)
/** How often a campaign waiting only for the statuses of sends whose outcome was lost looks for them. */
export const UNCONFIRMED_RECHECK: Duration.Duration = Duration.seconds(10)

/**
 * The tracking string of a campaign's send to a contact (WhatsApp's `biz_opaque_callback_data`):
 * how a status names the recipient whose send's outcome was lost.
 */
export const campaignTracking = (campaignId: string, contactId: string): string => `wasl-campaign:${campaignId}:${contactId}`

/** What a campaign runner offers. */
export interface CampaignRunner {
  /** Moves the campaign whose turn it is on by one step; false when none waits. */
  readonly runNext: Effect.Effect<boolean, never, CampaignRunServices>
}

/** The notification's message. */
export const campaignCompletedMessage = (campaign: Campaign, counts: CampaignCounts): string =>
  `Your campaign ${campaign.name} has finished: ${counts.sent} of ${counts.recipients} sent, ${counts.skipped} skipped, ${counts.failed} failed.`

/**
 * Applies `event` to the campaign as it is now, in the caller's transaction; answers it as stored,
 * or none when it is gone or cannot take the event (canceled meanwhile).
 */
const moveCampaign = (accountId: number, id: string, event: CampaignEvent, changes: Partial<Campaign> = {}) =>
  Effect.gen(function*() {
    const repo = yield* CampaignRepository
    const held = yield* repo.hold(accountId, id)
    if (Option.isNone(held)) return Option.none<Campaign>()
    const next = transitionCampaign({ ...held.value, ...changes }, event, yield* DateTime.now)
    if (Result.isFailure(next)) return Option.none<Campaign>()
    yield* repo.update(next.success)
    return Option.some(next.success)
  })

/** Ends the worker's turn with the campaign (as it is now): no lease, its turn now, `resumeAt` as given. */
const endTurn = (accountId: number, id: string, resumeAt: DateTime.Utc | null) =>
  Effect.gen(function*() {
    const repo = yield* CampaignRepository
    const held = yield* repo.hold(accountId, id)
    if (Option.isNone(held)) return
    yield* repo.update({ ...held.value, leaseUntil: null, turnAt: yield* DateTime.now, resumeAt })
  })

const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Transactor.use((transactor) => transactor.transaction(effect))

// ---------------------------------------------------------------------------------------------
// The audience
// ---------------------------------------------------------------------------------------------

/** A contact as a recipient of the campaign: pending with its number and variables, or skipped. */
const recipientOf = (
  campaign: Campaign,
  broadcast: Broadcast,
  custom: ReadonlyArray<PropertyDefinition>,
  contact: RecordWithDerived,
  seq: number
): NewRecipient => {
  const base = { contactId: contact.record._id, seq, parameters: null }
  const values = contact.record.values
  const number = contactNumberOf(contact)
  if (values[OPTED_OUT_PROPERTY] === true) {
    return { ...base, digits: number === undefined ? null : digitsOf(number), status: "skipped", reason: OPTED_OUT }
  }
  if (number === undefined) return { ...base, digits: null, status: "skipped", reason: NO_WHATSAPP_NUMBER }
  const counts = templateVariableCounts(broadcast.template)
  if (counts.body + counts.header === 0) return { ...base, digits: digitsOf(number), status: "pending", reason: null }
  const errors: Record<string, Array<string>> = {}
  const known = (name: string) =>
    findBuiltinProperty("contact", name) !== undefined || custom.some((p) => p.internal_name === name)
  const filled = fillParameters(counts, campaign.parameters, values, known, errors)
  if (filled === undefined) {
    return { ...base, digits: digitsOf(number), status: "skipped", reason: Object.values(errors).flat().join(" ") }
  }
  return { ...base, digits: digitsOf(number), parameters: filled, status: "pending", reason: null }
}

/**
 * Resolves the next batch of the campaign's audience and stores it with the position reached;
 * the batch that finds no more contacts starts the campaign.
 */
const resolveAudience = (campaign: Campaign, broadcast: Broadcast, batchSize: number) =>
  Effect.gen(function*() {
    const { accountId } = campaign
    const custom = yield* customOf(accountId, "contact")
    const records = yield* RecordRepository
    let contacts: ReadonlyArray<RecordWithDerived>
    let after: string | null
    let missing: ReadonlyArray<string> = []
    if (campaign.audience._tag === "Contacts") {
      const ids = campaign.audience.contactIds.slice(campaign.audienceCount, campaign.audienceCount + batchSize)
      const found = yield* Effect.forEach(ids, (id) => records.get({ accountId, kind: "contact", id, custom }))
      contacts = found.flatMap(Option.toArray)
      missing = ids.filter((_, i) => Option.isNone(found[i]!))
      after = null
    } else {
      const params = yield* exportListParams("contact", campaign.audience.query, custom)
      const batch = yield* records.scanBatch({ accountId, kind: "contact", custom, ...params }, campaign.audienceAfter, batchSize)
      contacts = batch.rows
      after = batch.after
    }
    const seq0 = campaign.audienceCount
    const written: Array<NewRecipient> = contacts.map((c, i) => recipientOf(campaign, broadcast, custom, c, seq0 + i))
    missing.forEach((contactId, i) =>
      written.push({ contactId, seq: seq0 + contacts.length + i, digits: null, parameters: null, status: "skipped", reason: CONTACT_GONE })
    )
    const done = written.length < batchSize
    yield* inTransaction(Effect.gen(function*() {
      const repo = yield* CampaignRepository
      const held = yield* repo.hold(accountId, campaign.id)
      // Canceled meanwhile, or resolved by a worker that took over: nothing to write.
      if (Option.isNone(held) || held.value.audienceResolved || held.value.audienceCount !== campaign.audienceCount) return
      if (held.value.status !== "scheduled" && held.value.status !== "queued") return
      const now = yield* DateTime.now
      yield* repo.addRecipients(accountId, campaign.id, written, now)
      const progressed: Campaign = {
        ...held.value,
        audienceAfter: after,
        audienceCount: seq0 + written.length,
        audienceResolved: done
      }
      if (!done) return yield* repo.update(progressed)
      const started = transitionCampaign(progressed, { _tag: "Start" }, now)
      yield* repo.update(Result.getOrElse(started, () => progressed))
    }))
  }).pipe(
    // A stored query no longer valid (a filter on a property deleted since) can never be resolved.
    Effect.catchTag("ValidationFailed", (invalid) =>
      inTransaction(moveCampaign(campaign.accountId, campaign.id, {
        _tag: "Fail",
        reason: `The campaign's audience is no longer valid: ${Object.values(invalid.errors).flat().join(" ")}`
      })))
  )

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

/** A recipient claimed for sending, with its message of the allowance. */
interface Claimed {
  readonly recipient: CampaignRecipient
  readonly use: AllowanceUse
}

/** A send the provider accepted, waiting for the recorder to store its message. */
interface Accepted {
  readonly claimed: Claimed
  readonly providerMessageId: string
  /** Completed once its message is stored (or its batch failed). */
  readonly stored: Deferred.Deferred<void>
}

/** Accepted sends stored per transaction. */
const RECORD_BATCH = 200
/**
 * Transactions storing accepted sends at once: each makes its messages' channel entries and marks
 * its recipients before it takes the account's contact match lock, so they overlap but for that.
 */
const RECORDERS = 3

/**
 * Stores the messages of accepted sends, each `[recipient, provider message id]`, and marks their
 * recipients `sent`, in the caller's transaction (statuses held for the messages are applied).
 */
const storeAccepted = (
  campaign: Campaign,
  broadcast: Broadcast,
  accepted: ReadonlyArray<readonly [CampaignRecipient, string]>
) =>
  Effect.gen(function*() {
    const messages = yield* Effect.forEach(accepted, ([recipient, providerMessageId]) => {
      const digits = recipient.digits!
      const to = { contactId: recipient.contactId, number: digits, digits }
      return sentMessageOf(broadcast, to, providerMessageId, false, recipient.parameters ?? undefined)
    })
    const repo = yield* CampaignRepository
    const sent = messages.map((m) => ({ contactId: m.contact_id, messageId: m._id }))
    yield* repo.markSent(campaign.accountId, campaign.id, sent, yield* DateTime.now)
    // Last: the account's contact match lock is held from here to the commit.
    yield* recordSentMessages(messages)
  })

/**
 * Settles the recipients a worker left `sending` (see the module comment): `sent` with the message
 * a held status names, or back to `pending` once `window` from its claim passed without one.
 * Answers how many still wait, and when the first of them is due back.
 */
const settleUnconfirmed = (campaign: Campaign, broadcast: Broadcast, window: Duration.Duration) =>
  Effect.gen(function*() {
    const { accountId, id } = campaign
    const left = yield* CampaignRepository.use((repo) => repo.sending(accountId, id))
    if (left.length === 0) return { waiting: 0, dueAt: Option.none<DateTime.Utc>() }
    const trackingOf = (r: CampaignRecipient) => campaignTracking(id, r.contactId)
    const found = yield* MessageStatusHoldRepository.use((holds) => holds.findTracked(accountId, left.map(trackingOf)))
    const confirmed = left.flatMap((r) => {
      const providerMessageId = found.get(trackingOf(r))
      return providerMessageId === undefined ? [] : [[r, providerMessageId] as const]
    })
    if (confirmed.length > 0) yield* inTransaction(storeAccepted(campaign, broadcast, confirmed))
    const now = yield* DateTime.now
    const unanswered = left.filter((r) => !found.has(trackingOf(r)))
    const dueOf = (r: CampaignRecipient) => DateTime.addDuration(r.updatedAt, window)
    const lost = unanswered.filter((r) => DateTime.isLessThanOrEqualTo(dueOf(r), now))
    if (lost.length > 0) {
      yield* inTransaction(Effect.forEach(
        lost,
        (recipient) => settle({ recipient, use: { accountId, month: allowanceMonth(recipient.updatedAt) } }, { _tag: "Pending" }),
        { discard: true }
      ))
    }
    const due = unanswered.map(dueOf).filter((at) => DateTime.isGreaterThan(at, now))
    return { waiting: due.length, dueAt: due.length === 0 ? Option.none() : Option.some(due.reduce((a, b) => DateTime.min(a, b))) }
  })

/** Stores a claimed recipient's outcome; its allowance goes back unless it was sent. */
const settle = (claimed: Claimed, outcome: RecipientOutcome) =>
  Effect.gen(function*() {
    const { recipient } = claimed
    const repo = yield* CampaignRepository
    yield* repo.settleRecipient(recipient.accountId, recipient.campaignId, recipient.contactId, outcome, yield* DateTime.now)
    if (outcome._tag !== "Sent") yield* giveBackMessageAllowance(claimed.use)
  })

/**
 * Claims up to `limit` pending recipients, each with its message of the allowance, in one
 * transaction; pauses the campaign when the allowance runs out (those claimed without one go
 * back). None when the campaign is no longer running.
 */
const claimBatch = (campaign: Campaign, limit: number, fromSeq: number) =>
  inTransaction(Effect.gen(function*() {
    const repo = yield* CampaignRepository
    const held = yield* repo.hold(campaign.accountId, campaign.id)
    if (Option.isNone(held) || held.value.status !== "running") return { claimed: [], paused: false, stopped: true }
    const now = yield* DateTime.now
    const recipients = yield* repo.claimRecipients(campaign.accountId, campaign.id, limit, now, fromSeq)
    if (recipients.length === 0) return { claimed: [], paused: false, stopped: false }
    const { granted, use } = yield* useMessageAllowances(campaign.accountId, recipients.length)
    const claimed = recipients.slice(0, granted).map((recipient): Claimed => ({ recipient, use }))
    if (granted === recipients.length) return { claimed, paused: false, stopped: false }
    for (const back of recipients.slice(granted)) {
      yield* repo.settleRecipient(back.accountId, back.campaignId, back.contactId, { _tag: "Pending" }, now)
    }
    yield* moveCampaign(campaign.accountId, campaign.id, { _tag: "Pause", reason: MESSAGE_ALLOWANCE_USED_UP })
    return { claimed, paused: true, stopped: false }
  }))

/**
 * How many milliseconds of sends one claim takes at the number's pace. A worker that dies leaves
 * its claimed recipients `sending`, and those whose call had not even started wait out the
 * confirm window before they are sent: the shorter the claim, the fewer of them. 20 ms is 20
 * recipients a claim at 1,000 a second, one or two at WhatsApp's 80.
 */
const CLAIM_AHEAD_MILLIS = 20

/** The pace of each sending number: the next instant (ms) a send may start, by platform id. */
type Pace = Map<number, number>

/**
 * How far behind its schedule a number's sends may catch up at once, in ms: a timer that fires
 * late, or a claim that took a while, is made up for by sending the slots missed (at most this
 * long's worth) straight away, so the average stays at the pace.
 */
const CATCH_UP_MILLIS = 200

/**
 * Waits for the sending number's next slot: slots come `1000 / rate` ms apart, from where the
 * schedule is (never more than {@link CATCH_UP_MILLIS} behind now).
 */
const waitForSlot = (pace: Pace, platformId: number, rate: number) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const slot = Math.max(now - CATCH_UP_MILLIS, pace.get(platformId) ?? now)
    pace.set(platformId, slot + 1000 / rate)
    if (slot > now) yield* Effect.sleep(Duration.millis(slot - now))
  })

/** A round of sends of a running campaign (see the module comment); answers when the provider asks to wait. */
const sendRound = (
  campaign: Campaign,
  broadcast: Broadcast,
  pace: Pace,
  options: { readonly rate: number; readonly concurrency: number; readonly roundMillis: number }
) =>
  Effect.gen(function*() {
    const platform: ProviderPlatform = yield* providerPlatformOf(broadcast.platform)
    const provider = yield* MessagingProvider
    const inFlight = yield* Semaphore.make(options.concurrency)
    const fibers = yield* FiberSet.make<void>()
    const deadline = (yield* Clock.currentTimeMillis) + options.roundMillis
    // Claimed but not yet handed to the provider: given back if the round is interrupted.
    const waiting: Array<Claimed> = []
    let retryAfter: number | undefined

    const sendOne = (claimed: Claimed) =>
      Effect.gen(function*() {
        const { recipient } = claimed
        const parameters = recipient.parameters ?? undefined
        const outcome = yield* provider.send({
          platform,
          to: recipient.digits!,
          template: { name: broadcast.template.name, language: broadcast.language, category: broadcast.template.category },
          ...(parameters === undefined ? {} : { parameters }),
          tracking: campaignTracking(campaign.id, recipient.contactId)
        })
        switch (outcome._tag) {
          case "Accepted": {
            const stored = yield* Deferred.make<void>()
            yield* Queue.offer(accepted, { claimed, providerMessageId: outcome.messageId, stored })
            return yield* Deferred.await(stored)
          }
          case "Rejected":
            return yield* inTransaction(settle(claimed, { _tag: "Failed", reason: UNDELIVERABLE }))
          case "Unavailable":
            retryAfter = Math.max(retryAfter ?? 0, outcome.retryAfterSeconds)
            return yield* inTransaction(settle(claimed, { _tag: "Pending" }))
        }
      })

    // Accepted sends are stored by one recorder, many to a transaction: one commit (and one turn
    // of the account's contact match lock) for a batch rather than for each message.
    const accepted = yield* Queue.unbounded<Accepted>()
    const record = Effect.gen(function*() {
      const batch = yield* Queue.takeBetween(accepted, 1, RECORD_BATCH)
      const exit = yield* Effect.exit(
        inTransaction(storeAccepted(campaign, broadcast, batch.map((item) => [item.claimed.recipient, item.providerMessageId])))
      )
      yield* Effect.forEach(batch, (item) => Deferred.done(item.stored, exit), { discard: true })
    })
    const recorders = yield* FiberSet.make<never>()
    for (let i = 0; i < RECORDERS; i++) yield* FiberSet.run(recorders, Effect.forever(record))

    const putBack = Effect.suspend(() => {
      const back = waiting.splice(0)
      return back.length === 0 ? Effect.void : inTransaction(Effect.forEach(back, (c) => settle(c, { _tag: "Pending" }), { discard: true }))
    })

    const claimLoop = Effect.gen(function*() {
      // Within a round every recipient before `fromSeq` is claimed already: one that goes back to
      // pending (throttling, the allowance) ends the round, and the next starts from the first.
      let fromSeq = 0
      while (retryAfter === undefined && (yield* Clock.currentTimeMillis) < deadline) {
        const batchSize = Math.max(1, Math.min(options.concurrency, Math.ceil((options.rate * CLAIM_AHEAD_MILLIS) / 1000)))
        // A claim committed is in `waiting` before anything interrupts the round, so it goes back.
        const batch = yield* Effect.uninterruptible(
          Effect.tap(claimBatch(campaign, batchSize, fromSeq), (claimed) => Effect.sync(() => waiting.push(...claimed.claimed)))
        )
        fromSeq = batch.claimed.reduce((next, c) => Math.max(next, c.recipient.seq + 1), fromSeq)
        while (waiting.length > 0 && retryAfter === undefined) {
          yield* inFlight.take(1)
          yield* waitForSlot(pace, broadcast.platform.id, options.rate)
          const next = waiting.shift()!
          // From here the send runs to its stored outcome, whatever interrupts the worker.
          yield* FiberSet.run(fibers, Effect.uninterruptible(Effect.ensuring(sendOne(next), inFlight.release(1))))
        }
        yield* putBack
        if (batch.stopped || batch.paused || batch.claimed.length < batchSize) break
      }
      yield* FiberSet.awaitEmpty(fibers)
    })

    yield* claimLoop.pipe(Effect.onInterrupt(() => Effect.andThen(putBack, FiberSet.awaitEmpty(fibers))))
    return retryAfter
  }).pipe(Effect.scoped)

/**
 * Completes the campaign when no recipient is pending or sending, telling its creator; answers how
 * many are.
 */
const completeIfDone = (campaign: Campaign) =>
  inTransaction(Effect.gen(function*() {
    const repo = yield* CampaignRepository
    const unsettled = yield* repo.unsettled(campaign.accountId, campaign.id)
    if (unsettled > 0) return unsettled
    const done = yield* moveCampaign(campaign.accountId, campaign.id, { _tag: "Complete" })
    if (Option.isNone(done)) return 0
    const counts = (yield* repo.counts(campaign.accountId, [campaign.id])).get(campaign.id) ?? NO_COUNTS
    const message = campaignCompletedMessage(done.value, counts)
    yield* notifyUser(campaign.accountId, campaign.userId, {
      type: BROADCAST_COMPLETED,
      data: { campaign_id: campaign.id, broadcast_id: campaign.broadcastId, name: campaign.name, counts, message },
      mail: { subject: `Your campaign ${campaign.name} has finished`, text: message }
    })
    return 0
  }))

/** One step of a claimed campaign (see the module comment); answers when to take it again. */
const step = (campaign: Campaign, pace: Pace, options: CampaignRunSettings) =>
  Effect.gen(function*() {
    const { accountId, id } = campaign
    const broadcast = yield* BroadcastRepository.use((repo) => repo.findById(accountId, campaign.broadcastId))
    if (Option.isNone(broadcast) || broadcast.value.status !== "APPROVED") {
      const reason = Option.isNone(broadcast) ? BROADCAST_GONE : NOT_APPROVED
      yield* inTransaction(moveCampaign(accountId, id, { _tag: "Fail", reason }))
      return null
    }
    switch (campaign.status) {
      case "scheduled":
      case "queued":
        yield* resolveAudience(campaign, broadcast.value, options.audienceBatch)
        return null
      case "paused": {
        yield* settleUnconfirmed(campaign, broadcast.value, options.confirmWindow)
        const allowance = yield* messageAllowanceOf(accountId)
        if (allowance.used >= allowance.limit) return DateTime.addDuration(yield* DateTime.now, PAUSED_RECHECK)
        yield* inTransaction(moveCampaign(accountId, id, { _tag: "Resume" }))
        return null
      }
      case "running": {
        const unconfirmed = yield* settleUnconfirmed(campaign, broadcast.value, options.confirmWindow)
        const retryAfter = yield* sendRound(campaign, broadcast.value, pace, {
          rate: options.sendRate,
          concurrency: options.concurrency,
          roundMillis: Duration.toMillis(options.roundLength)
        })
        const now = yield* DateTime.now
        if (retryAfter !== undefined) return DateTime.add(now, { seconds: Math.max(1, retryAfter) })
        const unsettled = yield* completeIfDone(campaign)
        // Only recipients waiting for their statuses are left: look again when one is due, or sooner.
        if (unsettled === 0 || unsettled > unconfirmed.waiting) return null
        const recheck = DateTime.addDuration(now, UNCONFIRMED_RECHECK)
        return Option.match(unconfirmed.dueAt, { onNone: () => recheck, onSome: (due) => DateTime.min(due, recheck) })
      }
      default:
        return null
    }
  })

/**
 * A campaign runner: its `runNext` moves the campaign whose turn it is on by one step (see the
 * module comment). The runner keeps each sending number's pace across steps and campaigns, so
 * make one for each worker. A failure of the database is a defect: the step's transaction is
 * rolled back and the campaign taken again once its lease runs out.
 */
export const makeCampaignRunner = (options: CampaignRunOptions = {}): CampaignRunner => {
  const settings: CampaignRunSettings = {
    sendRate: Math.max(0.001, options.sendRate ?? DEFAULT_SEND_RATE),
    concurrency: Math.max(1, Math.floor(options.concurrency ?? 1_000)),
    roundLength: options.roundLength ?? Duration.seconds(5),
    lease: options.lease ?? Duration.minutes(2),
    audienceBatch: Math.max(1, Math.floor(options.audienceBatch ?? 500)),
    confirmWindow: options.confirmWindow ?? Duration.minutes(15)
  }
  const pace: Pace = new Map()
  const runNext = Effect.gen(function*() {
    const now = yield* DateTime.now
    const claimed = yield* CampaignRepository.use((repo) => repo.claimDue(now, DateTime.addDuration(now, settings.lease)))
    if (Option.isNone(claimed)) return false
    const campaign = claimed.value
    const resumeAt = yield* step(campaign, pace, settings).pipe(
      Effect.onInterrupt(() => inTransaction(endTurn(campaign.accountId, campaign.id, null)))
    )
    yield* inTransaction(endTurn(campaign.accountId, campaign.id, resumeAt))
    return true
  })
  return { runNext }
}
