/**
 * The message templates of the fake Cloud API (fake-whatsapp-cloud-api.ts): template creation and
 * template reads of a WhatsApp Business Account, `POST` and `GET /<version>/<waba_id>/message_templates`,
 * checked and answered as Meta's reference shows them.
 */

/** A template the fake holds: what was created, and where its review stands. */
export interface FakeTemplate {
  /** Meta's id of it (16 digits). */
  readonly id: string
  /** The WhatsApp Business Account it belongs to. */
  readonly wabaId: string
  /** Its name. */
  readonly name: string
  /** Its language code. */
  readonly language: string
  /** Its category (a test may change it, as Meta does). */
  category: string
  /** Its review status: PENDING until a test reviews it. */
  status: string
  /** Why it was rejected (`NONE` otherwise). */
  rejectedReason: string
  /** The components as created. */
  readonly components: ReadonlyArray<any>
}

const VARIABLE = /\{\{([0-9]+)\}\}/g
const variableCount = (text: string) => new Set([...text.matchAll(VARIABLE)].map((m) => m[1])).size

const isStrings = (u: unknown, n: number) => Array.isArray(u) && u.length === n && u.every((v) => typeof v === "string" && v !== "")

/** The first problem of a creation body by Meta's reference, if any. */
export const templateCreationProblem = (body: any): string | undefined => {
  if (typeof body?.name !== "string" || !/^[a-z0-9_]{1,512}$/.test(body.name)) return "name must be lowercase letters, digits and underscores"
  if (typeof body.language !== "string" || body.language === "") return "language"
  if (!["UTILITY", "MARKETING", "AUTHENTICATION"].includes(body.category)) return "category"
  if (!Array.isArray(body.components)) return "components must be an array"
  const bodies = body.components.filter((c: any) => c?.type === "BODY")
  if (bodies.length !== 1) return "exactly one BODY component"
  const auth = body.category === "AUTHENTICATION"
  for (const c of body.components) {
    switch (c?.type) {
      case "HEADER":
        if (auth) return "an authentication template has no header"
        if (c.format === "TEXT") {
          if (typeof c.text !== "string" || c.text.length > 60) return "HEADER text of at most 60 characters"
          const n = variableCount(c.text)
          if (n > 1) return "a HEADER supports 1 parameter"
          if (n === 1 && !isStrings(c.example?.header_text, 1)) return "HEADER example.header_text must hold the parameter's sample"
        } else if (["IMAGE", "VIDEO", "DOCUMENT"].includes(c.format)) {
          if (!isStrings(c.example?.header_handle, 1)) return "a media HEADER needs example.header_handle (an uploaded sample)"
        } else return "HEADER format"
        break
      case "BODY":
        if (auth) {
          if (c.text !== undefined) return "an authentication BODY has no text"
          break
        }
        if (typeof c.text !== "string" || c.text === "" || c.text.length > 1024) return "BODY text of 1 to 1024 characters"
        if (variableCount(c.text) > 0) {
          const samples = c.example?.body_text
          if (!Array.isArray(samples) || samples.length !== 1 || !isStrings(samples[0], variableCount(c.text))) {
            return "BODY example.body_text must hold one sample per parameter"
          }
        }
        break
      case "FOOTER":
        if (auth) {
          if (typeof c.code_expiration_minutes !== "number") return "an authentication FOOTER holds code_expiration_minutes"
        } else if (typeof c.text !== "string" || c.text.length > 60) return "FOOTER text of at most 60 characters"
        break
      case "BUTTONS":
        if (!Array.isArray(c.buttons) || c.buttons.length === 0 || c.buttons.length > 10) return "BUTTONS holds 1 to 10 buttons"
        for (const b of c.buttons) {
          if (auth ? b.type !== "OTP" : !["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE"].includes(b.type)) return `button type ${b.type}`
          if (b.type === "URL" && typeof b.url !== "string") return "URL button url"
          if (b.type === "PHONE_NUMBER" && typeof b.phone_number !== "string") return "PHONE_NUMBER button phone_number"
          if (b.type === "COPY_CODE" && typeof b.example !== "string") return "COPY_CODE button example"
          if (b.type === "OTP" && b.otp_type !== "COPY_CODE") return "OTP button otp_type"
          if (b.type !== "COPY_CODE" && typeof b.text !== "string") return "button text"
        }
        break
      default:
        return `component type ${c?.type}`
    }
  }
  return undefined
}

/** An answer of the fake: its status and JSON body. */
export interface FakeAnswer {
  /** The HTTP status. */
  readonly status: number
  /** The JSON body. */
  readonly body: unknown
}

const errorBody = (code: number, message: string, subcode?: number, userMessage?: string) => ({
  error: {
    message,
    type: "OAuthException",
    code,
    ...(subcode === undefined ? {} : { error_subcode: subcode }),
    ...(userMessage === undefined ? {} : { error_user_title: "Invalid template", error_user_msg: userMessage }),
    fbtrace_id: "AbCdEf123"
  }
})

const TEMPLATES_PATH = /^\/v[0-9.]+\/([0-9]+)\/message_templates(\?.*)?$/

/**
 * The answer to a template call (`POST` or `GET /<version>/<waba_id>/message_templates`), or
 * undefined for any other call. A creation is checked (`templateCreationProblem`), refused when
 * the account has the name in that language already (Meta's subcode 2388024), and answered
 * `{ id, status: "PENDING", category }`; a read answers `{ data, paging }`, `limit` templates a
 * page (25 by default) from the `after` cursor, with `paging.next` while more follow.
 */
export const templateCall = (
  method: string | undefined,
  path: string,
  raw: string,
  templates: Map<string, FakeTemplate>,
  origin: string
): FakeAnswer | undefined => {
  const match = TEMPLATES_PATH.exec(path)
  if (match === null) return undefined
  const wabaId = match[1]!
  if (method === "POST") {
    let json: any
    try {
      json = JSON.parse(raw)
    } catch {
      return { status: 400, body: errorBody(100, "Invalid JSON") }
    }
    const problem = templateCreationProblem(json)
    if (problem !== undefined) {
      return { status: 400, body: errorBody(100, `(#100) Invalid parameter`, 2388040, `The template is not valid: ${problem}.`) }
    }
    const taken = [...templates.values()].some((t) => t.wabaId === wabaId && t.name === json.name && t.language === json.language)
    if (taken) {
      return {
        status: 400,
        body: errorBody(100, "Invalid parameter", 2388024, `Content in this language already exists: ${json.name} (${json.language}).`)
      }
    }
    const id = String(1689556908129832 + templates.size)
    templates.set(id, {
      id,
      wabaId,
      name: json.name,
      language: json.language,
      category: json.category,
      status: "PENDING",
      rejectedReason: "NONE",
      components: json.components
    })
    return { status: 200, body: { id, status: "PENDING", category: json.category } }
  }
  if (method === "GET") {
    const query = new URLSearchParams(match[2]?.slice(1) ?? "")
    const limit = Math.max(1, Number(query.get("limit") ?? 25))
    const all = [...templates.values()].filter((t) => t.wabaId === wabaId)
    const start = query.has("after") ? all.findIndex((t) => t.id === query.get("after")) + 1 : 0
    const page = all.slice(start, start + limit)
    const data = page.map((t) => ({
      name: t.name,
      components: t.components,
      language: t.language,
      status: t.status,
      category: t.category,
      id: t.id,
      ...(t.status === "REJECTED" ? { rejected_reason: t.rejectedReason } : {})
    }))
    const more = start + limit < all.length
    const cursors = page.length === 0 ? {} : { before: page[0]!.id, after: page[page.length - 1]!.id }
    const next = new URLSearchParams(query)
    if (page.length > 0) next.set("after", page[page.length - 1]!.id)
    return {
      status: 200,
      body: {
        data,
        paging: { cursors, ...(more ? { next: `${origin}/v21.0/${wabaId}/message_templates?${next}` } : {}) }
      }
    }
  }
  return { status: 400, body: errorBody(100, "Unsupported request") }
}
