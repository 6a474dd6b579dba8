/** How far a campaign has gone: the recipients it is done with (sent, failed or skipped) of all of them. */
import type { Schemas } from "../api/client"

/** The statuses after which a campaign changes no more. */
export const ENDED: ReadonlySet<string> = new Set(["completed", "canceled", "failed"])

export const progressOf = (campaign: Schemas["Campaign"]): { readonly done: number; readonly of: number; readonly percent: number } => {
  const { recipients, sent, failed, skipped } = campaign.counts
  // A message that failed after it was sent is counted in both sent and failed: never beyond all.
  const done = campaign.status === "completed" ? recipients : Math.min(recipients, sent + failed + skipped)
  return { done, of: recipients, percent: recipients === 0 ? (campaign.status === "completed" ? 100 : 0) : Math.round((done * 100) / recipients) }
}
