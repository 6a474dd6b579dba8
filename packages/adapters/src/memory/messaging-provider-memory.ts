/**
 * The messaging provider of an all-memory deployment: it answers like the `sandbox` provider
 * (sandbox-outcome.ts) for every sending number — there is no network — and keeps each request it
 * is given, the plaintext code included, in `SentMessages`, where a test or an embedder reads what
 * the recipient's phone would have shown. Rejected requests are kept too, as a real provider sees
 * them. A rolled-back transaction does not take a request back: the provider was called.
 */
import { digitsOf, MessagingProvider, type ProviderOutcome, type ProviderRequest } from "@wasl/core"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import { SecureRandom } from "effect/crypto"
import { sandboxOutcome } from "./sandbox-outcome.ts"

/** One request the provider was given, with its answer. */
export interface SentMessage {
  /** When it was given (the Clock's time). */
  readonly at: DateTime.Utc
  readonly request: ProviderRequest
  readonly outcome: ProviderOutcome
}

export class SentMessages extends Context.Service<SentMessages, {
  /** Every request so far, oldest first. */
  readonly all: Effect.Effect<ReadonlyArray<SentMessage>>
  /**
   * The code of the last accepted request to `number` (in any form: `+966 50…`, digits only) that
   * carried one: what the recipient would type into the verify form.
   */
  readonly lastCodeTo: (number: string) => Effect.Effect<Option.Option<string>>
  /** Forgets every request. */
  readonly clear: Effect.Effect<void>
}>()("@wasl/adapters/SentMessages") {}

/** The MessagingProvider and the `SentMessages` it fills; each build starts empty. */
export const MessagingProviderMemory: Layer.Layer<MessagingProvider | SentMessages, never, SecureRandom.SecureRandom> =
  Layer.effectContext(Effect.gen(function*() {
    const random = yield* SecureRandom.SecureRandom
    const sent = yield* Ref.make<ReadonlyArray<SentMessage>>([])
    const provider = MessagingProvider.of({
      send: (request) =>
        Effect.gen(function*() {
          const at = yield* DateTime.now
          const outcome = yield* sandboxOutcome(random, request.to)
          yield* Ref.update(sent, (all) => [...all, { at, request, outcome }])
          return outcome
        })
    })
    const messages = SentMessages.of({
      all: Ref.get(sent),
      lastCodeTo: (number) =>
        Effect.map(Ref.get(sent), (all) => {
          const to = digitsOf(number)
          const last = all.findLast((m) =>
            m.outcome._tag === "Accepted" && m.request.to === to && m.request.code !== undefined
          )
          return Option.fromNullishOr(last?.request.code)
        }),
      clear: Ref.set(sent, [])
    })
    return Context.make(MessagingProvider, provider).pipe(Context.add(SentMessages, messages))
  }))
