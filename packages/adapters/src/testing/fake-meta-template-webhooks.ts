/**
 * The review callbacks of a fake Meta: the `message_template_status_update` and
 * `template_category_update` changes of a WhatsApp Business Account, as Meta's webhook reference
 * shows them (the account's id in `entry[].id`, the template by Meta's id, name and language).
 * Encode them with `metaJson` and sign them with `signMeta` (fake-meta-webhooks.ts).
 */
import type { MetaWebhookPayload } from "./fake-meta-webhooks.ts"

/** The template a review callback is about. */
export interface MetaTemplateRef {
  /** The WhatsApp Business Account (the sending number's `waba_id`). */
  readonly wabaId: string
  /** Meta's id of the template (a number in Meta's callbacks). */
  readonly templateId: string
  /** Its name. */
  readonly name: string
  /** Its language code. */
  readonly language: string
}

const review = (ref: MetaTemplateRef, field: string, value: Record<string, unknown>): MetaWebhookPayload => ({
  object: "whatsapp_business_account",
  entry: [{
    id: ref.wabaId,
    time: Math.floor(Date.now() / 1000),
    changes: [{
      value: {
        message_template_id: Number(ref.templateId),
        message_template_name: ref.name,
        message_template_language: ref.language,
        ...value
      },
      field
    }]
  } as MetaWebhookPayload["entry"][number]]
})

/** Whole review callbacks, as Meta posts them. */
export const metaTemplateWebhook = {
  /**
   * A template's review event (APPROVED, REJECTED, PAUSED, DISABLED, FLAGGED, REINSTATED,
   * PENDING_DELETION, ...) with its reason (`NONE` when there is none), the template's category,
   * and for an INVALID_FORMAT rejection Meta's detailed explanation.
   */
  status: (ref: MetaTemplateRef & {
    readonly event: string
    readonly reason?: string | null
    readonly category?: string
    readonly rejectionInfo?: { readonly reason: string; readonly recommendation: string }
  }): MetaWebhookPayload =>
    review(ref, "message_template_status_update", {
      event: ref.event,
      reason: ref.reason === undefined ? "NONE" : ref.reason,
      message_template_category: ref.category ?? "UTILITY",
      ...(ref.rejectionInfo === undefined ? {} : { rejection_info: ref.rejectionInfo }),
      ...(ref.event === "DISABLED" ? { disable_info: { disable_date: Math.floor(Date.now() / 1000) } } : {})
    }),
  /** Meta moved the template to another category. */
  category: (ref: MetaTemplateRef & { readonly previousCategory: string; readonly newCategory: string }): MetaWebhookPayload =>
    review(ref, "template_category_update", {
      previous_category: ref.previousCategory,
      new_category: ref.newCategory
    })
} as const
