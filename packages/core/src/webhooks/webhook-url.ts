/**
 * The webhook URL rule, split in two: the pure part here (https, a valid host
 * that is not an IP literal, at most 2,048 characters) and the resolving part behind the
 * `WebhookUrlGuard` port (every address the host resolves to must be allowed by
 * address-policy.ts, unless the deployment allows private addresses).
 */
import { Context, type Effect } from "effect"
import { isIpLiteral } from "./address-policy.ts"

/** The longest webhook URL, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2048

/** The 422 messages on `URL`. */
export const WebhookUrlMessage: {
  /** The URL is absent or blank. */
  readonly required: string
  /** The URL is not a string. */
  readonly string: string
  /** The URL is longer than `MAX_WEBHOOK_URL_LENGTH`. */
  readonly max: string
  /** The URL does not parse, has credentials, or its host is no valid DNS name. */
  readonly invalid: string
  /** The URL is not https. */
  readonly https: string
  /** The host is an IP address. */
  readonly ipLiteral: string
  /** The host does not resolve. */
  readonly unresolvable: string
  /** The host resolves to an address a webhook may not reach. */
  readonly forbidden: string
} = {
  required: "The URL field is required.",
  string: "The URL field must be a string.",
  max: `The URL field must not be greater than ${MAX_WEBHOOK_URL_LENGTH} characters.`,
  invalid: "The URL field must be a valid URL.",
  https: "The URL field must start with one of the following: https://.",
  ipLiteral: "The URL host must be a domain name, not an IP address.",
  unresolvable: "The URL host could not be resolved.",
  forbidden: "The URL host resolves to an address that is not allowed (private, loopback or reserved)."
} as const

/** A host name as DNS allows it: dot-separated labels of letters, digits and hyphens. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/

/** The parsed URL, or the first message that refuses it (before any name resolution). */
export const checkWebhookUrlSyntax = (url: string): { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly message: string } => {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, message: WebhookUrlMessage.max }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { ok: false, message: WebhookUrlMessage.invalid }
  }
  if (parsed.protocol !== "https:") return { ok: false, message: WebhookUrlMessage.https }
  // Credentials in the URL would be sent as-is to the endpoint; not a valid webhook address.
  if (parsed.username !== "" || parsed.password !== "") return { ok: false, message: WebhookUrlMessage.invalid }
  if (isIpLiteral(parsed.hostname)) return { ok: false, message: WebhookUrlMessage.ipLiteral }
  if (!HOST_NAME.test(parsed.hostname)) return { ok: false, message: WebhookUrlMessage.invalid }
  return { ok: true, url: parsed }
}

/** The result of checking a webhook URL: allowed, or refused with the 422 message for `URL`. */
export type UrlCheck = { readonly _tag: "Allowed" } | { readonly _tag: "Refused"; readonly message: string }

/** What the WebhookUrlGuard port offers (implement this to write an adapter). */
export interface WebhookUrlGuardShape {
  /**
   * Checks a webhook URL at create and update: its syntax (`checkWebhookUrlSyntax`), then every
   * address its host resolves to (`classifyAddress`), unless the deployment allows private ones.
   */
  readonly check: (url: string) => Effect.Effect<UrlCheck>
}

const WebhookUrlGuardBase: Context.ServiceClass<
  WebhookUrlGuard,
  "@wasl/core/WebhookUrlGuard",
  WebhookUrlGuardShape
> = Context.Service<WebhookUrlGuard, WebhookUrlGuardShape>()("@wasl/core/WebhookUrlGuard")

/** Checks a webhook URL before it is stored: its syntax, then the addresses its host resolves to. */
export class WebhookUrlGuard extends WebhookUrlGuardBase {}
