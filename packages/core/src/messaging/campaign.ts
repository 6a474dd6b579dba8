/**
 * Campaigns: one broadcast sent to many contacts of the account, at the sending number's pace.
 *
 * A campaign is asked for with its audience (a list of contact ids, or the contacts list query of
 * `GET /api/contacts`) and is `scheduled` (a `scheduled_at` still to come) or `queued`. When it
 * starts, the worker resolves the audience into its recipients (one per contact: `pending`, or
 * `skipped` with the reason) and the campaign is `running`; each recipient is then sent once.
 * With the month's message allowance used up it is `paused` (with the reason) and goes on when
 * allowance comes back; it ends `completed` once no recipient waits, `canceled` when asked, or
 * `failed` when it can no longer be sent (its broadcast gone or no longer approved).
 *
 * Its counts are those of its recipients and their messages (each message's own status, moved by
 * the provider's status reports), so they are always what the recipients' list shows.
 *
 * The lifecycle is data plus pure transitions (`transitionCampaign`): the use-cases load the
 * campaign, transition it and store it.
 */
import { DateTime, Result, Schema } from "effect"
import type { Cause } from "effect"
import { WireTimestamp } from "../wire/timestamp.ts"
import type { ParameterSources } from "./template-variables.ts"

/** The states of a campaign. */
export const CAMPAIGN_STATUSES = ["scheduled", "queued", "running", "paused", "completed", "canceled", "failed"] as const
/** One of {@link CAMPAIGN_STATUSES}. */
export type CampaignStatus = typeof CAMPAIGN_STATUSES[number]
/** The states a campaign ends in: nothing moves it any more. */
export const CAMPAIGN_ENDED: ReadonlyArray<CampaignStatus> = ["completed", "canceled", "failed"]
/** Whether a campaign in `status` has ended. */
export const campaignEnded = (status: CampaignStatus): boolean => CAMPAIGN_ENDED.includes(status)

/**
 * Who a campaign goes to: the contacts named (`Contacts`), or those the contacts list query
 * matches when the campaign starts (`Query`: its query-string names and texts, as an export keeps
 * them).
 */
export type CampaignAudience =
  | { readonly _tag: "Contacts"; readonly contactIds: ReadonlyArray<string> }
  | { readonly _tag: "Query"; readonly query: Readonly<Record<string, string>> }

/** A campaign as stored. */
export interface Campaign {
  /** The account it belongs to. */
  readonly accountId: number
  /** Its id (a record id). */
  readonly id: string
  /** Its name. */
  readonly name: string
  /** The broadcast it sends. */
  readonly broadcastId: number
  /** The member who asked for it, told when it ends. */
  readonly userId: number
  /** Who it goes to. */
  readonly audience: CampaignAudience
  /** The values of the template's variables, as given (texts, or properties of each recipient). */
  readonly parameters: ParameterSources
  /** Where it is. */
  readonly status: CampaignStatus
  /** Why it is paused or failed; null otherwise. */
  readonly reason: string | null
  /**
   * How far the audience is resolved into recipients: the position after the last contact
   * written (opaque; null before the first batch). Stored with each batch of recipients, so a
   * worker that stops mid-way resumes after it.
   */
  readonly audienceAfter: string | null
  /** How many recipients are written so far (the next one's place in the audience). */
  readonly audienceCount: number
  /** Whether every recipient is written (the campaign then sends). */
  readonly audienceResolved: boolean
  /** When the worker may take it again: after a throttling answer of the provider; null: at once. */
  readonly resumeAt: DateTime.Utc | null
  /** Until when a worker holds it; past that another may take it (the holder stopped). */
  readonly leaseUntil: DateTime.Utc | null
  /** When its last turn with a worker ended: the waiting campaign whose turn is oldest goes next. */
  readonly turnAt: DateTime.Utc
  /** When it is to start; null: at once. */
  readonly scheduledAt: DateTime.Utc | null
  /** When it started sending. */
  readonly startedAt: DateTime.Utc | null
  /** When it ended. */
  readonly completedAt: DateTime.Utc | null
  /** When it was asked for. */
  readonly createdAt: DateTime.Utc
  /** When its status last changed. */
  readonly updatedAt: DateTime.Utc
}

/** What a recipient's send came to. */
export const RECIPIENT_STATUSES = ["pending", "sending", "sent", "skipped", "failed"] as const
/** One of {@link RECIPIENT_STATUSES}. */
export type RecipientStatus = typeof RECIPIENT_STATUSES[number]

/** One contact of a campaign's audience. */
export interface CampaignRecipient {
  /** The account. */
  readonly accountId: number
  /** The campaign. */
  readonly campaignId: string
  /** The contact. */
  readonly contactId: string
  /** Its place in the audience, from 0: the order recipients are sent and listed in. */
  readonly seq: number
  /** The number it is sent to (digits only); null for a skipped one without a number. */
  readonly digits: string | null
  /** The template's variables filled for this contact (texts), when the template has any. */
  readonly parameters: { readonly body: ReadonlyArray<string>; readonly header: ReadonlyArray<string> } | null
  /** Where it is. */
  readonly status: RecipientStatus
  /** Its message, once sent. */
  readonly messageId: string | null
  /** The message's own status (sent, delivered, read, failed), once sent. */
  readonly messageStatus: string | null
  /** Why it was skipped or failed. */
  readonly reason: string | null
  /** When it last changed. */
  readonly updatedAt: DateTime.Utc
}

/** A campaign's counts: its recipients, and how many of them were sent, delivered, read, failed or skipped. */
export interface CampaignCounts {
  /** Recipients resolved (skipped ones included). */
  readonly recipients: number
  /** Recipients whose message the provider accepted. */
  readonly sent: number
  /** Of those, messages delivered (or read). */
  readonly delivered: number
  /** Of those, messages read. */
  readonly read: number
  /** Recipients the provider refused, and messages that failed afterwards. */
  readonly failed: number
  /** Recipients left out: no WhatsApp number, opted out, or a variable's property empty. */
  readonly skipped: number
}

/** The counts of a campaign with no recipient yet. */
export const NO_COUNTS: CampaignCounts = { recipients: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 }

/** The counts of a campaign from its recipients (each with its message's status). */
export const countRecipients = (
  recipients: ReadonlyArray<Pick<CampaignRecipient, "status" | "messageStatus">>
): CampaignCounts => {
  let sent = 0, delivered = 0, read = 0, failed = 0, skipped = 0
  for (const r of recipients) {
    if (r.status === "skipped") skipped++
    else if (r.status === "failed") failed++
    else if (r.status === "sent") {
      sent++
      if (r.messageStatus === "delivered" || r.messageStatus === "read") delivered++
      if (r.messageStatus === "read") read++
      if (r.messageStatus === "failed") failed++
    }
  }
  return { recipients: recipients.length, sent, delivered, read, failed, skipped }
}

// ---------------------------------------------------------------------------------------------
// Transitions
// ---------------------------------------------------------------------------------------------

/** What moves a campaign. */
export type CampaignEvent =
  | { readonly _tag: "Start" }
  | { readonly _tag: "Pause"; readonly reason: string }
  | { readonly _tag: "Resume" }
  | { readonly _tag: "Complete" }
  | { readonly _tag: "Cancel" }
  | { readonly _tag: "Fail"; readonly reason: string }

/** The part of a campaign its transitions change. */
export type CampaignState = Pick<Campaign, "status" | "reason" | "scheduledAt" | "startedAt" | "completedAt" | "updatedAt">

const CampaignTransitionRefusedBase: Schema.Class<
  CampaignTransitionRefused,
  Schema.TaggedStruct<"CampaignTransitionRefused", {
    readonly status: Schema.Literals<typeof CAMPAIGN_STATUSES>
    readonly event: Schema.String
  }>,
  Cause.YieldableError
> = Schema.TaggedError<CampaignTransitionRefused>()("CampaignTransitionRefused", {
  status: Schema.Literals(CAMPAIGN_STATUSES),
  event: Schema.String
})

/** An event a campaign in `status` cannot take (nothing changes). */
export class CampaignTransitionRefused extends CampaignTransitionRefusedBase {
  /** Says which event and where the campaign is. */
  override get message(): string {
    return `A ${this.status} campaign cannot take ${this.event}.`
  }
}

/** The status a new campaign starts in: `scheduled` for a `scheduledAt` after `now`, else `queued`. */
export const initialCampaignStatus = (scheduledAt: DateTime.Utc | null, now: DateTime.Utc): CampaignStatus =>
  scheduledAt !== null && DateTime.isGreaterThan(scheduledAt, now) ? "scheduled" : "queued"

/** What a new campaign is asked with: whose, what, to whom, when. */
export type NewCampaign = Pick<
  Campaign,
  "accountId" | "id" | "name" | "broadcastId" | "userId" | "audience" | "parameters" | "scheduledAt" | "createdAt"
>

/** A new campaign as stored: scheduled or queued, no recipient yet, never run. */
export const newCampaign = (asked: NewCampaign): Campaign => ({
  ...asked,
  status: initialCampaignStatus(asked.scheduledAt, asked.createdAt),
  reason: null,
  audienceAfter: null,
  audienceCount: 0,
  audienceResolved: false,
  resumeAt: null,
  leaseUntil: null,
  turnAt: asked.createdAt,
  startedAt: null,
  completedAt: null,
  updatedAt: asked.createdAt
})

/**
 * The campaign after `event` at `now`:
 * - Start: `queued`, or `scheduled` once `scheduledAt` has come → `running`, `startedAt` now;
 * - Pause (with its reason): `running` → `paused`;
 * - Resume: `paused` → `running`, no reason;
 * - Complete: `running` → `completed`, `completedAt` now;
 * - Cancel: any campaign not ended → `canceled`, `completedAt` now;
 * - Fail (with its reason): any campaign not ended → `failed`, `completedAt` now.
 *
 * Every change sets `updatedAt`. Any other event fails {@link CampaignTransitionRefused}; an ended
 * campaign takes none.
 */
export const transitionCampaign = <S extends CampaignState>(
  state: S,
  event: CampaignEvent,
  now: DateTime.Utc
): Result.Result<S, CampaignTransitionRefused> => {
  const refuse = () => Result.fail(new CampaignTransitionRefused({ status: state.status, event: event._tag }))
  const to = (changes: Partial<CampaignState>) => Result.succeed({ ...state, ...changes, updatedAt: now })
  switch (event._tag) {
    case "Start":
      if (state.status === "queued") return to({ status: "running", reason: null, startedAt: now })
      if (state.status === "scheduled" && state.scheduledAt !== null && !DateTime.isLessThan(now, state.scheduledAt)) {
        return to({ status: "running", reason: null, startedAt: now })
      }
      return refuse()
    case "Pause":
      return state.status === "running" ? to({ status: "paused", reason: event.reason }) : refuse()
    case "Resume":
      return state.status === "paused" ? to({ status: "running", reason: null }) : refuse()
    case "Complete":
      return state.status === "running" ? to({ status: "completed", reason: null, completedAt: now }) : refuse()
    case "Cancel":
      return campaignEnded(state.status) ? refuse() : to({ status: "canceled", completedAt: now })
    case "Fail":
      return campaignEnded(state.status) ? refuse() : to({ status: "failed", reason: event.reason, completedAt: now })
  }
}

// ---------------------------------------------------------------------------------------------
// Wire shapes
// ---------------------------------------------------------------------------------------------

/** A campaign's counts as the API shows them. */
export const CampaignCountsJson: Schema.Struct<{
  readonly recipients: Schema.Int
  readonly sent: Schema.Int
  readonly delivered: Schema.Int
  readonly read: Schema.Int
  readonly failed: Schema.Int
  readonly skipped: Schema.Int
}> = Schema.Struct({
  recipients: Schema.Int.annotate({ description: "contacts of the audience, skipped ones included (0 until the campaign starts)" }),
  sent: Schema.Int.annotate({ description: "messages the provider accepted" }),
  delivered: Schema.Int.annotate({ description: "of those, delivered to the phone (read ones included)" }),
  read: Schema.Int.annotate({ description: "of those, read" }),
  failed: Schema.Int.annotate({ description: "refused by the provider, or failed after it accepted them" }),
  skipped: Schema.Int.annotate({
    description: "left out: no whatsapp_number or phone, whatsapp_opted_out, or a variable's property empty on the contact"
  })
}).annotate({ identifier: "CampaignCounts" })

/** A campaign as the API shows it. */
export const CampaignJson: Schema.Struct<{
  readonly _id: Schema.String
  readonly account_id: Schema.Int
  readonly name: Schema.String
  readonly broadcast_id: Schema.Int
  readonly user_id: Schema.Int
  readonly status: Schema.Literals<typeof CAMPAIGN_STATUSES>
  readonly reason: Schema.NullOr<Schema.String>
  readonly counts: typeof CampaignCountsJson
  readonly scheduled_at: Schema.NullOr<typeof WireTimestamp>
  readonly started_at: Schema.NullOr<typeof WireTimestamp>
  readonly completed_at: Schema.NullOr<typeof WireTimestamp>
  readonly created_at: typeof WireTimestamp
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct({
  _id: Schema.String,
  account_id: Schema.Int,
  name: Schema.String,
  broadcast_id: Schema.Int,
  user_id: Schema.Int.annotate({ description: "the member who asked for it; told when it ends" }),
  status: Schema.Literals(CAMPAIGN_STATUSES).annotate({
    description: "scheduled (waits for scheduled_at), queued, running, paused (see reason), completed, canceled or failed"
  }),
  reason: Schema.NullOr(Schema.String).annotate({ description: "why it is paused or failed" }),
  counts: CampaignCountsJson,
  scheduled_at: Schema.NullOr(WireTimestamp),
  started_at: Schema.NullOr(WireTimestamp),
  completed_at: Schema.NullOr(WireTimestamp),
  created_at: WireTimestamp,
  updated_at: WireTimestamp
}).annotate({ identifier: "Campaign" })
/** A campaign as the API shows it. */
export type CampaignJson = typeof CampaignJson.Type

/** The campaign as the API shows it, with its counts. */
export const campaignJson = (campaign: Campaign, counts: CampaignCounts): CampaignJson => ({
  _id: campaign.id,
  account_id: campaign.accountId,
  name: campaign.name,
  broadcast_id: campaign.broadcastId,
  user_id: campaign.userId,
  status: campaign.status,
  reason: campaign.reason,
  counts,
  scheduled_at: campaign.scheduledAt,
  started_at: campaign.startedAt,
  completed_at: campaign.completedAt,
  created_at: campaign.createdAt,
  updated_at: campaign.updatedAt
})

/** A recipient as the API shows it. */
export const CampaignRecipientJson: Schema.Struct<{
  readonly contact_id: Schema.String
  readonly message_id: Schema.NullOr<Schema.String>
  readonly status: Schema.String
  readonly reason: Schema.NullOr<Schema.String>
  readonly updated_at: typeof WireTimestamp
}> = Schema.Struct({
  contact_id: Schema.String,
  message_id: Schema.NullOr(Schema.String).annotate({ description: "its message, once the provider accepted it" }),
  status: Schema.String.annotate({
    description:
      "pending, sending, skipped or failed (see reason); once sent, its message's status: sent, delivered, read or failed"
  }),
  reason: Schema.NullOr(Schema.String),
  updated_at: WireTimestamp
}).annotate({ identifier: "CampaignRecipient" })
/** A recipient as the API shows it. */
export type CampaignRecipientJson = typeof CampaignRecipientJson.Type

/** The recipient as the API shows it: a sent one by its message's status. */
export const campaignRecipientJson = (recipient: CampaignRecipient): CampaignRecipientJson => ({
  contact_id: recipient.contactId,
  message_id: recipient.messageId,
  status: recipient.status === "sent" ? recipient.messageStatus ?? "sent" : recipient.status,
  reason: recipient.reason,
  updated_at: recipient.updatedAt
})
