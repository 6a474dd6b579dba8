/**
 * The monthly message allowance: how many business-initiated template messages an account may
 * send in a calendar month (UTC). A template send and each campaign recipient use one; one-time
 * passwords (they use OTP credits) and replies inside the customer-service window use none.
 */
import { DateTime, Schema } from "effect"
import { WireTimestamp } from "../wire/timestamp.ts"
import type { MessageAllowanceParts } from "./current-user-reader.ts"
import type { Plan } from "./plan.ts"

/** The 402 message of a template send once the month's allowance is used up. */
export const MESSAGE_ALLOWANCE_USED_UP = "The monthly message allowance is used up."

const PLAN_MESSAGE_LIMITS: { readonly free: number; readonly starter: number; readonly business: number } = {
  free: 100,
  starter: 1_000,
  business: 10_000
}

/**
 * How many template messages a month the plan allows: `free` 100, `starter` 1,000, `business`
 * 10,000; `custom` carries its own (null: none set, so none).
 */
export const messageLimit = (plan: Plan, customLimit: number | null): number =>
  plan === "custom" ? customLimit ?? 0 : PLAN_MESSAGE_LIMITS[plan]

/** The first instant (UTC) of the calendar month `now` falls in: the month an allowance is counted in. */
export const allowanceMonth = (now: DateTime.DateTime): DateTime.Utc => {
  const date = DateTime.toDateUtc(now)
  return DateTime.makeUnsafe(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1))
}

/** The first instant (UTC) of the month after `month`'s: when the allowance counted in `month` resets. */
export const allowanceResetsAt = (month: DateTime.DateTime): DateTime.Utc => {
  const date = DateTime.toDateUtc(month)
  return DateTime.makeUnsafe(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1))
}

/** `YYYY-MM-DD` of a month's first day: how stores key the month. */
export const allowanceMonthKey = (month: DateTime.DateTime): string => DateTime.formatIsoDateUtc(month)

/** An account's allowance as `GET /api/me` shows it (`account.message_allowance`). */
export const MessageAllowance: Schema.Struct<{
  readonly limit: Schema.Int
  readonly used: Schema.Int
  readonly resets_at: typeof WireTimestamp
}> = Schema.Struct({
  limit: Schema.Int,
  used: Schema.Int,
  resets_at: WireTimestamp
}).annotate({ identifier: "MessageAllowance" })
/** An account's allowance this month: its limit, how many were used, when the count starts again. */
export type MessageAllowance = typeof MessageAllowance.Type

/**
 * The allowance `GET /api/me` shows at `now`: the plan's limit, the count of `now`'s month (0 when
 * the latest count is of an earlier month) and when it resets.
 */
export const messageAllowanceAt = (plan: Plan, parts: MessageAllowanceParts, now: DateTime.DateTime): MessageAllowance => {
  const month = allowanceMonth(now)
  return {
    limit: messageLimit(plan, parts.customLimit),
    used: parts.month === allowanceMonthKey(month) ? parts.used : 0,
    resets_at: allowanceResetsAt(month)
  }
}
