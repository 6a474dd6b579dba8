/** Plans and what they allow. */
import { Schema } from "effect"

/** An account's plan. Only `business` (5 webhooks) and `custom` (its own limit) include webhooks. */
export const Plan: Schema.Literals<readonly ["free", "starter", "business", "custom"]> = Schema.Literals([
  "free",
  "starter",
  "business",
  "custom"
])
/** An account's plan: `free`, `starter`, `business` or `custom`. */
export type Plan = typeof Plan.Type

const BUSINESS_WEBHOOK_LIMIT = 5

/** How many webhooks the plan allows; `custom` carries its own limit (null or 0 = none). */
export const webhookLimit = (plan: Plan, customLimit: number | null): number => {
  switch (plan) {
    case "business":
      return BUSINESS_WEBHOOK_LIMIT
    case "custom":
      return customLimit ?? 0
    default:
      return 0
  }
}
