/**
 * The one duration syntax of every Wasl setting (`WASL_DELIVERY_TIMEOUT`, `WASL_RETRY_DELAYS`,
 * `WASL_OTP_COOLDOWN`, the `WASL_RETENTION_*` settings, the windows of the `WASL_RATE_LIMIT*`
 * rules): a short form (`500ms`, `2s`, `5m`, `1h`, `1d`) and Effect's long form (`60 seconds`,
 * `1 minute`), so that a value written for one setting is accepted by every other.
 */
import { Duration, Option } from "effect"

const UNIT_MILLIS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000
}

const SHORT = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/

/** The accepted form, for the messages that refuse a value. */
export const DURATION_FORM = "a duration such as 500ms, 2s, 5m, 1h, 1d or 60 seconds"

/**
 * `500ms`, `0s`, `5m`, `1.5h`, `1d`, `60 seconds`, `1 minute` → the duration; none for anything
 * else, a negative or an endless duration included (no setting means "never" by a duration).
 */
export const parseDurationText = (text: string): Option.Option<Duration.Duration> => {
  const trimmed = text.trim()
  const short = SHORT.exec(trimmed)
  if (short !== null) return Option.some(Duration.millis(Number(short[1]) * UNIT_MILLIS[short[2]!]!))
  return Option.filter(
    Duration.fromInput(trimmed as Duration.Input),
    (duration) => Duration.isFinite(duration) && Duration.isGreaterThanOrEqualTo(duration, Duration.zero)
  )
}
