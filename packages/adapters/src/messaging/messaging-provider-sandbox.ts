/**
 * The `sandbox` provider (decisions §7): stands in for the recipient's phone. It accepts every
 * number except those whose digits begin with 999 (undeliverable), and appends each request it is
 * given — recipient, template and parameters, the plaintext code included — as one JSON line to
 * the outbox file (`WASL_SANDBOX_OUTBOX`). Rejected requests are written too, marked so, since a
 * real provider sees them as well.
 */
import { type ProviderOutcome, type ProviderRequest, toHex } from "@wasl/core"
import { DateTime, Effect } from "effect"
import { SecureRandom } from "effect/crypto"
import { appendFile, mkdir } from "node:fs/promises"
import { dirname } from "node:path"

/** Numbers the sandbox refuses: their digits start with this. */
export const SANDBOX_UNDELIVERABLE_PREFIX = "999"

export const makeSandboxProvider = (outboxPath: string) =>
  Effect.gen(function*() {
    const random = yield* SecureRandom.SecureRandom
    yield* Effect.promise(() => mkdir(dirname(outboxPath), { recursive: true }))
    return (request: ProviderRequest): Effect.Effect<ProviderOutcome> =>
      Effect.gen(function*() {
        const rejected = request.to.startsWith(SANDBOX_UNDELIVERABLE_PREFIX)
        const messageId = `wamid.sandbox.${toHex(yield* random.randomBytes(12))}`
        const line = {
          at: DateTime.formatIso(yield* DateTime.now),
          outcome: rejected ? "rejected" : "accepted",
          message_id: rejected ? null : messageId,
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
        return rejected
          ? { _tag: "Rejected", reason: "The sandbox does not deliver to numbers starting with 999." }
          : { _tag: "Accepted", messageId }
      })
  })
