/**
 * The messaging provider of an all-memory deployment: it answers like the `sandbox` provider
 * (sandbox-outcome.ts) for every sending number — there is no network — and keeps each request it
 * is given, the plaintext code included, in `SentMessages`, where a test or an embedder reads what
 * the recipient's phone would have shown. Rejected requests are kept too, as a real provider sees
 * them. A rolled-back transaction does not take a request back: the provider was called. Free-form
 * texts and read receipts are kept beside them; media is what a test offered (`offerMedia`).
 */
import {
  digitsOf,
  type MediaOutcome,
  MessagingProvider,
  type ProviderOutcome,
  type ProviderPlatform,
  type ProviderRequest,
  UNKNOWN_HEALTH
} from "@wasl/core/Messaging"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import { SecureRandom } from "effect/crypto"
import { sandboxOutcome } from "./sandbox-outcome.ts"

/** One request the provider was given, with its answer. */
export interface SentMessage {
  /** When it was given (the Clock's time). */
  readonly at: DateTime.Utc
  /** The request: sending number, recipient (digits only), template, and the code if any. */
  readonly request: ProviderRequest
  /** How the provider answered: accepted with a message id, or rejected. */
  readonly outcome: ProviderOutcome
}

/** One free-form text the provider was given, with its answer. */
export interface SentText {
  /** When it was given (the Clock's time). */
  readonly at: DateTime.Utc
  /** The sending number. */
  readonly platform: ProviderPlatform
  /** The recipient's digits. */
  readonly to: string
  /** The text. */
  readonly text: string
  /** How the provider answered. */
  readonly outcome: ProviderOutcome
}

/** What `SentMessages` offers. */
export interface SentMessagesShape {
  /** Every template request so far, oldest first. */
  readonly all: Effect.Effect<ReadonlyArray<SentMessage>>
  /** Every free-form text so far, oldest first. */
  readonly texts: Effect.Effect<ReadonlyArray<SentText>>
  /** The provider message ids marked read so far, oldest first. */
  readonly reads: Effect.Effect<ReadonlyArray<string>>
  /** Makes `fetchMedia(_, mediaId, _)` answer these bytes from now on. */
  readonly offerMedia: (mediaId: string, bytes: Uint8Array, mimeType: string) => Effect.Effect<void>
  /**
   * The code of the last accepted request to `number` (in any form: `+966 50…`, digits only) that
   * carried one: what the recipient would type into the verify form.
   */
  readonly lastCodeTo: (number: string) => Effect.Effect<Option.Option<string>>
  /** Forgets every request, text and read receipt. */
  readonly clear: Effect.Effect<void>
}

const SentMessagesBase: Context.ServiceClass<SentMessages, "@wasl/adapters/SentMessages", SentMessagesShape> =
  Context.Service<SentMessages, SentMessagesShape>()("@wasl/adapters/SentMessages")

/**
 * The WhatsApp messages `MessagingProviderMemory` was asked to send, oldest first, the plaintext
 * codes included: what the recipient's phone would have shown. `WaslMemory.layer` and
 * `MessagingProviderMemory` provide it. Every number is accepted but those whose digits start with
 * `999` (`SANDBOX_UNDELIVERABLE_PREFIX`), which are rejected, as the `sandbox` provider does.
 *
 * @example
 * ```ts
 * import { Effect, Option } from "effect"
 * import { SentMessages } from "@wasl/adapters/memory"
 *
 * // After an OTP send to +966 50 123 4567: the code to type into the verify form.
 * const code = Effect.flatMap(
 *   SentMessages.use((sent) => sent.lastCodeTo("+966 50 123 4567")),
 *   Option.match({ onNone: () => Effect.die("no code was sent"), onSome: Effect.succeed })
 * )
 * ```
 */
export class SentMessages extends SentMessagesBase {}

/**
 * `MessagingProvider` without a network, and the `SentMessages` it fills; each build starts empty.
 * It answers like the `sandbox` provider for every sending number. Needs `SecureRandom` for the
 * message ids.
 */
export const MessagingProviderMemory: Layer.Layer<MessagingProvider | SentMessages, never, SecureRandom.SecureRandom> =
  Layer.effectContext(Effect.gen(function*() {
    const random = yield* SecureRandom.SecureRandom
    const sent = yield* Ref.make<ReadonlyArray<SentMessage>>([])
    const texts = yield* Ref.make<ReadonlyArray<SentText>>([])
    const reads = yield* Ref.make<ReadonlyArray<string>>([])
    const media = new Map<string, { readonly bytes: Uint8Array; readonly mimeType: string }>()
    const provider = MessagingProvider.of({
      send: (request) =>
        Effect.gen(function*() {
          const at = yield* DateTime.now
          const outcome = yield* sandboxOutcome(random, request.to)
          yield* Ref.update(sent, (all) => [...all, { at, request, outcome }])
          return outcome
        }),
      sendText: (platform, to, text) =>
        Effect.gen(function*() {
          const at = yield* DateTime.now
          const outcome = yield* sandboxOutcome(random, to)
          yield* Ref.update(texts, (all) => [...all, { at, platform, to, text, outcome }])
          return outcome
        }),
      markRead: (_platform, id) => Effect.as(Ref.update(reads, (all) => [...all, id]), { _tag: "Marked" } as const),
      fetchMedia: (_platform, mediaId, maxBytes) =>
        Effect.sync((): MediaOutcome => {
          const file = media.get(mediaId)
          if (file === undefined) return { _tag: "Rejected", reason: "No such media." }
          if (file.bytes.length > maxBytes) return { _tag: "TooLarge" }
          return { _tag: "Fetched", bytes: file.bytes, mimeType: file.mimeType }
        }),
      readNumber: () => Effect.succeed({ _tag: "Read", health: UNKNOWN_HEALTH } as const)
    })
    const messages = SentMessages.of({
      all: Ref.get(sent),
      texts: Ref.get(texts),
      reads: Ref.get(reads),
      offerMedia: (mediaId, bytes, mimeType) => Effect.sync(() => void media.set(mediaId, { bytes, mimeType })),
      lastCodeTo: (number) =>
        Effect.map(Ref.get(sent), (all) => {
          const to = digitsOf(number)
          const last = all.findLast((m) =>
            m.outcome._tag === "Accepted" && m.request.to === to && m.request.code !== undefined
          )
          return Option.fromNullishOr(last?.request.code)
        }),
      clear: Effect.andThen(Ref.set(sent, []), Effect.andThen(Ref.set(texts, []), Ref.set(reads, [])))
    })
    return Context.make(MessagingProvider, provider).pipe(Context.add(SentMessages, messages))
  }))
