/**
 * A message's delivery as the thread shows it: WhatsApp's ticks for what the business sent (one
 * when sent, two when delivered, two coloured when read, a mark when it failed, with Meta's reason).
 * Inbound messages carry no ticks.
 */

export type Tick = "sent" | "delivered" | "read" | "failed"

export const TICK_SYMBOL: Readonly<Record<Tick, string>> = { sent: "✓", delivered: "✓✓", read: "✓✓", failed: "!" }

const TICKS: ReadonlySet<string> = new Set(["sent", "delivered", "read", "failed"])

/** The tick of a message, undefined for one the customer sent or an unknown status. */
export const tickOf = (message: { readonly status: string; readonly is_sent_by_the_business: boolean }): Tick | undefined =>
  message.is_sent_by_the_business && TICKS.has(message.status) ? (message.status as Tick) : undefined

/** Meta's title and details of a failed send, in one line; undefined when it named none. */
export const failureReason = (error: { readonly title?: string | null; readonly details?: string | null; readonly code?: number | null } | null | undefined): string | undefined => {
  if (!error) return undefined
  const parts = [error.title, error.details].filter((part): part is string => typeof part === "string" && part !== "")
  const text = [...new Set(parts)].join(": ")
  if (text === "") return error.code ? `#${error.code}` : undefined
  return error.code ? `${text} (#${error.code})` : text
}
