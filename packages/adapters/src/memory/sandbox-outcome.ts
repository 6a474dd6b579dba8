/**
 * How the `sandbox` provider answers, shared by the file-writing sandbox and the
 * memory provider: every number is accepted except those whose digits begin with 999, which are
 * undeliverable; an accepted message gets the id `wamid.sandbox.<24 hex digits>`.
 */
import type { ProviderOutcome } from "@wasl/core/Messaging"
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"

/** Numbers the sandbox refuses: their digits start with this. */
export const SANDBOX_UNDELIVERABLE_PREFIX = "999"

/** The sandbox's answer to a request to `to` (digits only, as a ProviderRequest holds it). */
export const sandboxOutcome = (random: SecureRandom.SecureRandom["Service"], to: string): Effect.Effect<ProviderOutcome> =>
  to.startsWith(SANDBOX_UNDELIVERABLE_PREFIX)
    ? Effect.succeed({ _tag: "Rejected", reason: "The sandbox does not deliver to numbers starting with 999." })
    : Effect.map(random.randomBytes(12), (bytes) => ({ _tag: "Accepted", messageId: `wamid.sandbox.${Hex.encode(bytes)}` }))
