/**
 * The outer shape of a WhatsApp Business Account callback: a JSON object whose `object` is
 * `whatsapp_business_account` and whose `entry` is an array. What the receiver checks before it
 * stores a body; what is inside the entries is the processing's to read.
 */
import { Predicate } from "effect"

/** The `object` of every WhatsApp Business Account callback. */
export const WHATSAPP_BUSINESS_ACCOUNT = "whatsapp_business_account"

const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * The body as text when it is UTF-8 JSON of Meta's shape, else undefined (not UTF-8, not JSON,
 * another `object`, no `entry` array). Valid JSON holds no raw control character, so the text is
 * storable as it is.
 */
export const metaWebhookText = (body: Uint8Array): string | undefined => {
  let text: string
  let parsed: unknown
  try {
    text = utf8.decode(body)
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  return Predicate.isObject(parsed) && !Array.isArray(parsed) &&
      (parsed as { object?: unknown }).object === WHATSAPP_BUSINESS_ACCOUNT &&
      Array.isArray((parsed as { entry?: unknown }).entry)
    ? text
    : undefined
}
