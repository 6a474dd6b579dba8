/** The `whatsapp_cloud` provider, documented on `makeWhatsAppCloudProvider`. */
import type { HeaderMedia, ProviderOutcome, ProviderRequest } from "@wasl/core"
import { Duration, Effect } from "effect"

/** The WhatsApp Cloud API's base URL when `WASL_WHATSAPP_GRAPH_URL` is not set. */
export const DEFAULT_GRAPH_URL = "https://graph.facebook.com/v21.0"
const REQUEST_TIMEOUT = Duration.seconds(15)

/** Codes after which the same request can never succeed. */
const REJECTED_CODES = new Set([
  100, 131008, 131009, 131021, 131026, 131030, 131047, 131051, 131052, 131053,
  132000, 132001, 132005, 132007, 132012, 132015, 132016, 133010
])
/** Codes that mean "not now": rate limits and throttling. */
const THROTTLED_CODES = new Set([4, 80007, 130429, 131048, 131056])

const RATE_LIMIT_RETRY_SECONDS = 60
const OUTAGE_RETRY_SECONDS = 30

/** What an HTTP answer of the Cloud API means for the send. */
export const classifyCloudError = (httpStatus: number, code: number | undefined): ProviderOutcome => {
  if (code !== undefined && REJECTED_CODES.has(code)) {
    return { _tag: "Rejected", reason: `WhatsApp Cloud API error ${code}` }
  }
  if (code !== undefined && THROTTLED_CODES.has(code)) {
    return { _tag: "Unavailable", reason: `WhatsApp Cloud API error ${code}`, retryAfterSeconds: RATE_LIMIT_RETRY_SECONDS }
  }
  if (code === undefined && httpStatus >= 400 && httpStatus < 500 && httpStatus !== 401 && httpStatus !== 403 && httpStatus !== 429) {
    return { _tag: "Rejected", reason: `WhatsApp Cloud API answered ${httpStatus}` }
  }
  return {
    _tag: "Unavailable",
    reason: code === undefined ? `WhatsApp Cloud API answered ${httpStatus}` : `WhatsApp Cloud API error ${code}`,
    retryAfterSeconds: httpStatus === 429 ? RATE_LIMIT_RETRY_SECONDS : OUTAGE_RETRY_SECONDS
  }
}

const mediaKey = (format: HeaderMedia["format"]) =>
  format === "IMAGE" ? "image" : format === "VIDEO" ? "video" : "document"

/** The `template.components` of the messages call. */
export const cloudComponents = (request: ProviderRequest, mediaId: string | undefined): Array<unknown> => {
  const components: Array<unknown> = []
  if (request.headerMedia !== undefined && mediaId !== undefined) {
    const key = mediaKey(request.headerMedia.format)
    components.push({
      type: "header",
      parameters: [{
        type: key,
        [key]: key === "document" ? { id: mediaId, filename: request.headerMedia.filename } : { id: mediaId }
      }]
    })
  }
  if (request.code !== undefined) {
    components.push({ type: "body", parameters: [{ type: "text", text: request.code }] })
    components.push({ type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: request.code }] })
  }
  if (request.offerCode !== undefined) {
    components.push({
      type: "button",
      sub_type: "copy_code",
      index: request.offerCode.index,
      parameters: [{ type: "coupon_code", coupon_code: request.offerCode.code }]
    })
  }
  return components
}

/** The JSON body of the Cloud API's messages call: a template message to one recipient. */
export interface CloudMessageBody {
  /** Always `whatsapp`. */
  readonly messaging_product: string
  /** Always `individual`. */
  readonly recipient_type: string
  /** The recipient's digits. */
  readonly to: string
  /** Always `template`. */
  readonly type: string
  /** The template: its name, language and components (none when it has no parameters). */
  readonly template: {
    readonly name: string
    readonly language: { readonly code: string }
    readonly components?: Array<unknown>
  }
}

/** The JSON body of `POST /{phone_id}/messages`. */
export const cloudMessageBody = (request: ProviderRequest, mediaId: string | undefined): CloudMessageBody => {
  const components = cloudComponents(request, mediaId)
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: request.to,
    type: "template",
    template: {
      name: request.template.name,
      language: { code: request.template.language },
      ...(components.length === 0 ? {} : { components })
    }
  }
}

type Answer = { readonly status: number; readonly body: any } | undefined

const call = (url: string, init: RequestInit): Effect.Effect<Answer> =>
  Effect.promise(async (): Promise<Answer> => {
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(Duration.toMillis(REQUEST_TIMEOUT)) })
      const text = await response.text()
      let body: unknown = undefined
      try {
        body = text === "" ? undefined : JSON.parse(text)
      } catch {
        body = undefined
      }
      return { status: response.status, body }
    } catch {
      return undefined // network failure or timeout
    }
  })

const failureOf = (answer: Answer): ProviderOutcome => {
  if (answer === undefined) {
    return { _tag: "Unavailable", reason: "WhatsApp Cloud API unreachable", retryAfterSeconds: OUTAGE_RETRY_SECONDS }
  }
  const code = answer.body?.error?.code
  return classifyCloudError(answer.status, typeof code === "number" ? code : undefined)
}

/**
 * The `whatsapp_cloud` provider: the WhatsApp Cloud API's messages call,
 * `POST {graph}/{phone_id}/messages` with the sending number's bearer token and a `template`
 * message (name, language code, components):
 *
 * - an authentication template carries the code twice, as the body's `{{1}}` text parameter and as
 *   the text parameter of its copy-code button (a `url` sub-type button at index 0);
 * - an offer code is a `copy_code` button parameter of type `coupon_code` at the button's index;
 * - a media header file is first uploaded (`POST {graph}/{phone_id}/media`, multipart), then sent
 *   as the header's image / document / video parameter by the returned media id.
 *
 * Cloud API errors (`{ error: { code, message } }`) map to the port's outcomes: codes that mean the
 * recipient or the request cannot succeed (e.g. 131026 undeliverable, 100 invalid parameter,
 * 132000/132001 template mismatch) are rejections; throttling (130429, 131048, 131056), Meta-side
 * failures and credential problems (190, 10, 200) are "unavailable" with a Retry-After, as are
 * network failures and timeouts. Neither the token nor the code ever goes into an outcome's text.
 *
 * Returns the send function for the Cloud API at `graphUrl`; `MessagingProviderLive` uses it.
 */
export const makeWhatsAppCloudProvider = (graphUrl: string): (request: ProviderRequest) => Effect.Effect<ProviderOutcome> => {
  const base = graphUrl.replace(/\/+$/, "")
  return (request: ProviderRequest): Effect.Effect<ProviderOutcome> =>
    Effect.gen(function*() {
      const { phoneId, accessToken } = request.platform
      if (phoneId === null || accessToken === null) {
        return {
          _tag: "Unavailable",
          reason: "The sending number has no phone_id or access token.",
          retryAfterSeconds: OUTAGE_RETRY_SECONDS
        } satisfies ProviderOutcome
      }
      const authorization = `Bearer ${accessToken}`
      let mediaId: string | undefined
      if (request.headerMedia !== undefined) {
        const form = new FormData()
        form.set("messaging_product", "whatsapp")
        form.set("type", request.headerMedia.contentType)
        form.set(
          "file",
          new Blob([request.headerMedia.bytes.slice()], { type: request.headerMedia.contentType }),
          request.headerMedia.filename
        )
        const uploaded = yield* call(`${base}/${encodeURIComponent(phoneId)}/media`, {
          method: "POST",
          headers: { authorization },
          body: form
        })
        if (uploaded === undefined || uploaded.status >= 300 || typeof uploaded.body?.id !== "string") {
          return failureOf(uploaded)
        }
        mediaId = uploaded.body.id
      }
      const answer = yield* call(`${base}/${encodeURIComponent(phoneId)}/messages`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify(cloudMessageBody(request, mediaId))
      })
      const messageId = answer?.body?.messages?.[0]?.id
      if (answer !== undefined && answer.status < 300 && typeof messageId === "string") {
        return { _tag: "Accepted", messageId } satisfies ProviderOutcome
      }
      return failureOf(answer)
    })
}
