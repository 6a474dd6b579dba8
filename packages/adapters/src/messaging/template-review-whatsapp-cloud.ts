/** Meta's template review through the WhatsApp Cloud API, documented on `makeWhatsAppCloudTemplateReview`. */
import {
  type BroadcastStatus,
  reviewStatusOf,
  type ReviewedTemplate,
  type SubmitOutcome,
  templateCategoryOf,
  type TemplateReviewShape,
  type TemplateSubmission
} from "@wasl/core/Messaging"
import { Effect } from "effect"
import { type CloudAnswer, cloudCall, cloudFailure, OUTAGE_RETRY_SECONDS } from "./whatsapp-cloud-call.ts"

/** Most pages of templates read in one listing (100 each): a WhatsApp Business Account holds at most a few thousand. */
const MAX_PAGES = 100

/** The `example` of a text with variables, in Meta's key for the component. */
const example = (key: "header_text" | "body_text", samples: ReadonlyArray<string>) =>
  samples.length === 0 ? {} : { example: { [key]: key === "body_text" ? [samples] : samples } }

/**
 * The `components` of a template creation, as Meta's reference writes them: HEADER (text with
 * its sample, or a media format with its sample file's handle), BODY with its samples, FOOTER, BUTTONS.
 * An authentication template's body and footer are Meta's own (the security recommendation and
 * the code's expiry), its button the OTP copy-code one.
 */
export const cloudTemplateComponents = (submission: TemplateSubmission): Array<Record<string, unknown>> => {
  const t = submission.template
  if (t.category === "AUTHENTICATION") {
    return [
      { type: "BODY", add_security_recommendation: true },
      ...(t.code_expiration_minutes === null ? [] : [{ type: "FOOTER", code_expiration_minutes: t.code_expiration_minutes }]),
      {
        type: "BUTTONS",
        buttons: (t.buttons ?? [{ type: "OTP", text: "Copy code" }]).map((b) => ({ type: "OTP", otp_type: "COPY_CODE", text: b.text }))
      }
    ]
  }
  const components: Array<Record<string, unknown>> = []
  if (t.header !== null) {
    components.push(
      t.header.format === "TEXT"
        ? { type: "HEADER", format: "TEXT", text: t.header.text, ...example("header_text", submission.examples.header) }
        : {
          type: "HEADER",
          format: t.header.format,
          ...(submission.examples.headerHandle === null ? {} : { example: { header_handle: [submission.examples.headerHandle] } })
        }
    )
  }
  components.push({ type: "BODY", text: t.body, ...example("body_text", submission.examples.body) })
  if (t.footer !== null) components.push({ type: "FOOTER", text: t.footer })
  if (t.buttons !== null && t.buttons.length > 0) {
    components.push({
      type: "BUTTONS",
      buttons: t.buttons.map((b) =>
        b.type === "URL"
          ? { type: "URL", text: b.text, url: b.url }
          : b.type === "PHONE_NUMBER"
          ? { type: "PHONE_NUMBER", text: b.text, phone_number: b.phone_number }
          : b.type === "COPY_CODE"
          ? { type: "COPY_CODE", example: "SAMPLE" }
          : { type: b.type, text: b.text }
      )
    })
  }
  return components
}

/** The JSON body of `POST /{waba_id}/message_templates`. */
export const cloudTemplateBody = (submission: TemplateSubmission): Record<string, unknown> => ({
  name: submission.name,
  language: submission.language,
  category: submission.template.category,
  components: cloudTemplateComponents(submission)
})

/** Meta's explanation of a refused call, for the template's author. */
const refusalMessage = (answer: NonNullable<CloudAnswer>): string => {
  const error = answer.body?.error
  const text = error?.error_user_msg ?? error?.message
  return typeof text === "string" && text !== "" ? text : `WhatsApp answered ${answer.status}`
}

/** Whether a failed answer is Meta refusing this request (as opposed to "not now"). */
const isRefusal = (answer: NonNullable<CloudAnswer>): boolean => {
  const failure = cloudFailure(answer)
  const code = answer.body?.error?.code
  // An invalid or expired token (190, 401/403) is the author's to fix: said, not retried.
  return failure._tag === "Rejected" || code === 190 || answer.status === 401 || answer.status === 403
}

const submitOutcome = (answer: CloudAnswer): SubmitOutcome => {
  const id = answer?.body?.id
  if (answer !== undefined && answer.status < 300 && (typeof id === "string" || typeof id === "number")) {
    const status: BroadcastStatus = reviewStatusOf(String(answer.body.status ?? "PENDING")) ?? "PENDING"
    return { _tag: "Submitted", externalId: String(id), status, category: templateCategoryOf(String(answer.body.category ?? "")) ?? "UTILITY" }
  }
  if (answer === undefined) return { _tag: "Unavailable", reason: "WhatsApp Cloud API unreachable", retryAfterSeconds: OUTAGE_RETRY_SECONDS }
  if (isRefusal(answer)) return { _tag: "Refused", message: refusalMessage(answer) }
  const failure = cloudFailure(answer)
  return failure._tag === "Unavailable"
    ? failure
    : { _tag: "Unavailable", reason: failure.reason, retryAfterSeconds: OUTAGE_RETRY_SECONDS }
}

const reviewedOf = (item: any): ReviewedTemplate | undefined =>
  (typeof item?.id === "string" || typeof item?.id === "number") && typeof item.status === "string"
    ? {
      externalId: String(item.id),
      status: item.status,
      category: typeof item.category === "string" ? item.category : "",
      reason: typeof item.rejected_reason === "string" ? item.rejected_reason : null
    }
    : undefined

/**
 * Meta's template review through the WhatsApp Cloud API at `graphUrl`, each call with the sending
 * number's bearer token:
 *
 * - `submit` is `POST {graph}/{waba_id}/message_templates` with the template's name, language,
 *   category and components (`cloudTemplateComponents`), answered `{ id, status, category }`.
 *   An error Meta answers for the request (invalid parameter, a name already used, a token
 *   refused) is a refusal carrying Meta's `error_user_msg` (else its `message`); throttling,
 *   Meta-side failures and network failures are "unavailable".
 * - `list` is `GET {graph}/{waba_id}/message_templates?fields=id,name,language,status,category,rejected_reason&limit=100`,
 *   page after page by the `after` cursor (rebuilt on `graphUrl`, never a URL from the answer).
 *
 * Neither the token nor anything but Meta's explanation goes into an outcome.
 */
export const makeWhatsAppCloudTemplateReview = (graphUrl: string): TemplateReviewShape => {
  const base = graphUrl.replace(/\/+$/, "")
  const templatesUrl = (wabaId: string) => `${base}/${encodeURIComponent(wabaId)}/message_templates`
  return {
    submit: (account, submission) =>
      Effect.map(
        cloudCall(templatesUrl(account.wabaId), {
          method: "POST",
          headers: { authorization: `Bearer ${account.accessToken}`, "content-type": "application/json" },
          body: JSON.stringify(cloudTemplateBody(submission))
        }),
        submitOutcome
      ),
    list: (account) =>
      Effect.gen(function*() {
        const templates: Array<ReviewedTemplate> = []
        let after: string | undefined
        for (let page = 0; page < MAX_PAGES; page++) {
          const query = new URLSearchParams({ fields: "id,name,language,status,category,rejected_reason", limit: "100" })
          if (after !== undefined) query.set("after", after)
          const answer = yield* cloudCall(`${templatesUrl(account.wabaId)}?${query}`, {
            method: "GET",
            headers: { authorization: `Bearer ${account.accessToken}` }
          })
          if (answer === undefined || answer.status >= 300 || !Array.isArray(answer.body?.data)) return cloudFailure(answer)
          for (const item of answer.body.data) {
            const reviewed = reviewedOf(item)
            if (reviewed !== undefined) templates.push(reviewed)
          }
          const next = answer.body.paging?.cursors?.after
          if (typeof answer.body.paging?.next !== "string" || typeof next !== "string") break
          after = next
        }
        return { _tag: "Listed", templates } as const
      })
  }
}
