/**
 * Following Meta's review of the broadcasts' templates: the submission of a new broadcast's
 * template (whatsapp_cloud numbers; the sandbox approves at once), the review changes Meta's
 * webhook reports, and the re-reading of every submitted template's review from Meta
 * (`POST /api/broadcasts/sync` and the worker's periodic sync), so a missed webhook heals.
 *
 * A change is applied once: the store changes the broadcast only where it differs (of two equal
 * reports, concurrent or repeated, one changes it), and each change tells the account's members
 * holding `broadcast-manage` through their WhatsappTemplateStatusChanged or
 * WhatsappTemplateCategoryChanged preference, in the transaction of the change.
 */
import { Effect, Option } from "effect"
import { NotificationRepository } from "../account/notification-repository.ts"
import type { NotificationName } from "../account/user.ts"
import type { Principal } from "../auth/principal.ts"
import { SecretBox } from "../auth/secret-box.ts"
import { type Forbidden, invalid, ServiceUnavailable, type ValidationFailed } from "../errors.ts"
import type { Broadcast, BroadcastInput, BroadcastReview } from "../messaging/broadcast.ts"
import { BroadcastRepository } from "../messaging/broadcast-repository.ts"
import type { Platform } from "../messaging/platform.ts"
import { PlatformRepository } from "../messaging/platform-repository.ts"
import {
  type ObservedReview,
  reasonOf,
  type ReviewAccount,
  type ReviewPatch,
  reviewPatch,
  reviewStatusOf,
  TemplateReview,
  templateCategoryOf
} from "../messaging/template-review.ts"
import { isMediaHeader } from "../messaging/template.ts"
import type { TemplateReviewChange } from "../messaging/template-webhook-payload.ts"
import { Transactor } from "../transactor.ts"
import { authorize } from "./authenticate.ts"
import { notifyRecipients } from "./notify.ts"

/** The notification of a template's new review status. */
export const TEMPLATE_STATUS_CHANGED: NotificationName = "WhatsappTemplateStatusChanged"
/** The notification of a template's new category. */
export const TEMPLATE_CATEGORY_CHANGED: NotificationName = "WhatsappTemplateCategoryChanged"

/** The 422 on `platform_id` for a whatsapp_cloud number without its WhatsApp Business Account id. */
export const NO_WABA_ID = "The selected sending number has no waba_id: its templates cannot be submitted for review."

/** The 422 on `template.examples.header_handle` for a media header submitted without its sample. */
export const HEADER_HANDLE_REQUIRED =
  "The template.examples.header_handle field is required for a media header: Meta reviews it with a sample file uploaded to it."

/** What following the reviews needs. */
export type TemplateReviewServices =
  | BroadcastRepository
  | PlatformRepository
  | NotificationRepository
  | TemplateReview
  | SecretBox
  | Transactor

const unavailable = (retryAfter: number) =>
  new ServiceUnavailable({ message: "WhatsApp cannot be reached for the template review now. Try again later.", retryAfter })

/** The WhatsApp Business Account of a whatsapp_cloud number, its token opened; none without a waba_id or token. */
const reviewAccountOf = (platform: Platform): Effect.Effect<Option.Option<ReviewAccount>, never, SecretBox> =>
  Effect.gen(function*() {
    if (platform.provider !== "whatsapp_cloud" || platform.waba_id === null || platform.sealed_access_token === null) {
      return Option.none()
    }
    const token = yield* SecretBox.use((box) => box.open(platform.sealed_access_token!))
    return Option.map(token, (accessToken) => ({ wabaId: platform.waba_id!, accessToken }))
  })

/**
 * Where a new broadcast's review starts: APPROVED on a sandbox number; on a whatsapp_cloud number
 * Meta's answer to the submission (its status and template id, and the category it gave, which the
 * broadcast takes). Meta's refusal is a 422 on `template` with Meta's explanation, and nothing is
 * stored; a Meta that cannot be reached is a 503.
 */
export const startReview = (
  platform: Platform,
  input: BroadcastInput
): Effect.Effect<
  { readonly input: BroadcastInput; readonly review: BroadcastReview },
  ValidationFailed | ServiceUnavailable,
  TemplateReview | SecretBox
> =>
  Effect.gen(function*() {
    if (platform.provider === "sandbox") return { input, review: { status: "APPROVED", reason: null, external_id: null } }
    const account = yield* reviewAccountOf(platform)
    if (Option.isNone(account)) return yield* invalid("platform_id", NO_WABA_ID)
    if (isMediaHeader(input.template.header) && input.examples.headerHandle === null) {
      return yield* invalid("template.examples.header_handle", HEADER_HANDLE_REQUIRED)
    }
    const outcome = yield* TemplateReview.use((review) =>
      review.submit(account.value, { name: input.template.name, language: input.language, template: input.template, examples: input.examples })
    )
    switch (outcome._tag) {
      case "Submitted":
        return {
          input: { ...input, template: { ...input.template, category: outcome.category } },
          review: { status: outcome.status, reason: null, external_id: outcome.externalId }
        }
      case "Refused":
        return yield* invalid("template", `WhatsApp refused the template: ${outcome.message}`)
      case "Unavailable":
        return yield* unavailable(outcome.retryAfterSeconds)
    }
  })

const statusMail = (b: Broadcast) => ({
  subject: `WhatsApp template ${b.template.name} is ${b.status}`,
  text: [
    `The template ${b.template.name} (${b.language}) of the broadcast "${b.name}" is now ${b.status}.`,
    ...(b.reason === null ? [] : [`Reason: ${b.reason}`]),
    "",
    b.status === "APPROVED" ? "It can be sent." : "It cannot be sent until WhatsApp approves it."
  ].join("\n")
})

const categoryMail = (b: Broadcast, previous: string) => ({
  subject: `WhatsApp template ${b.template.name} is now ${b.template.category}`,
  text: `WhatsApp changed the category of the template ${b.template.name} (${b.language}) of the broadcast "${b.name}" from ${previous} to ${b.template.category}.`
})

/** Tells the account's members holding `broadcast-manage` what the review changed. */
const notifyReview = (before: Broadcast, after: Broadcast, patch: ReviewPatch) =>
  Effect.gen(function*() {
    const notifications = yield* NotificationRepository
    const tell = (type: NotificationName, data: Record<string, unknown>, mail: { subject: string; text: string }) =>
      Effect.flatMap(
        notifications.recipients(after.account_id, "broadcast-manage", type),
        (recipients) => notifyRecipients(after.account_id, type, recipients, { data, mail })
      )
    const about = { broadcast_id: after.id, name: after.name, template_name: after.template.name, language: after.language }
    if (patch.status !== undefined || patch.reason !== undefined) {
      yield* tell(
        TEMPLATE_STATUS_CHANGED,
        { ...about, status: after.status, previous_status: before.status, reason: after.reason },
        statusMail(after)
      )
    }
    if (patch.category !== undefined) {
      yield* tell(
        TEMPLATE_CATEGORY_CHANGED,
        { ...about, category: after.template.category, previous_category: before.template.category },
        categoryMail(after, before.template.category)
      )
    }
  })

/**
 * Applies what Meta says of the broadcast's template now (see the module comment); answers
 * whether it changed anything. One transaction: the change and its notifications.
 */
export const applyReview = (
  broadcast: Broadcast,
  observed: ObservedReview
): Effect.Effect<boolean, never, BroadcastRepository | NotificationRepository | Transactor> =>
  Transactor.use((transactor) =>
    transactor.transaction(Effect.gen(function*() {
      const patch = reviewPatch(broadcast, observed)
      if (patch === null) return false
      const updated = yield* BroadcastRepository.use((repo) => repo.updateReview(broadcast.account_id, broadcast.id, patch))
      if (Option.isNone(updated)) return false
      yield* notifyReview(broadcast, updated.value, patch)
      return true
    }))
  )

/** What the review changes of a webhook body did. */
export interface TemplateReviewSummary {
  /** Changes about a template of one account's broadcasts: taken (applied, or already so). */
  readonly taken: number
  /** Changes about a template no account's broadcast has (or more than one account's): dropped. */
  readonly unknown: number
}

/**
 * Applies the review changes of a webhook body. Each finds its broadcasts by the template's id
 * among those whose sending number is of the change's WhatsApp Business Account; a template that
 * more than one account's broadcasts name cannot be told whose it is, and is dropped, as is one
 * nobody has: nothing is ever changed in an account the template is not of.
 */
export const processTemplateReviewChanges = (
  changes: ReadonlyArray<TemplateReviewChange>
): Effect.Effect<TemplateReviewSummary, never, BroadcastRepository | NotificationRepository | Transactor> =>
  Effect.gen(function*() {
    let taken = 0
    let unknown = 0
    for (const change of changes) {
      const broadcasts = yield* BroadcastRepository.use((repo) => repo.findByExternalTemplate(change.wabaId, change.externalId))
      if (new Set(broadcasts.map((b) => b.account_id)).size !== 1) {
        unknown++
        continue
      }
      for (const broadcast of broadcasts) yield* applyReview(broadcast, change.observed)
      taken++
    }
    return { taken, unknown }
  })

/**
 * Re-reads from Meta the review of every submitted template of the account (one listing per
 * WhatsApp Business Account of its whatsapp_cloud numbers) and applies what changed; answers how
 * many broadcasts changed. A template Meta no longer lists is left as it is. Fails
 * {@link ServiceUnavailable} when a listing could not be had (the others are applied).
 */
export const syncTemplateReviews = (accountId: number): Effect.Effect<number, ServiceUnavailable, TemplateReviewServices> =>
  Effect.gen(function*() {
    const broadcasts = (yield* BroadcastRepository.use((repo) => repo.list(accountId))).filter((b) =>
      b.template.external_id !== null && b.platform.waba_id !== null
    )
    const byWaba = new Map<string, Array<Broadcast>>()
    for (const b of broadcasts) byWaba.set(b.platform.waba_id!, [...(byWaba.get(b.platform.waba_id!) ?? []), b])
    let changed = 0
    let failedRetryAfter: number | undefined
    for (const group of byWaba.values()) {
      const account = yield* reviewAccountOf(group[0]!.platform)
      if (Option.isNone(account)) continue
      const listed = yield* TemplateReview.use((review) => review.list(account.value))
      if (listed._tag !== "Listed") {
        failedRetryAfter = Math.max(failedRetryAfter ?? 0, listed._tag === "Unavailable" ? listed.retryAfterSeconds : 60)
        continue
      }
      const byId = new Map(listed.templates.map((t) => [t.externalId, t]))
      for (const b of group) {
        const t = byId.get(b.template.external_id!)
        if (t === undefined) continue
        const observed = { status: reviewStatusOf(t.status), reason: reasonOf(t.reason), category: templateCategoryOf(t.category) }
        if (yield* applyReview(b, observed)) changed++
      }
    }
    if (failedRetryAfter !== undefined) return yield* unavailable(failedRetryAfter)
    return changed
  })

/**
 * `POST /api/broadcasts/sync`: re-reads the review of the account's submitted templates from Meta
 * (see {@link syncTemplateReviews}) and answers the account's broadcasts. Needs
 * `broadcast-manage`. Fails {@link Forbidden} without it, {@link ServiceUnavailable} when Meta
 * could not be asked.
 */
export const syncBroadcasts: (
  principal: Principal
) => Effect.Effect<ReadonlyArray<Broadcast>, Forbidden | ServiceUnavailable, TemplateReviewServices> = Effect.fn(
  "syncBroadcasts"
)(function*(principal: Principal) {
  yield* authorize(principal, "broadcast-manage")
  yield* syncTemplateReviews(principal.accountId)
  return yield* BroadcastRepository.use((repo) => repo.list(principal.accountId))
})

/**
 * The worker's sync: {@link syncTemplateReviews} for every account with a submitted template, one
 * after another; an account whose listing failed is logged and tried again next time. Answers
 * how many broadcasts changed.
 */
export const syncAllTemplateReviews: Effect.Effect<number, never, TemplateReviewServices> = Effect.gen(function*() {
  const accounts = yield* BroadcastRepository.use((repo) => repo.accountsWithSubmittedTemplates)
  let changed = 0
  for (const accountId of accounts) {
    changed += yield* syncTemplateReviews(accountId).pipe(
      Effect.catchTag("ServiceUnavailable", () =>
        Effect.as(Effect.logWarning("template review sync failed; tried again later").pipe(Effect.annotateLogs({ account_id: accountId })), 0))
    )
  }
  return changed
})
