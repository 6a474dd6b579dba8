/**
 * The worker's side of the WhatsApp inbox: claim stored callbacks, handle each with the
 * processing given (the worker gives `processWhatsAppWebhook`), delete the handled ones. A body
 * whose processing dies is retried after a backoff, and after `WHATSAPP_RETRY_DELAYS.length + 1`
 * attempts it is dropped with a log line,
 * so one poison body never holds up the ones behind it (the claim skips it while it waits).
 */
import { Cause, DateTime, Duration, Effect } from "effect"
import { type ClaimedWhatsAppWebhook, WhatsAppInbox } from "../whatsapp/whatsapp-inbox.ts"

/**
 * The waits before a failed body's next attempt, by the attempt that failed: 5 s, 30 s, 2 min,
 * 10 min. The attempt after the last one is the last: about 13 minutes in all, within the hours
 * Meta's own retries of an unanswered callback would take.
 */
export const WHATSAPP_RETRY_DELAYS: ReadonlyArray<Duration.Duration> = [
  Duration.seconds(5),
  Duration.seconds(30),
  Duration.minutes(2),
  Duration.minutes(10)
]

/** The attempts a body gets before it is dropped. */
export const WHATSAPP_MAX_ATTEMPTS: number = WHATSAPP_RETRY_DELAYS.length + 1

/** How one round went, for the worker's metrics. */
export interface WhatsAppDrainResult {
  /** Bodies claimed. */
  readonly claimed: number
  /** Processed and deleted. */
  readonly processed: number
  /** Failed, to be tried again after their backoff. */
  readonly retrying: number
  /** Failed their last attempt: deleted unprocessed. */
  readonly dropped: number
}

/** How a round claims. */
export interface WhatsAppDrainOptions {
  /** Bodies per claim. */
  readonly batch: number
  /** The lease of a claimed body: well above the time one takes to handle. */
  readonly lease: Duration.Duration
  /** Bodies processed at once. */
  readonly concurrency: number
}

type Outcome = "processed" | "retrying" | "dropped"

/** The processing of one stored body, received at `receivedAt`: a defect is a failure to retry. */
export type WhatsAppCallbackProcessing<R> = (body: string, receivedAt: DateTime.Utc) => Effect.Effect<void, never, R>

/**
 * One round: claims up to `batch` bodies, runs `handle` on them (`concurrency` at once), deletes
 * those processed or dropped in one statement and sets the others' retry times. Interrupted, the
 * bodies in hand keep their lease and are claimed again when it runs out.
 */
export const drainWhatsAppInbox = <R>(
  options: WhatsAppDrainOptions,
  handle: WhatsAppCallbackProcessing<R>
): Effect.Effect<WhatsAppDrainResult, never, WhatsAppInbox | R> =>
  Effect.gen(function*() {
    const inbox = yield* WhatsAppInbox
    const claimed = yield* inbox.claim(options.batch, options.lease)
    if (claimed.length === 0) return { claimed: 0, processed: 0, retrying: 0, dropped: 0 }

    const failed = (stored: ClaimedWhatsAppWebhook, cause: Cause.Cause<unknown>) =>
      Effect.gen(function*() {
        const annotations = { whatsapp_webhook_id: stored.id, attempts: stored.attempts }
        if (stored.attempts >= WHATSAPP_MAX_ATTEMPTS) {
          yield* Effect.logError("WhatsApp callback dropped: its processing failed at every attempt", cause).pipe(
            Effect.annotateLogs(annotations)
          )
          return "dropped" as const
        }
        yield* Effect.logWarning("WhatsApp callback processing failed; retrying", cause).pipe(Effect.annotateLogs(annotations))
        const delay = WHATSAPP_RETRY_DELAYS[stored.attempts - 1] ?? WHATSAPP_RETRY_DELAYS[0]!
        yield* inbox.retry(stored.id, DateTime.addDuration(yield* DateTime.now, delay))
        return "retrying" as const
      })

    const outcomes = yield* Effect.forEach(claimed, (stored) =>
      handle(stored.body, stored.receivedAt).pipe(
        Effect.as<Outcome>("processed"),
        Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : failed(stored, cause))
      ), { concurrency: options.concurrency })

    yield* inbox.complete(claimed.filter((_, i) => outcomes[i] !== "retrying").map((stored) => stored.id))
    const count = (outcome: Outcome) => outcomes.filter((o) => o === outcome).length
    return { claimed: claimed.length, processed: count("processed"), retrying: count("retrying"), dropped: count("dropped") }
  })
