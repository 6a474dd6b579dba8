/**
 * Applying Meta's `phone_number_quality_update` callbacks (whatsapp/number-quality-update.ts):
 * each sets the messaging limit tier of the `whatsapp_cloud` numbers registered with both its
 * WhatsApp Business Account and its display number, the only pair that names one number (a WABA
 * id alone could be another account's). Idempotent: a retry sets the same tier again.
 */
import { Effect } from "effect"
import { PlatformRepository } from "../messaging/platform-repository.ts"
import { parseNumberQualityUpdates } from "../whatsapp/number-quality-update.ts"

/** What applying a body's quality callbacks did. */
export interface NumberQualitySummary {
  /** Callbacks applied to at least one registered number. */
  readonly applied: number
  /** Callbacks about a number no account registered with that WABA: dropped. */
  readonly unknownNumbers: number
  /** Callbacks of the field that were not of Meta's shape. */
  readonly malformed: number
}

/** Applies the `phone_number_quality_update` changes of one stored webhook body (its raw text). Never fails. */
export const applyNumberQualityUpdates: (
  body: string
) => Effect.Effect<NumberQualitySummary, never, PlatformRepository> = Effect.fn("applyNumberQualityUpdates")(
  function*(body: string) {
    const { updates, malformed } = parseNumberQualityUpdates(body)
    let applied = 0
    for (const update of updates) {
      const changed = yield* PlatformRepository.use((repo) => repo.setLimitTier(update.wabaId, update.displayDigits, update.tier))
      if (changed.length > 0) applied++
    }
    return { applied, unknownNumbers: updates.length - applied, malformed }
  }
)
