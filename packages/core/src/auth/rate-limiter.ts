/**
 * Request rate limits: a fixed-window counter per key. Time is cut into windows of the rule's
 * length (aligned on the Unix epoch, so every replica agrees on the window of an instant); each
 * request adds one to its key's count in the current window, and is refused once the count is
 * over the limit, until the window ends. The decision is a pure function of the count; counting
 * is the `RateLimiter` port (PostgreSQL shares the counts between replicas, memory keeps them in
 * the process). Fixed windows let a caller send up to twice the limit across a window boundary:
 * the price of one counter (one statement) per request.
 */
import { Clock, Context, Duration, Effect, Option } from "effect"
import { parseDurationText } from "../duration-text.ts"
import { TooManyRequests } from "../errors.ts"

/** A limit: at most `limit` requests per `window`; a limit of 0 turns it off. */
export interface RateRule {
  /** The requests allowed per window; 0: no limit. */
  readonly limit: number
  /** The window's length (at least a second). */
  readonly window: Duration.Duration
}

/** No limit. */
export const RATE_LIMIT_OFF: RateRule = { limit: 0, window: Duration.minutes(1) }

/** One window of time, as Unix epoch milliseconds: `start` included, `end` excluded. */
export interface RateWindow {
  /** The first millisecond of the window. */
  readonly start: number
  /** The first millisecond after it. */
  readonly end: number
}

/** The window of `rule` that holds the instant `nowMillis`. */
export const windowAt = (rule: RateRule, nowMillis: number): RateWindow => {
  const length = Math.max(1000, Duration.toMillis(rule.window))
  const start = nowMillis - (((nowMillis % length) + length) % length)
  return { start, end: start + length }
}

/** What a limit says of one request, and what the `RateLimit-*` headers show. */
export interface RateDecision {
  /** Whether the request may go on. */
  readonly allowed: boolean
  /** The requests allowed per window. */
  readonly limit: number
  /** The requests left in this window after this one. */
  readonly remaining: number
  /** Whole seconds until the window ends (at least 1): when the count starts over. */
  readonly resetSeconds: number
}

/** The decision for the `count`-th request (this one included) of `window`, at `nowMillis`. */
export const decide = (rule: RateRule, count: number, window: RateWindow, nowMillis: number): RateDecision => ({
  allowed: count <= rule.limit,
  limit: rule.limit,
  remaining: Math.max(0, rule.limit - count),
  resetSeconds: Math.max(1, Math.ceil((window.end - nowMillis) / 1000))
})

/** What the {@link RateLimiter} port offers (implement this to write an adapter). */
export interface RateLimiterShape {
  /**
   * Adds one request to `key`'s count in `window` and answers that count, this request included.
   * A key keeps one count: a later window starts it over at 1, and a request dated in an earlier
   * window than the kept one (a replica whose clock lags) counts in the kept one. The count is
   * kept at once: callers hit before any transaction, so a request that fails afterwards still
   * counts.
   */
  readonly hit: (key: string, window: RateWindow) => Effect.Effect<number>
  /** Forgets the counts of windows that ended at or before `nowMillis`; answers how many. */
  readonly prune: (nowMillis: number) => Effect.Effect<number>
}

const RateLimiterBase: Context.ServiceClass<RateLimiter, "@wasl/core/RateLimiter", RateLimiterShape> = Context
  .Service<RateLimiter, RateLimiterShape>()("@wasl/core/RateLimiter")

/**
 * The request counters behind rate limits, one per key (`token:12`, `login-email:ann@example.com`).
 * Its operations: {@link RateLimiterShape}.
 */
export class RateLimiter extends RateLimiterBase {}

/** The limits a deployment sets (`WASL_RATE_LIMIT`, `WASL_RATE_LIMIT_LOGIN`, `WASL_RATE_LIMIT_OTP_VERIFY`). */
export interface RateLimitPolicyShape {
  /** Every authenticated request, per API token (or per user for a session). */
  readonly caller: RateRule
  /** Login attempts, per email address and, separately, per client address. */
  readonly login: RateRule
  /** OTP code verifications, per account. */
  readonly otpVerify: RateRule
}

/**
 * The limits in effect: none unless a deployment provides them (the server reads them from its
 * environment, with defaults).
 */
export const RateLimitPolicy: Context.Reference<RateLimitPolicyShape> = Context.Reference<RateLimitPolicyShape>(
  "@wasl/core/RateLimitPolicy",
  { defaultValue: () => ({ caller: RATE_LIMIT_OFF, login: RATE_LIMIT_OFF, otpVerify: RATE_LIMIT_OFF }) }
)

/**
 * Counts one request under `key` against `rule` now and answers the decision; none (and no
 * counting) when the rule is off.
 */
export const consumeRate = (
  key: string,
  rule: RateRule
): Effect.Effect<Option.Option<RateDecision>, never, RateLimiter> =>
  rule.limit <= 0 ? Effect.succeedNone : Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const window = windowAt(rule, now)
    const count = yield* (yield* RateLimiter).hit(key, window)
    return Option.some(decide(rule, count, window, now))
  })

/** The message of a 429 for a rate limit (Laravel's). */
export const TOO_MANY_ATTEMPTS = "Too Many Attempts."

/** The 429 of a refused decision: try again when the window ends. */
export const rateLimited = (decision: RateDecision): TooManyRequests =>
  new TooManyRequests({ message: TOO_MANY_ATTEMPTS, retryAfter: decision.resetSeconds })

const RULE = /^\s*(\d+)\s*(?:\/\s*(.+?))?\s*$/

/**
 * Reads a rule written `<requests>/<duration>` (`600/1 minute`, `10/15m`), or `<requests>`
 * alone for a one-minute window; `0` turns the limit off. None when it does not parse or the
 * window is shorter than a second.
 */
export const parseRateRule = (text: string): Option.Option<RateRule> => {
  const match = RULE.exec(text)
  if (match === null) return Option.none()
  const limit = Number(match[1])
  if (!Number.isSafeInteger(limit)) return Option.none()
  if (match[2] === undefined) return Option.some({ limit, window: Duration.minutes(1) })
  return Option.flatMap(
    parseDurationText(match[2]),
    (window) => Duration.toMillis(window) >= 1000 ? Option.some({ limit, window }) : Option.none()
  )
}

/** How often an adapter forgets the counts of ended windows. */
export const RATE_LIMIT_PRUNE_INTERVAL: Duration.Duration = Duration.minutes(10)

/**
 * Makes the pruning schedule of an adapter: called with each hit's window, it answers whether to
 * prune now: once a {@link RATE_LIMIT_PRUNE_INTERVAL} has passed since the last time (or since
 * the first hit), measured in the hits' windows.
 * Pruning rides on the hits rather than on a timer of its own, so an adapter holds no fiber: keys
 * seen once (an email tried once) do not pile up, and nothing runs while no request comes.
 */
export const makePruneSchedule = (): (window: RateWindow) => boolean => {
  let last: number | undefined
  const interval = Duration.toMillis(RATE_LIMIT_PRUNE_INTERVAL)
  return (window) => {
    last ??= window.start
    if (window.start - last < interval) return false
    last = window.start
    return true
  }
}
