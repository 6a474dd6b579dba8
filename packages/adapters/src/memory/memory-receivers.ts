import { answerWebhookRequest, type WebhookRequest, type WebhookResponse } from "@wasl/core/Webhooks"
import { Context, DateTime, Effect, Latch, Layer } from "effect"

/** What a scripted URL answers: always the same, or computed per request (it may take its time). */
export type ScriptedAnswer = WebhookResponse | ((request: WebhookRequest) => Effect.Effect<WebhookResponse>)

/** One request `WebhookTransportMemory` sent, when, and how it was answered. */
export interface SentRequest {
  /** When it was sent (the Clock's time). */
  readonly at: DateTime.Utc
  /** The request: URL, headers (signature included) and body. */
  readonly request: WebhookRequest
  /** Its answer as the transport reported it (a refused connection and a timeout are `Failed`). */
  readonly response: WebhookResponse
}

/** What `MemoryReceivers` offers: the receivers, the scripted answers and the log of requests. */
export interface MemoryReceiversService {
  /**
   * A receiver at `url` that holds `secret` and answers as a correct endpoint does (core's
   * `answerWebhookRequest`): the validation challenge with the right signature, a delivery whose
   * signature verifies with 200, anything else with 401.
   */
  readonly register: (url: string, secret: string) => Effect.Effect<void>
  /** No receiver at `url` any more: requests to it are refused connections again. */
  readonly unregister: (url: string) => Effect.Effect<void>
  /** Every request to `url` gets `answer` instead, registered receiver or not, until `unscript`. */
  readonly script: (url: string, answer: ScriptedAnswer) => Effect.Effect<void>
  /** `url` answers as before its script again (its receiver, or a refused connection). */
  readonly unscript: (url: string) => Effect.Effect<void>
  /** What `url` answers `request` now: its script, else its receiver, else a refused connection. */
  readonly respond: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
  /** Adds an exchange to the log (the transport does, once the request is answered). */
  readonly record: (sent: SentRequest) => Effect.Effect<void>
  /** Every request sent so far, oldest first. */
  readonly sent: Effect.Effect<ReadonlyArray<SentRequest>>
  /** Waits until at least `count` requests have been sent in all; answers the log then. */
  readonly awaitSent: (count: number) => Effect.Effect<ReadonlyArray<SentRequest>>
}

const refused = (url: string): WebhookResponse => {
  let host = url
  try {
    host = new URL(url).hostname
  } catch {
    // Not a URL: named as given.
  }
  return { _tag: "Failed", error: `Connection refused by ${host}.`, durationMillis: 0 }
}

const MemoryReceiversBase: Context.ServiceClass<MemoryReceivers, "@wasl/adapters/MemoryReceivers", MemoryReceiversService> =
  Context.Service<MemoryReceivers, MemoryReceiversService>()("@wasl/adapters/MemoryReceivers")

/**
 * The webhook endpoints an all-in-memory deployment can reach: a registry of receivers
 * (`url → secret`), answers scripted per URL for tests, and the log of every request sent. A URL
 * with neither refuses the connection, as an address with nothing listening does.
 * `WebhookTransportMemory` sends through it; `WaslMemory.layer` provides it. Not part of the
 * store: what was sent stays sent when a transaction rolls back.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { MemoryReceivers } from "@wasl/adapters/memory"
 *
 * const receiver = Effect.gen(function*() {
 *   const receivers = yield* MemoryReceivers
 *   // A correct endpoint: it answers the validation challenge and accepts signed deliveries.
 *   yield* receivers.register("https://hooks.acme.test/wasl", "the webhook's secret")
 *   // An endpoint that is down: every request gets a 503.
 *   yield* receivers.script("https://down.acme.test/wasl", { _tag: "Answered", status: 503, body: "", durationMillis: 0 })
 *   // ... run the deliveries, then wait for the first two requests and read them.
 *   const sent = yield* receivers.awaitSent(2)
 *   return sent.map(({ request, response }) => [request.url, response._tag])
 * })
 * ```
 */
export class MemoryReceivers extends MemoryReceiversBase {
  /** No receivers, no scripts, an empty log. */
  static readonly layer: Layer.Layer<MemoryReceivers> = Layer.sync(MemoryReceivers, () => {
    const secrets = new Map<string, string>()
    const scripts = new Map<string, ScriptedAnswer>()
    const log: Array<SentRequest> = []
    const logged = Latch.makeUnsafe(false)

    const respond = (request: WebhookRequest): Effect.Effect<WebhookResponse> =>
      Effect.suspend(() => {
        const script = scripts.get(request.url)
        if (script !== undefined) return typeof script === "function" ? script(request) : Effect.succeed(script)
        const secret = secrets.get(request.url)
        if (secret === undefined) return Effect.succeed(refused(request.url))
        return Effect.flatMap(DateTime.now, (now) =>
          Effect.map(
            answerWebhookRequest(secret, request, now),
            (answer): WebhookResponse => ({ _tag: "Answered", status: answer.status, body: answer.body, durationMillis: 0 })
          ))
      })

    const awaitSent = (count: number): Effect.Effect<ReadonlyArray<SentRequest>> =>
      Effect.suspend(() => {
        if (log.length >= count) return Effect.succeed([...log])
        Latch.closeUnsafe(logged)
        return Effect.andThen(logged.await, awaitSent(count))
      })

    return MemoryReceivers.of({
      register: (url, secret) => Effect.sync(() => void secrets.set(url, secret)),
      unregister: (url) => Effect.sync(() => void secrets.delete(url)),
      script: (url, answer) => Effect.sync(() => void scripts.set(url, answer)),
      unscript: (url) => Effect.sync(() => void scripts.delete(url)),
      respond,
      record: (sent) =>
        Effect.sync(() => {
          log.push(sent)
          Latch.openUnsafe(logged)
        }),
      sent: Effect.sync(() => [...log]),
      awaitSent
    })
  })
}
