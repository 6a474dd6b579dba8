import { WebhookTransport, type WebhookResponse } from "@wasl/core/Webhooks"
import { Clock, DateTime, Duration, Effect, Layer, Option } from "effect"
import { MemoryReceivers } from "./memory-receivers.ts"

/** How much of an answer's body is kept, as WebhookTransportHttp keeps it. */
const RESPONSE_EXCERPT_BYTES = 4096

/** The first 4 KiB of a body, cut as bytes and read back as UTF-8 (as node's Buffer does). */
const excerpt = (body: string): string => {
  const bytes = new TextEncoder().encode(body)
  return bytes.length <= RESPONSE_EXCERPT_BYTES ? body : new TextDecoder().decode(bytes.subarray(0, RESPONSE_EXCERPT_BYTES))
}

/**
 * `WebhookTransport` without a network: each request goes to `MemoryReceivers` (a registered
 * receiver, a scripted answer, or a refused connection), under the request's own timeout on
 * Effect's `Clock` — so a scripted answer that sleeps times out under `TestClock` too. The answer
 * keeps the first 4 KiB of its body; its duration is measured on the Clock (replacing a scripted
 * answer's own `durationMillis`: a script that wants to be slow sleeps). Every exchange is
 * recorded in `MemoryReceivers`. Like every transport, it never fails.
 */
export const WebhookTransportMemory: Layer.Layer<WebhookTransport, never, MemoryReceivers> = Layer.effect(
  WebhookTransport,
  Effect.gen(function*() {
    const receivers = yield* MemoryReceivers
    return WebhookTransport.of({
      post: (request) =>
        Effect.gen(function*() {
          const started = yield* Clock.currentTimeMillis
          const answer = yield* Effect.timeoutOption(receivers.respond(request), request.timeout)
          const durationMillis = Math.max(0, (yield* Clock.currentTimeMillis) - started)
          const response: WebhookResponse = Option.match(answer, {
            onNone: () => ({
              _tag: "Failed",
              error: `Timed out after ${Math.max(1, Duration.toMillis(request.timeout))} ms.`,
              durationMillis
            }),
            onSome: (answered) =>
              answered._tag === "Answered"
                ? { ...answered, body: excerpt(answered.body), durationMillis }
                : { ...answered, durationMillis }
          })
          yield* receivers.record({ at: DateTime.makeUnsafe(started), request, response })
          return response
        })
    })
  })
)
