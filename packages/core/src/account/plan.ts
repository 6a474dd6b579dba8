/** Plans and what they allow (decisions §2, spec §8). */
import { Schema } from "effect"

export const Plan = Schema.Literals(["free", "starter", "business", "custom"])
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
