/** A local stand-in for the WhatsApp Cloud API, documented on `startFakeCloudApi`. */
import { createServer, type IncomingMessage, type Server } from "node:http"
import { metaJson, metaWebhook, signMeta } from "./fake-meta-webhooks.ts"
import { metaTemplateWebhook } from "./fake-meta-template-webhooks.ts"
import { type FakeTemplate, templateCall } from "./fake-meta-templates.ts"

/** One request the fake Cloud API received. */
export interface RecordedCall {
  /** The request path, e.g. `/v21.0/<phone_id>/messages`. */
  readonly path: string
  /** The `authorization` header, if any. */
  readonly authorization: string | undefined
  /** The `content-type` header, if any. */
  readonly contentType: string | undefined
  /** The parsed JSON body of a messages call. */
  readonly json?: any
  /** The fields and the file of a multipart media upload. */
  readonly form?: { readonly fields: Record<string, string>; readonly file?: { name: string; type: string; size: number } }
  /** The wamid of an accepted message, once answered (even when its caller had gone by then). */
  readonly messageId?: string
}

/** A running fake Cloud API (`startFakeCloudApi`). */
export interface FakeCloudApi {
  /** Its base URL with the API version, to give as the graph URL. */
  readonly url: string
  /** Every request received, in order. */
  readonly calls: Array<RecordedCall>
  /** `to` → [http status, error code]; a code of undefined answers that status with no JSON. */
  readonly failures: Map<string, readonly [number, number | undefined]>
  /** `to` → a promise the answer to that recipient waits for (the request is recorded at once). */
  readonly holds: Map<string, Promise<unknown>>
  /** How long each messages call waits before it is answered, in ms (the request is recorded at once). Default 0. */
  latencyMs: number
  /** Media id → the file `GET /<media_id>` describes and its download URL serves. */
  readonly media: Map<string, { readonly bytes: Uint8Array; readonly mimeType: string }>
  /** Media ids whose description names this URL instead of the fake's own download URL. */
  readonly mediaUrls: Map<string, string>
  /** The message templates created, by Meta's id (fake-meta-templates.ts). */
  readonly templates: Map<string, FakeTemplate>
  /** Where Meta's review callbacks go (the app's callback URL) and the app secret they are signed with. */
  webhook: { readonly url: string; readonly appSecret: string } | undefined
  /**
   * Meta's reviewer decides: the template takes the event's status (REINSTATED: APPROVED) and
   * reason, and unless `silently` (a callback that never arrives), its signed
   * `message_template_status_update` callback is posted to `webhook`. Answers the callback's
   * HTTP status (undefined when none was posted).
   */
  readonly reviewTemplate: (
    id: string,
    event: string,
    options?: { readonly reason?: string; readonly silently?: boolean }
  ) => Promise<number | undefined>
  /**
   * Meta reports a status of the accepted message `call` made: its signed `messages` callback, as
   * Meta's reference writes it, with the message's `biz_opaque_callback_data` if the call carried
   * one, is posted to `webhook`. Answers the callback's HTTP status.
   */
  readonly reportStatus: (call: RecordedCall, status: "sent" | "delivered" | "read") => Promise<number>
  /** Phone number id → the number's node `GET /<phone_id>` answers (with the `fields` asked for). */
  readonly numbers: Map<string, FakeNumberNode>
  /** Stops the server. */
  readonly close: () => Promise<void>
}

/** A business phone number as the Graph API's phone number node describes it. */
export interface FakeNumberNode {
  /** The number as customers see it, e.g. `+1 555-078-3881`. */
  readonly display_phone_number: string
  /** The business name Meta verified. */
  readonly verified_name: string
  /** `VERIFIED`, `NOT_VERIFIED`, `EXPIRED`, ... */
  readonly code_verification_status: string
  /** `GREEN`, `YELLOW`, `RED` or `UNKNOWN`. */
  readonly quality_rating: string
  /** `TIER_250`, `TIER_1K`, `TIER_10K`, `TIER_100K`, `TIER_UNLIMITED`, ... */
  readonly messaging_limit_tier: string
}

/**
 * The phone number node as `GET /<phone_id>?fields=a,b` answers it: the fields asked for and the
 * id; without `fields`, the default ones (display number, verified name, quality rating).
 */
export const numberNode = (id: string, node: FakeNumberNode, fields: string | null): Record<string, unknown> => {
  const asked = fields === null
    ? ["display_phone_number", "verified_name", "quality_rating"]
    : fields.split(",").map((f) => f.trim()).filter((f) => f in node)
  return { ...Object.fromEntries(asked.map((f) => [f, node[f as keyof FakeNumberNode]])), id }
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

/** The documented shape of a read receipt (`{ messaging_product, status: "read", message_id }`). */
export const readReceiptProblem = (body: any): string | undefined => {
  if (body?.messaging_product !== "whatsapp") return "messaging_product must be whatsapp"
  if (body.status !== "read") return "status must be read"
  if (typeof body.message_id !== "string" || !body.message_id.startsWith("wamid.")) return "message_id must be a wamid"
  return undefined
}

/** The documented shape of a text message; returns the first problem, if any. */
export const textMessageProblem = (body: any): string | undefined => {
  if (body?.messaging_product !== "whatsapp") return "messaging_product must be whatsapp"
  if (body.recipient_type !== undefined && body.recipient_type !== "individual") return "recipient_type"
  if (typeof body.to !== "string" || !/^[0-9]{6,20}$/.test(body.to)) return "to must be the recipient's digits"
  if (body.type !== "text") return "type must be text"
  if (typeof body.text?.body !== "string" || body.text.body.length === 0 || body.text.body.length > 4096) {
    return "text.body must hold 1 to 4096 characters"
  }
  if (body.text.preview_url !== undefined && typeof body.text.preview_url !== "boolean") return "text.preview_url"
  return undefined
}

/** The documented shape of a template message; returns the first problem, if any. */
export const templateMessageProblem = (body: any): string | undefined => {
  if (body?.messaging_product !== "whatsapp") return "messaging_product must be whatsapp"
  if (body.recipient_type !== undefined && body.recipient_type !== "individual") return "recipient_type"
  if (typeof body.to !== "string" || !/^[0-9]{6,20}$/.test(body.to)) return "to must be the recipient's digits"
  if (body.type !== "template") return "type must be template"
  const t = body.template
  if (typeof t?.name !== "string" || t.name === "") return "template.name"
  if (typeof t.language?.code !== "string") return "template.language.code"
  if (t.components === undefined) return undefined
  if (!Array.isArray(t.components)) return "template.components must be an array"
  for (const c of t.components) {
    if (!["header", "body", "button"].includes(c.type)) return `component type ${c.type}`
    if (!Array.isArray(c.parameters) || c.parameters.length === 0) return "component parameters"
    if (c.type === "button") {
      if (!["url", "quick_reply", "copy_code"].includes(c.sub_type)) return `button sub_type ${c.sub_type}`
      if (!/^[0-9]+$/.test(String(c.index))) return "button index"
    }
    for (const p of c.parameters) {
      if (p.type === "text" && typeof p.text !== "string") return "text parameter"
      if (p.type === "coupon_code" && typeof p.coupon_code !== "string") return "coupon_code parameter"
      if (["image", "video", "document"].includes(p.type) && typeof p[p.type]?.id !== "string") return "media parameter id"
      if (!["text", "coupon_code", "image", "video", "document", "payload"].includes(p.type)) return `parameter type ${p.type}`
    }
  }
  return undefined
}

/** Posts a callback body to the app's callback URL, signed as Meta signs it; answers the HTTP status. */
const postSigned = async (webhook: { readonly url: string; readonly appSecret: string }, body: string): Promise<number> => {
  const response = await fetch(webhook.url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signMeta(webhook.appSecret, body) },
    body
  })
  await response.arrayBuffer()
  return response.status
}

const errorBody = (code: number, message: string) => ({
  error: { message, type: "OAuthException", code, fbtrace_id: "AbCdEf123" }
})

/**
 * A local stand-in for the WhatsApp Cloud API (Graph API): message templates, `POST` and `GET
 * /<version>/<waba_id>/message_templates` (fake-meta-templates.ts), with their review played by
 * `reviewTemplate`, which also posts Meta's signed review callback; `POST /<version>/<phone_id>/messages`
 * (template and text messages, read receipts), `POST /<version>/<phone_id>/media`, and a received
 * message's media: `GET /<version>/<media_id>` describing it (`{ messaging_product, url,
 * mime_type, sha256, file_size, id }`) and `GET` of that URL giving its bytes; a business number's
 * node, `GET /<version>/<phone_id>?fields=...` (`numbers`: verified_name, code_verification_status,
 * quality_rating, messaging_limit_tier, display_phone_number, and its id). It checks each
 * request the way the API documents it (bearer token, JSON body with messaging_product
 * "whatsapp", recipient digits, type "template" with template name, language code and well-formed
 * components, or type "text" with a 1 to 4096 character body, or `status: "read"` with a wamid;
 * multipart media with messaging_product, type and file) and answers like the API:
 * `{ messaging_product, contacts, messages: [{ id }] }`, `{ success: true }` for a read receipt,
 * `{ id }` for media, or `{ error: { message, type, code, fbtrace_id } }` with status 400 (404 for
 * an unknown media id). A test can script an error per recipient, hold the answer to a recipient
 * until it lets go (a slow provider), offer media (`media`), point a media's URL elsewhere, and
 * describe numbers (`numbers`).
 *
 * Test support (Node only), used by Wasl's adapter and HTTP suites: it listens on a free loopback
 * port and accepts the bearer token `expectedToken` only.
 */
export const startFakeCloudApi = async (expectedToken: string): Promise<FakeCloudApi> => {
  const calls: Array<RecordedCall> = []
  const failures = new Map<string, readonly [number, number | undefined]>()
  const holds = new Map<string, Promise<unknown>>()
  const media = new Map<string, { readonly bytes: Uint8Array; readonly mimeType: string }>()
  const mediaUrls = new Map<string, string>()
  const templates = new Map<string, FakeTemplate>()
  const numbers = new Map<string, FakeNumberNode>()
  let seq = 0
  let origin = ""
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(body === undefined ? "" : JSON.stringify(body))
    }
    const raw = await readBody(req)
    const path = req.url ?? ""
    const authorization = req.headers.authorization
    const contentType = req.headers["content-type"]
    if (authorization !== `Bearer ${expectedToken}`) {
      calls.push({ path, authorization, contentType })
      return send(401, errorBody(190, "Invalid OAuth access token."))
    }
    const templateAnswer = templateCall(req.method, path, raw.toString("utf8"), templates, origin)
    if (templateAnswer !== undefined) {
      let json: unknown
      try {
        json = req.method === "POST" ? JSON.parse(raw.toString("utf8")) : undefined
      } catch {
        json = undefined
      }
      calls.push({ path, authorization, contentType, ...(json === undefined ? {} : { json }) })
      return send(templateAnswer.status, templateAnswer.body)
    }
    const download = /^\/whatsapp_business\/attachments\/\?mid=([^&]+)$/.exec(path)
    if (req.method === "GET" && download !== null) {
      calls.push({ path, authorization, contentType })
      const file = media.get(decodeURIComponent(download[1]!))
      if (file === undefined) return send(404)
      res.writeHead(200, { "content-type": file.mimeType, "content-length": String(file.bytes.length) })
      return res.end(file.bytes)
    }
    const described = /^\/v[0-9.]+\/([^/?]+)(\?.*)?$/.exec(path)
    if (req.method === "GET" && described !== null) {
      calls.push({ path, authorization, contentType })
      const id = decodeURIComponent(described[1]!)
      const number = numbers.get(id)
      if (number !== undefined) {
        return send(200, numberNode(id, number, new URLSearchParams(described[2] ?? "").get("fields")))
      }
      const file = media.get(id)
      if (file === undefined) return send(404, errorBody(100, "Unsupported get request."))
      const sha256 = Buffer.from(await crypto.subtle.digest("SHA-256", file.bytes.slice())).toString("base64")
      return send(200, {
        messaging_product: "whatsapp",
        url: mediaUrls.get(id) ?? `${origin}/whatsapp_business/attachments/?mid=${encodeURIComponent(id)}`,
        mime_type: file.mimeType,
        sha256,
        file_size: file.bytes.length,
        id
      })
    }
    if (req.method === "POST" && /^\/v[0-9.]+\/[0-9]+\/media$/.test(path)) {
      // A copy on an ArrayBuffer of its own: Deno's `BodyInit` refuses a Buffer, whose memory may be shared.
      const form = await new Response(new Uint8Array(raw), { headers: { "content-type": contentType ?? "" } }).formData()
      const fields: Record<string, string> = {}
      let file: { name: string; type: string; size: number } | undefined
      for (const [k, v] of form) {
        if (typeof v === "string") fields[k] = v
        else file = { name: v.name, type: v.type, size: v.size }
      }
      calls.push({ path, authorization, contentType, form: file === undefined ? { fields } : { fields, file } })
      if (fields["messaging_product"] !== "whatsapp" || file === undefined || fields["type"] !== file.type) {
        return send(400, errorBody(100, "Invalid parameter"))
      }
      return send(200, { id: `media-${++seq}` })
    }
    if (req.method === "POST" && /^\/v[0-9.]+\/[0-9]+\/messages$/.test(path)) {
      let json: any
      try {
        json = JSON.parse(raw.toString("utf8"))
      } catch {
        return send(400, errorBody(100, "Invalid JSON"))
      }
      const call: { -readonly [K in keyof RecordedCall]: RecordedCall[K] } = { path, authorization, contentType, json }
      calls.push(call)
      const hold = holds.get(json?.to)
      if (hold !== undefined) await hold
      if (api.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, api.latencyMs))
      if (!/^application\/json/.test(contentType ?? "")) return send(400, errorBody(100, "Invalid content type"))
      if (json?.status !== undefined) {
        const problem = readReceiptProblem(json)
        if (problem !== undefined) return send(400, errorBody(131009, `(#131009) Parameter value is not valid: ${problem}`))
        return send(200, { success: true })
      }
      const problem = json?.type === "text" ? textMessageProblem(json) : templateMessageProblem(json)
      if (problem !== undefined) return send(400, errorBody(100, `(#100) Invalid parameter: ${problem}`))
      const failure = failures.get(json.to)
      if (failure !== undefined) {
        const [status, code] = failure
        return code === undefined ? send(status) : send(status, errorBody(code, "scripted failure"))
      }
      call.messageId = `wamid.FAKE${++seq}`
      return send(200, {
        messaging_product: "whatsapp",
        contacts: [{ input: json.to, wa_id: json.to }],
        messages: [{ id: call.messageId, message_status: "accepted" }]
      })
    }
    send(404, errorBody(803, "Unknown path"))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no address")
  origin = `http://127.0.0.1:${address.port}`
  const api: FakeCloudApi = {
    url: `${origin}/v21.0`,
    calls,
    failures,
    holds,
    latencyMs: 0,
    media,
    mediaUrls,
    templates,
    webhook: undefined,
    reviewTemplate: async (id, event, options = {}) => {
      const template = templates.get(id)
      if (template === undefined) throw new Error(`no template ${id}`)
      template.status = event === "REINSTATED" ? "APPROVED" : event
      template.rejectedReason = options.reason ?? "NONE"
      if (options.silently === true || api.webhook === undefined) return undefined
      const body = metaJson(metaTemplateWebhook.status({
        wabaId: template.wabaId,
        templateId: id,
        name: template.name,
        language: template.language,
        event,
        reason: options.reason ?? "NONE",
        category: template.category
      }))
      return postSigned(api.webhook, body)
    },
    reportStatus: async (call, status) => {
      if (api.webhook === undefined) throw new Error("no webhook to report to")
      if (call.messageId === undefined) throw new Error("the call made no message")
      const body = metaJson(metaWebhook.status({
        phoneNumberId: call.path.split("/").at(-2)!,
        id: call.messageId,
        status,
        recipientId: call.json.to,
        ...(call.json.biz_opaque_callback_data === undefined ? {} : { tracking: call.json.biz_opaque_callback_data })
      }))
      return postSigned(api.webhook, body)
    },
    numbers,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
  return api
}
