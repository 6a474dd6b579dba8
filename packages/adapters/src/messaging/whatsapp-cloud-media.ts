/**
 * A received message's media from the WhatsApp Cloud API: `GET {graph}/{media_id}` answers the
 * file's short-lived URL, size and type, then `GET <url>` with the same bearer token gives the
 * bytes. The file is read as it streams and dropped once it passes the limit, so a large file
 * never sits in memory whole.
 *
 * The token goes only to a URL Meta's answer names over HTTPS, or to the configured Graph API's own
 * origin (a local stand-in in tests): an answer pointing anywhere else is refused rather than
 * followed, and redirects are never followed.
 */
import type { MediaOutcome, ProviderPlatform } from "@wasl/core/Messaging"
import { Duration, Effect } from "effect"
import { cloudCall, cloudCredentials, cloudFailure, OUTAGE_RETRY_SECONDS, REQUEST_TIMEOUT } from "./whatsapp-cloud-call.ts"

/** Whether the media URL of an answer may be given the token. */
const allowedMediaUrl = (url: string, graphBase: string): boolean => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === "https:" || parsed.origin === new URL(graphBase).origin
  } catch {
    return false
  }
}

/** Reads a response body up to `maxBytes`; undefined when it is longer. */
const readLimited = async (response: Response, maxBytes: number): Promise<Uint8Array | undefined> => {
  if (response.body === null) return new Uint8Array(0)
  const reader = response.body.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > maxBytes) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  return bytes
}

/** The file at `url`; its type is the one the media's description gave, else the answer's. */
const download = (url: string, authorization: string, maxBytes: number, mimeType: string | undefined): Effect.Effect<MediaOutcome> =>
  Effect.promise(async (): Promise<MediaOutcome> => {
    try {
      const response = await fetch(url, {
        headers: { authorization },
        redirect: "manual",
        signal: AbortSignal.timeout(Duration.toMillis(REQUEST_TIMEOUT))
      })
      if (response.status >= 300) {
        await response.body?.cancel()
        return cloudFailure({ status: response.status, body: undefined })
      }
      const bytes = await readLimited(response, maxBytes)
      if (bytes === undefined) return { _tag: "TooLarge" }
      return { _tag: "Fetched", bytes, mimeType: mimeType ?? response.headers.get("content-type") ?? "application/octet-stream" }
    } catch {
      return { _tag: "Unavailable", reason: "WhatsApp media unreachable", retryAfterSeconds: OUTAGE_RETRY_SECONDS }
    }
  })

/** The media `mediaId` of the number `platform`, read up to `maxBytes`, from the Graph API at `base`. */
export const fetchCloudMedia = (
  base: string,
  platform: ProviderPlatform,
  mediaId: string,
  maxBytes: number
): Effect.Effect<MediaOutcome> =>
  Effect.gen(function*() {
    const credentials = cloudCredentials(platform)
    if ("_tag" in credentials) return credentials
    const query = new URLSearchParams({ phone_number_id: credentials.phoneId })
    const answer = yield* cloudCall(`${base}/${encodeURIComponent(mediaId)}?${query}`, {
      headers: { authorization: credentials.authorization }
    })
    const url = answer?.body?.url
    if (answer === undefined || answer.status >= 300 || typeof url !== "string") return cloudFailure(answer)
    if (typeof answer.body.file_size === "number" && answer.body.file_size > maxBytes) return { _tag: "TooLarge" }
    if (!allowedMediaUrl(url, base)) {
      return { _tag: "Rejected", reason: "The WhatsApp Cloud API named a media URL that is not HTTPS." }
    }
    const mimeType = typeof answer.body.mime_type === "string" ? answer.body.mime_type : undefined
    return yield* download(url, credentials.authorization, maxBytes, mimeType)
  })
