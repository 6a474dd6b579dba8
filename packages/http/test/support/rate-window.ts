/**
 * Rate limits count in fixed windows (`windowAt`), so a test that counts up to a limit in real
 * time fails when a window ends half-way through (the count starts over). Tests that need their
 * requests in one window first wait, when the current window is about to end, for the next one.
 */
import { windowAt } from "@wasl/core/Auth"
import { Duration } from "effect"

/**
 * Resolves once at least `room` is left of the current window of length `window` (one minute
 * unless told): at once, or when the next window starts.
 */
export const roomInWindow = async (
  room: Duration.Duration = Duration.seconds(5),
  window: Duration.Duration = Duration.minutes(1)
): Promise<void> => {
  const now = Date.now()
  const left = windowAt({ limit: 1, window }, now).end - now
  if (left >= Duration.toMillis(room)) return
  await new Promise((resolve) => setTimeout(resolve, left + 10))
}
