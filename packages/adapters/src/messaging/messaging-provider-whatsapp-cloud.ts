/** The `whatsapp_cloud` provider, documented on `makeWhatsAppCloudProvider`. */
import type {
  HeaderMedia,
  MessagingProviderShape,
  ProviderOutcome,
  ProviderRequest,
  ReadOutcome
} from "@wasl/core/Messaging"
import { Effect } from "effect"
import { type CloudAnswer, cloudCall, cloudCredentials, cloudFailure } from "./whatsapp-cloud-call.ts"
import { fetchCloudMedia } from "./whatsapp-cloud-media.ts"
import { readCloudNumber } from "./whatsapp-cloud-number.ts"

export { classifyCloudError, DEFAULT_GRAPH_URL } from "./whatsapp-cloud-call.ts"

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
  const text = (values: ReadonlyArray<string>) => values.map((value) => ({ type: "text", text: value }))
  if (request.headerMedia === undefined && (request.parameters?.header.length ?? 0) > 0) {
    components.push({ type: "header", parameters: text(request.parameters!.header) })
  }
  if (request.code === undefined && (request.parameters?.body.length ?? 0) > 0) {
    components.push({ type: "body", parameters: text(request.parameters!.body) })
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
  /** The request's tracking string, which Meta hands back with each status of the message. */
  readonly biz_opaque_callback_data?: string
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
    },
    ...(request.tracking === undefined ? {} : { biz_opaque_callback_data: request.tracking })
  }
}

/** The JSON body of a free-form text message to one recipient (no link preview). */
export const cloudTextBody = (to: string, text: string): {
  readonly messaging_product: string
  readonly recipient_type: string
  readonly to: string
  readonly type: string
  readonly text: { readonly preview_url: boolean; readonly body: string }
} => ({
  messaging_product: "whatsapp",
  recipient_type: "individual",
  to,
  type: "text",
  text: { preview_url: false, body: text }
})

/** The JSON body that marks a received message read. */
export const cloudReadBody = (providerMessageId: string): {
  readonly messaging_product: string
  readonly status: string
  readonly message_id: string
} => ({
  messaging_product: "whatsapp",
  status: "read",
  message_id: providerMessageId
})

/** The message id of an accepted messages call, else what the failure means. */
const messagesOutcome = (answer: CloudAnswer): ProviderOutcome => {
  const messageId = answer?.body?.messages?.[0]?.id
  if (answer !== undefined && answer.status < 300 && typeof messageId === "string") {
    return { _tag: "Accepted", messageId }
  }
  return cloudFailure(answer)
}

/**
 * The `whatsapp_cloud` provider: the WhatsApp Cloud API at `graphUrl`, each call with the sending
 * number's bearer token. `send` is the messages call, `POST {graph}/{phone_id}/messages`, with a
 * `template` message (name, language code, components):
 *
 * - an authentication template carries the code twice, as the body's `{{1}}` text parameter and as
 *   the text parameter of its copy-code button (a `url` sub-type button at index 0);
 * - an offer code is a `copy_code` button parameter of type `coupon_code` at the button's index;
 * - the values of a template's variables are `text` parameters of its `header` and `body`
 *   components, `{{1}}` first;
 * - a media header file is first uploaded (`POST {graph}/{phone_id}/media`, multipart), then sent
 *   as the header's image / document / video parameter by the returned media id;
 * - the request's tracking string is the message's `biz_opaque_callback_data`, which Meta hands
 *   back in each status webhook of the message.
 *
 * `sendText` is the same call with a `text` message (`{ preview_url: false, body }`), `markRead`
 * the same call with `{ status: "read", message_id }`, and `fetchMedia` reads the media's URL
 * (`GET {graph}/{media_id}`) and then the file at it (whatsapp-cloud-media.ts).
 *
 * Cloud API errors (`{ error: { code, message } }`) map to the port's outcomes: codes that mean the
 * recipient or the request cannot succeed (e.g. 131026 undeliverable, 100 invalid parameter,
 * 132000/132001 template mismatch) are rejections; throttling (130429, 131048, 131056), Meta-side
 * failures and credential problems (190, 10, 200) are "unavailable" with a Retry-After, as are
 * network failures and timeouts. Neither the token nor the code ever goes into an outcome's text.
 *
 * `MessagingProviderLive` uses it for the numbers whose provider is `whatsapp_cloud`.
 */
export const makeWhatsAppCloudProvider = (graphUrl: string): MessagingProviderShape => {
  const base = graphUrl.replace(/\/+$/, "")
  const messagesCall = (phoneId: string, authorization: string, body: unknown) =>
    cloudCall(`${base}/${encodeURIComponent(phoneId)}/messages`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
  return {
    send: (request) =>
      Effect.gen(function*() {
        const credentials = cloudCredentials(request.platform)
        if ("_tag" in credentials) return credentials
        const { phoneId, authorization } = credentials
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
          const uploaded = yield* cloudCall(`${base}/${encodeURIComponent(phoneId)}/media`, {
            method: "POST",
            headers: { authorization },
            body: form
          })
          if (uploaded === undefined || uploaded.status >= 300 || typeof uploaded.body?.id !== "string") {
            return cloudFailure(uploaded)
          }
          mediaId = uploaded.body.id
        }
        return messagesOutcome(yield* messagesCall(phoneId, authorization, cloudMessageBody(request, mediaId)))
      }),
    sendText: (platform, to, text) => {
      const credentials = cloudCredentials(platform)
      if ("_tag" in credentials) return Effect.succeed(credentials)
      return Effect.map(
        messagesCall(credentials.phoneId, credentials.authorization, cloudTextBody(to, text)),
        messagesOutcome
      )
    },
    markRead: (platform, providerMessageId) => {
      const credentials = cloudCredentials(platform)
      if ("_tag" in credentials) return Effect.succeed(credentials)
      return Effect.map(
        messagesCall(credentials.phoneId, credentials.authorization, cloudReadBody(providerMessageId)),
        (answer): ReadOutcome =>
          answer !== undefined && answer.status < 300 && answer.body?.success === true
            ? { _tag: "Marked" }
            : cloudFailure(answer)
      )
    },
    fetchMedia: (platform, mediaId, maxBytes) => fetchCloudMedia(base, platform, mediaId, maxBytes),
    readNumber: (platform) => readCloudNumber(base, platform)
  }
}
