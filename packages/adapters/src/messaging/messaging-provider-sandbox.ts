/** The `sandbox` provider, documented on `makeSandboxProvider`. */
import type { ProviderOutcome, ProviderRequest } from "@wasl/core"
import { DateTime, Effect } from "effect"
import { SecureRandom } from "effect/crypto"
import { appendFile, mkdir } from "node:fs/promises"
import { dirname } from "node:path"
import { sandboxOutcome } from "../memory/sandbox-outcome.ts"

/**
 * The `sandbox` provider: stands in for the recipient's phone. It accepts every number except
 * those whose digits begin with 999 (undeliverable), and appends each request it is given —
 * recipient, template and parameters, the plaintext code included — as one JSON line to the outbox
 * file (`WASL_SANDBOX_OUTBOX`). Rejected requests are written too, marked so, since a real
 * provider sees them as well. Yields the send function; `MessagingProviderLive` uses it.
 */
export const makeSandboxProvider = (
  outboxPath: string
): Effect.Effect<(request: ProviderRequest) => Effect.Effect<ProviderOutcome>, never, SecureRandom.SecureRandom> =>
  Effect.gen(function*() {
    const random = yield* SecureRandom.SecureRandom
    yield* Effect.promise(() => mkdir(dirname(outboxPath), { recursive: true }))
    return (request: ProviderRequest): Effect.Effect<ProviderOutcome> =>
      Effect.gen(function*() {
        const outcome = yield* sandboxOutcome(random, request.to)
        const line = {
          at: DateTime.formatIso(yield* DateTime.now),
          outcome: outcome._tag === "Accepted" ? "accepted" : "rejected",
          message_id: outcome._tag === "Accepted" ? outcome.messageId : null,
          from: request.platform.displayPhoneNumber,
          to: request.to,
          template: request.template,
          code: request.code ?? null,
          offer_code: request.offerCode ?? null,
          header_media: request.headerMedia === undefined ? null : {
            format: request.headerMedia.format,
            filename: request.headerMedia.filename,
            content_type: request.headerMedia.contentType,
            size: request.headerMedia.bytes.length
          }
        }
        yield* Effect.promise(() => appendFile(outboxPath, JSON.stringify(line) + "\n", "utf8"))
        return outcome
      })
  })
