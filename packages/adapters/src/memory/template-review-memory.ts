/**
 * Meta's template review without a network, documented on `TemplateReviewMemory`, and
 * `ReviewedTemplates`, through which a test plays Meta's reviewer.
 */
import { type ReviewedTemplate, TemplateReview, type TemplateSubmission } from "@wasl/core/Messaging"
import { Context, Effect, Layer, Ref } from "effect"

/** One template submitted, with where Meta's review of it stands. */
export interface SubmittedTemplate {
  /** Meta's id of it (digits, as Meta's are). */
  readonly externalId: string
  /** The WhatsApp Business Account it was submitted to. */
  readonly wabaId: string
  /** What was submitted. */
  readonly submission: TemplateSubmission
  /** Its review as `list` answers it. */
  readonly review: ReviewedTemplate
}

/** What `ReviewedTemplates` offers. */
export interface ReviewedTemplatesShape {
  /** Every template submitted so far, oldest first. */
  readonly all: Effect.Effect<ReadonlyArray<SubmittedTemplate>>
  /** Meta's reviewer decides: `list` answers this status (and reason) for the template from now on. */
  readonly review: (externalId: string, status: string, reason?: string | null) => Effect.Effect<void>
  /** Meta changes the template's category. */
  readonly recategorize: (externalId: string, category: string) => Effect.Effect<void>
  /** Makes the next submission refused with Meta's `message`. */
  readonly refuseNext: (message: string) => Effect.Effect<void>
  /** Makes `submit` and `list` answer "unavailable" while on. */
  readonly setUnavailable: (unavailable: boolean) => Effect.Effect<void>
}

const ReviewedTemplatesBase: Context.ServiceClass<ReviewedTemplates, "@wasl/adapters/ReviewedTemplates", ReviewedTemplatesShape> =
  Context.Service<ReviewedTemplates, ReviewedTemplatesShape>()("@wasl/adapters/ReviewedTemplates")

/** The templates `TemplateReviewMemory` was given, and the controls of a test playing Meta's reviewer. */
export class ReviewedTemplates extends ReviewedTemplatesBase {}

/**
 * `TemplateReview` without a network, and the `ReviewedTemplates` it fills; each build starts
 * empty. A submission is PENDING under a new id, in its category, until the test reviews it;
 * `list` answers the templates of the account asked.
 */
export const TemplateReviewMemory: Layer.Layer<TemplateReview | ReviewedTemplates> = Layer.effectContext(
  Effect.gen(function*() {
    const submitted = yield* Ref.make<ReadonlyArray<SubmittedTemplate>>([])
    const refusal = yield* Ref.make<string | undefined>(undefined)
    const down = yield* Ref.make(false)
    const unavailable = { _tag: "Unavailable", reason: "scripted outage", retryAfterSeconds: 30 } as const
    const change = (externalId: string, f: (review: ReviewedTemplate) => ReviewedTemplate) =>
      Ref.update(submitted, (all) => all.map((t) => (t.externalId === externalId ? { ...t, review: f(t.review) } : t)))
    const review = TemplateReview.of({
      submit: (account, submission) =>
        Effect.gen(function*() {
          if (yield* Ref.get(down)) return unavailable
          const refused = yield* Ref.getAndSet(refusal, undefined)
          if (refused !== undefined) return { _tag: "Refused", message: refused } as const
          const all = yield* Ref.get(submitted)
          const externalId = String(880000000000000 + all.length + 1)
          const category = submission.template.category
          yield* Ref.set(submitted, [...all, {
            externalId,
            wabaId: account.wabaId,
            submission,
            review: { externalId, status: "PENDING", category, reason: null }
          }])
          return { _tag: "Submitted", externalId, status: "PENDING", category } as const
        }),
      list: (account) =>
        Effect.gen(function*() {
          if (yield* Ref.get(down)) return unavailable
          const all = yield* Ref.get(submitted)
          return { _tag: "Listed", templates: all.filter((t) => t.wabaId === account.wabaId).map((t) => t.review) } as const
        })
    })
    const reviewed = ReviewedTemplates.of({
      all: Ref.get(submitted),
      review: (externalId, status, reason = null) => change(externalId, (r) => ({ ...r, status, reason })),
      recategorize: (externalId, category) => change(externalId, (r) => ({ ...r, category })),
      refuseNext: (message) => Ref.set(refusal, message),
      setUnavailable: (on) => Ref.set(down, on)
    })
    return Context.make(TemplateReview, review).pipe(Context.add(ReviewedTemplates, reviewed))
  })
)
