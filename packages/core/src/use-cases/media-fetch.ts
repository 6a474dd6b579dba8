/**
 * The media fetch: the files of a received message's attachments, fetched from the channel with the
 * sending number's token into the media store, and each attachment marked `stored` (with its size)
 * or `failed` (too large, gone, or given up on). A channel that cannot answer now leaves the
 * attachment `pending` for a later round, unless the caller gives up.
 */
import { DateTime, Effect, Option } from "effect"
import type { SecretBox } from "../auth/secret-box.ts"
import { providerPlatformOf } from "../messaging/dispatch.ts"
import { MediaStore, mediaKey } from "../messaging/media-store.ts"
import type { Attachment, Message } from "../messaging/message.ts"
import { MessageRepository } from "../messaging/message-repository.ts"
import { MessagingProvider } from "../messaging/messaging-provider.ts"
import { PlatformRepository } from "../messaging/platform-repository.ts"
import { Transactor } from "../transactor.ts"

/** How a round over one message ended: every pending file settled, or some to try again later. */
export type MediaFetchOutcome =
  | { readonly _tag: "Settled" }
  | { readonly _tag: "Retry"; readonly retryAfterSeconds: number }

/** What the media fetch needs. */
export type MediaFetchServices =
  | MediaStore
  | MessageRepository
  | MessagingProvider
  | PlatformRepository
  | SecretBox
  | Transactor

type Settled = Pick<Attachment, "state" | "size">

/**
 * Fetches the message's `pending` attachments, each at most `maxBytes`, and records how each
 * ended on the message as stored now (read again under its lock, so a change made meanwhile, such
 * as its read status, is kept). With `giveUp`, a file the channel cannot give now is `failed`.
 */
export const fetchMessageMedia = (
  message: Message,
  maxBytes: number,
  giveUp: boolean
): Effect.Effect<MediaFetchOutcome, never, MediaFetchServices> =>
  Effect.gen(function*() {
    const settled = new Map<number, Settled>()
    let retryAfter: number | undefined
    const platform = yield* PlatformRepository.use((repo) => repo.findById(message.account_id, message.platform_id))
    const provider = Option.isNone(platform) ? undefined : yield* providerPlatformOf(platform.value)
    for (const [index, attachment] of message.attachments.entries()) {
      if (attachment.state !== "pending") continue
      if (provider === undefined) {
        settled.set(index, { state: "failed", size: null })
        continue
      }
      const outcome = yield* MessagingProvider.use((p) => p.fetchMedia(provider, attachment.media_id, maxBytes))
      switch (outcome._tag) {
        case "Fetched":
          yield* MediaStore.use((store) =>
            store.put(message.account_id, mediaKey(message._id, index), outcome.bytes, outcome.mimeType)
          )
          settled.set(index, { state: "stored", size: outcome.bytes.length })
          break
        case "TooLarge":
        case "Rejected":
          yield* Effect.logWarning("A received file could not be kept.").pipe(
            Effect.annotateLogs({ message_id: message._id, index, reason: outcome._tag === "TooLarge" ? "too large" : outcome.reason })
          )
          settled.set(index, { state: "failed", size: null })
          break
        case "Unavailable":
          if (giveUp) settled.set(index, { state: "failed", size: null })
          else retryAfter = Math.max(retryAfter ?? 0, outcome.retryAfterSeconds)
      }
    }
    if (settled.size > 0) {
      yield* Transactor.use((tx) =>
        tx.transaction(Effect.gen(function*() {
          const fresh = yield* MessageRepository.use((repo) => repo.findByProviderId(message.account_id, message.provider_message_id))
          if (Option.isNone(fresh) || fresh.value._id !== message._id) return
          const now = yield* DateTime.now
          const attachments = fresh.value.attachments.map((a, index) => {
            const done = settled.get(index)
            return done === undefined || a.state !== "pending" ? a : { ...a, ...done }
          })
          yield* MessageRepository.use((repo) => repo.update({ ...fresh.value, attachments, updated_at: now }))
        }))
      )
    }
    return retryAfter === undefined ? { _tag: "Settled" } : { _tag: "Retry", retryAfterSeconds: retryAfter }
  })
