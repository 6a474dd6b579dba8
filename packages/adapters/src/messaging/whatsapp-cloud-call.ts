/**
 * One call to the WhatsApp Cloud API and what its answer means for the MessagingProvider port:
 * shared by the `whatsapp_cloud` provider's sends, read receipts and media fetches.
 */
import type { ProviderPlatform, ProviderRejected, ProviderUnavailable } from "@wasl/core/Messaging"
import { Duration, Effect } from "effect"

/** The WhatsApp Cloud API's base URL when `WASL_WHATSAPP_GRAPH_URL` is not set. */
export const DEFAULT_GRAPH_URL = "https://graph.facebook.com/v21.0"
/** How long one call may take, the answer's body included. */
export const REQUEST_TIMEOUT: Duration.Duration = Duration.seconds(15)

/** Codes after which the same request can never succeed. */
const REJECTED_CODES = new Set([
  100, 131008, 131009, 131021, 131026, 131030, 131047, 131051, 131052, 131053,
  132000, 132001, 132005, 132007, 132012, 132015, 132016, 133010
])
/** Codes that mean "not now": rate limits and throttling. */
const THROTTLED_CODES = new Set([4, 80007, 130429, 131048, 131056])

const RATE_LIMIT_RETRY_SECONDS = 60
/** How long to wait after an outage or a network failure. */
export const OUTAGE_RETRY_SECONDS = 30

/** What an HTTP answer of the Cloud API means for the send. */
export const classifyCloudError = (httpStatus: number, code: number | undefined): ProviderRejected | ProviderUnavailable => {
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

/** A Cloud API answer: its status and parsed JSON body; undefined after a network failure or timeout. */
export type CloudAnswer = { readonly status: number; readonly body: any } | undefined

/** One Cloud API call with the request timeout; never fails (a network failure is `undefined`). */
export const cloudCall = (url: string, init: RequestInit): Effect.Effect<CloudAnswer> =>
  Effect.promise(async (): Promise<CloudAnswer> => {
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

/** What a failed call means: rejected for good, or not now. */
export const cloudFailure = (answer: CloudAnswer): ProviderRejected | ProviderUnavailable => {
  if (answer === undefined) {
    return { _tag: "Unavailable", reason: "WhatsApp Cloud API unreachable", retryAfterSeconds: OUTAGE_RETRY_SECONDS }
  }
  const code = answer.body?.error?.code
  return classifyCloudError(answer.status, typeof code === "number" ? code : undefined)
}

/** The number's phone id and token, or why it cannot call the API. */
export const cloudCredentials = (
  platform: ProviderPlatform
): { readonly phoneId: string; readonly authorization: string } | ProviderUnavailable =>
  platform.phoneId === null || platform.accessToken === null
    ? {
      _tag: "Unavailable",
      reason: "The sending number has no phone_id or access token.",
      retryAfterSeconds: OUTAGE_RETRY_SECONDS
    }
    : { phoneId: platform.phoneId, authorization: `Bearer ${platform.accessToken}` }

