/** The `sandbox` provider, documented on `makeSandboxProvider`. */
import {
  digitsOf,
  type MessagingProviderShape,
  type ProviderOutcome,
  type ProviderPlatform,
  UNKNOWN_HEALTH
} from "@wasl/core/Messaging"
import { DateTime, Effect } from "effect"
import { SecureRandom } from "effect/crypto"
import { appendFile, mkdir } from "node:fs/promises"
import { dirname } from "node:path"
import { sandboxOutcome } from "../memory/sandbox-outcome.ts"
import { sandboxStatusBody } from "./sandbox-webhook-bodies.ts"

/** Where the sandbox hands the callbacks Meta would send: the WhatsApp inbox's `insert`. */
export type SandboxCallbacks = (body: string, receivedAt: DateTime.Utc) => Effect.Effect<void>

/**
 * The `sandbox` provider: stands in for the recipient's phone. It accepts every number except
 * those whose digits begin with 999 (undeliverable), and appends each request it is given —
 * recipient, template and parameters (the values of its variables), the plaintext code included, or the text — as one JSON line
 * to the outbox file (`WASL_SANDBOX_OUTBOX`). Rejected requests are written too, marked so, since
 * a real provider sees them as well. Read receipts are written as lines of their own; it holds no
 * media.
 *
 * With `callbacks` (the WhatsApp inbox), each accepted message is walked through `sent`,
 * `delivered` and `read` at once, by handing the inbox the three status callbacks Meta would send,
 * so the statuses travel the same path as Meta's (with the request's tracking string as their
 * `biz_opaque_callback_data`). Yields the provider; `MessagingProviderLive`
 * uses it for the numbers whose provider is `sandbox`.
 */
export const makeSandboxProvider = (
  outboxPath: string,
  callbacks?: SandboxCallbacks
): Effect.Effect<MessagingProviderShape, never, SecureRandom.SecureRandom> =>
  Effect.gen(function*() {
    const random = yield* SecureRandom.SecureRandom
    yield* Effect.promise(() => mkdir(dirname(outboxPath), { recursive: true }))
    const write = (line: Record<string, unknown>) =>
      Effect.gen(function*() {
        const at = yield* DateTime.now
        yield* Effect.promise(() => appendFile(outboxPath, JSON.stringify({ at: DateTime.formatIso(at), ...line }) + "\n", "utf8"))
      })
    const walk = (platform: ProviderPlatform, to: string, outcome: ProviderOutcome, tracking: string | undefined) =>
      Effect.gen(function*() {
        if (callbacks === undefined || outcome._tag !== "Accepted") return
        const number = { digits: digitsOf(platform.displayPhoneNumber) }
        const at = yield* DateTime.now
        for (const status of ["sent", "delivered", "read"] as const) {
          yield* callbacks(sandboxStatusBody(number, outcome.messageId, to, status, at, tracking), at)
        }
      })
    const answer = (platform: ProviderPlatform, to: string, line: Record<string, unknown>, tracking?: string) =>
      Effect.gen(function*() {
        const outcome = yield* sandboxOutcome(random, to)
        yield* write({
          outcome: outcome._tag === "Accepted" ? "accepted" : "rejected",
          message_id: outcome._tag === "Accepted" ? outcome.messageId : null,
          from: platform.displayPhoneNumber,
          to,
          ...line
        })
        yield* walk(platform, to, outcome, tracking)
        return outcome
      })
    return {
      send: (request) =>
        answer(request.platform, request.to, {
          template: request.template,
          code: request.code ?? null,
          offer_code: request.offerCode ?? null,
          parameters: request.parameters ?? null,
          header_media: request.headerMedia === undefined ? null : {
            format: request.headerMedia.format,
            filename: request.headerMedia.filename,
            content_type: request.headerMedia.contentType,
            size: request.headerMedia.bytes.length
          }
        }, request.tracking),
      sendText: (platform, to, text) => answer(platform, to, { text }),
      markRead: (platform, providerMessageId) =>
        Effect.as(write({ read: providerMessageId, from: platform.displayPhoneNumber }), { _tag: "Marked" } as const),
      fetchMedia: () => Effect.succeed({ _tag: "Rejected", reason: "The sandbox holds no media." } as const),
      // No Meta number stands behind a sandbox number: nothing verified it or rated it.
      readNumber: () => Effect.succeed({ _tag: "Read", health: UNKNOWN_HEALTH } as const)
    }
  })
