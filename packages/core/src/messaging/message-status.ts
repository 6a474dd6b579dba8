/**
 * What a provider's status report does to an outbound message. Reports come late, twice and out
 * of order, so a status never goes back: `sent` < `delivered` < `failed` < `read` (a message
 * read is read whatever failure is reported after, and that failure is left out; a failure after
 * delivery is news). Each report sets its own time once — a late `delivered` after `read` keeps
 * `read` but fills `delivered_at` — and a failure keeps the provider's error. The same report twice changes nothing.
 */
import { DateTime } from "effect"
import type { Message, MessageError } from "./message.ts"

/** The statuses a provider reports for an outbound message. */
export const REPORTED_STATUSES = ["sent", "delivered", "read", "failed"] as const
/** One of `REPORTED_STATUSES`. */
export type ReportedStatus = typeof REPORTED_STATUSES[number]

/** A provider's report of a message's status. */
export interface StatusReport {
  /** The status. */
  readonly status: ReportedStatus
  /** When the provider says it happened. */
  readonly at: DateTime.Utc
  /** Why it failed (`failed` only). */
  readonly error: MessageError | null
}

const RANK: { readonly [S in ReportedStatus]: number } = { sent: 1, delivered: 2, failed: 3, read: 4 }

const TIME_OF = {
  sent: "sent_at",
  delivered: "delivered_at",
  read: "read_at",
  failed: "failed_at"
} as const satisfies { readonly [S in ReportedStatus]: keyof Message }

const rankOf = (status: Message["status"]): number => status === "received" ? 0 : RANK[status]

/**
 * The outbound message with the report applied (its `updated_at` now), or null when the report
 * changes nothing (a duplicate, or what the message already shows). Inbound messages are left alone.
 */
export const applyStatusReport = (message: Message, report: StatusReport, now: DateTime.Utc): Message | null => {
  if (message.direction !== "outbound") return null
  const timeKey = TIME_OF[report.status]
  const forward = RANK[report.status] > rankOf(message.status)
  // A failure that does not win (the message was read) is not the message's story: left out.
  if (report.status === "failed" && !forward) return null
  if (!forward && message[timeKey] !== null) return null
  return {
    ...message,
    status: forward ? report.status : message.status,
    [timeKey]: message[timeKey] ?? report.at,
    error: report.status === "failed" ? report.error : message.error,
    updated_at: now
  }
}

/** The message with every report applied in turn (their order does not matter), or null when none changes it. */
export const applyStatusReports = (
  message: Message,
  reports: ReadonlyArray<StatusReport>,
  now: DateTime.Utc
): Message | null => {
  let current: Message | null = null
  const sorted = [...reports].sort((a, b) => DateTime.toEpochMillis(a.at) - DateTime.toEpochMillis(b.at))
  for (const report of sorted) current = applyStatusReport(current ?? message, report, now) ?? current
  return current
}
