/**
 * The worker's media fetch: one round takes a batch of received messages with files still to
 * fetch (the `MediaBacklog`, oldest first) and fetches them (`fetchMessageMedia`). A message whose
 * channel could not answer waits out the channel's Retry-After before its next try, and after
 * `maxAttempts` tries its files are given up (`failed`). Tries are counted by this worker: one that
 * restarts gives each waiting file its tries again, so a file is tried a bounded number of times
 * per worker run.
 */
import {
  DEFAULT_MEDIA_MAX_BYTES,
  fetchMessageMedia,
  MediaBacklog,
  type MediaFetchServices
} from "@wasl/core/Messaging"
import { Clock, Duration, Effect } from "effect"

/** How the media fetch runs. Every field has a default. */
export interface MediaFetchOptions {
  /** `WASL_MEDIA_MAX_BYTES`: the largest file kept. Default 16 MiB (`DEFAULT_MEDIA_MAX_BYTES`). */
  readonly maxBytes?: number | undefined
  /** Messages per round. Default 16. */
  readonly batch?: number | undefined
  /** Tries of a message whose channel cannot answer, before its files are given up. Default 5. */
  readonly maxAttempts?: number | undefined
}

/** What a round of the media fetch needs. */
export type MediaFetchLoopServices = MediaBacklog | MediaFetchServices

/**
 * A round of the media fetch (see the module), made once per call; the state of the waiting
 * messages is kept between the rounds of one `makeMediaFetchRound`. Answers how many messages it
 * took: a full batch means there may be more now.
 */
export const makeMediaFetchRound = (
  options: MediaFetchOptions = {}
): Effect.Effect<Effect.Effect<number, never, MediaFetchLoopServices>> =>
  Effect.sync(() => {
    const maxBytes = options.maxBytes ?? DEFAULT_MEDIA_MAX_BYTES
    const batch = options.batch ?? 16
    const maxAttempts = options.maxAttempts ?? 5
    const waiting = new Map<string, { readonly attempts: number; readonly until: number }>()
    return Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const skip = [...waiting].filter(([, w]) => w.until > now).map(([id]) => id)
      const messages = yield* MediaBacklog.use((backlog) => backlog.pending(batch, skip))
      for (const message of messages) {
        const attempts = (waiting.get(message._id)?.attempts ?? 0) + 1
        const outcome = yield* fetchMessageMedia(message, maxBytes, attempts >= maxAttempts)
        if (outcome._tag === "Retry") {
          waiting.set(message._id, { attempts, until: now + Duration.toMillis(Duration.seconds(outcome.retryAfterSeconds)) })
        } else {
          waiting.delete(message._id)
        }
      }
      return messages.length
    })
  })
