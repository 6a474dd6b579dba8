/**
 * Meta's review of a broadcast's template: the port that submits a template to the WhatsApp
 * Business Account of its sending number and reads back the account's templates with their
 * review, and the pure rules that turn what Meta reports (a webhook's event, a listed status, a
 * new category) into the broadcast's `status`, `reason` and template category.
 *
 * Adapters: the WhatsApp Cloud API (`POST` and `GET /{waba_id}/message_templates`) and a memory
 * one for tests. Sandbox numbers are never submitted: their broadcasts are APPROVED at once.
 */
import { Context, type Effect } from "effect"
import type { Broadcast, BroadcastStatus } from "./broadcast.ts"
import type { ProviderRejected, ProviderUnavailable } from "./messaging-provider.ts"
import { TEMPLATE_CATEGORIES, type TemplateCategory, type TemplateDefinition } from "./template.ts"
import type { TemplateExamples } from "./template-variables.ts"

/** The WhatsApp Business Account a template is submitted to, with the sending number's opened token. */
export interface ReviewAccount {
  /** The WhatsApp Business Account id (the platform's `waba_id`). */
  readonly wabaId: string
  /** The opened access token. */
  readonly accessToken: string
}

/** A template to submit: its name, language, definition and sample values of its variables. */
export interface TemplateSubmission {
  /** Its name. */
  readonly name: string
  /** Its language code. */
  readonly language: string
  /** Its category, header, body, footer and buttons. */
  readonly template: TemplateDefinition
  /** One sample text per variable, and a media header's sample. */
  readonly examples: TemplateExamples
}

/** Meta took the template for review. */
export interface TemplateSubmitted {
  /** Submitted. */
  readonly _tag: "Submitted"
  /** Meta's id of the template. */
  readonly externalId: string
  /** Its review status as Meta answered (usually PENDING). */
  readonly status: BroadcastStatus
  /** Its category as Meta answered (Meta may change it). */
  readonly category: TemplateCategory
}

/** Meta refused the submission: `message` is Meta's, meant for the template's author. */
export interface TemplateRefused {
  /** Refused. */
  readonly _tag: "Refused"
  /** Meta's explanation (never holding the token). */
  readonly message: string
}

/** How a submission ended: taken for review, refused, or not possible now. */
export type SubmitOutcome = TemplateSubmitted | TemplateRefused | ProviderUnavailable

/** One template of the WhatsApp Business Account, as Meta lists it. */
export interface ReviewedTemplate {
  /** Meta's id of the template. */
  readonly externalId: string
  /** Its review status as Meta names it (`APPROVED`, `REJECTED`, `PAUSED`, ...). */
  readonly status: string
  /** Its category as Meta names it. */
  readonly category: string
  /** Why it was rejected, when it was. */
  readonly reason: string | null
}

/** The account's templates as Meta lists them. */
export interface TemplatesListed {
  /** Listed. */
  readonly _tag: "Listed"
  /** Every template of the account. */
  readonly templates: ReadonlyArray<ReviewedTemplate>
}

/** How a listing ended: the templates, refused for good, or not possible now. */
export type ListOutcome = TemplatesListed | ProviderRejected | ProviderUnavailable

/** What the TemplateReview port offers (implement this to write an adapter). */
export interface TemplateReviewShape {
  /** Submits the template to the account's review. Never fails: every answer is an outcome. */
  readonly submit: (account: ReviewAccount, submission: TemplateSubmission) => Effect.Effect<SubmitOutcome>
  /** Every template of the account with its review. Never fails. */
  readonly list: (account: ReviewAccount) => Effect.Effect<ListOutcome>
}

const TemplateReviewBase: Context.ServiceClass<TemplateReview, "@wasl/core/TemplateReview", TemplateReviewShape> = Context
  .Service<TemplateReview, TemplateReviewShape>()("@wasl/core/TemplateReview")

/** Meta's review of templates: submission, and the account's templates with their statuses. */
export class TemplateReview extends TemplateReviewBase {}

/**
 * The broadcast status a review event or listed status of Meta's means: the statuses by their
 * name, REINSTATED (sendable again) as APPROVED; undefined for the events that do not change
 * whether it can be sent (ARCHIVED, LOCKED, IN_APPEAL, ...).
 */
export const reviewStatusOf = (event: string): BroadcastStatus | undefined => {
  switch (event) {
    case "APPROVED":
    case "REINSTATED":
      return "APPROVED"
    case "PENDING":
    case "REJECTED":
    case "PAUSED":
    case "DISABLED":
    case "PENDING_DELETION":
    case "FLAGGED":
      return event
    default:
      return undefined
  }
}

/** The template category Meta names, if Wasl has it. */
export const templateCategoryOf = (category: string): TemplateCategory | undefined =>
  TEMPLATE_CATEGORIES.find((c) => c === category.toUpperCase())

/** What Meta says of a template now: a review status and its reason, a category, or both. */
export interface ObservedReview {
  /** The review status, when this says one. */
  readonly status?: BroadcastStatus | undefined
  /** Its reason (Meta's `NONE` already read as none). */
  readonly reason?: string | null | undefined
  /** The category, when this says one. */
  readonly category?: TemplateCategory | undefined
}

/** The change a review makes to a broadcast; only the fields that differ. */
export interface ReviewPatch {
  /** The new status. */
  readonly status?: BroadcastStatus
  /** The new reason (null for none). */
  readonly reason?: string | null
  /** The template's new category. */
  readonly category?: TemplateCategory
}

/**
 * What `observed` changes on `broadcast`, or null when nothing: a new status brings its reason
 * (none unless REJECTED, PAUSED, DISABLED or FLAGGED say one), a new category the category.
 * Applying a review twice changes nothing the second time.
 */
export const reviewPatch = (broadcast: Broadcast, observed: ObservedReview): ReviewPatch | null => {
  const patch: { status?: BroadcastStatus; reason?: string | null; category?: TemplateCategory } = {}
  if (observed.status !== undefined) {
    const reason = observed.status === "APPROVED" || observed.status === "PENDING" ? null : observed.reason ?? null
    if (observed.status !== broadcast.status) patch.status = observed.status
    if (reason !== broadcast.reason) patch.reason = reason
  }
  if (observed.category !== undefined && observed.category !== broadcast.template.category) patch.category = observed.category
  return Object.keys(patch).length === 0 ? null : patch
}

/** Meta's reason as a broadcast keeps it: none for Meta's `NONE` or an empty one. */
export const reasonOf = (reason: string | null | undefined): string | null =>
  reason === undefined || reason === null || reason.trim() === "" || reason === "NONE" ? null : reason
