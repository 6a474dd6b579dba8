/** How a sending number's health and a template's or campaign's status show: the badge's tone. */

/** Meta's quality rating of a number: GREEN is good, YELLOW a warning, RED bad. */
export const qualityTone = (rating: string | null): string =>
  rating === "GREEN" ? "badge ok" : rating === "YELLOW" ? "badge warn" : rating === "RED" ? "badge bad" : "badge"

/** A template's review status: APPROVED good, PENDING waiting, the rest (REJECTED, PAUSED, DISABLED) bad. */
export const reviewTone = (status: string): string =>
  status === "APPROVED" ? "badge ok" : status === "PENDING" || status === "IN_APPEAL" ? "badge warn" : "badge bad"

/** A campaign's or recipient's status. */
export const sendingTone = (status: string): string =>
  ["completed", "sent", "delivered", "read"].includes(status)
    ? "badge ok"
    : ["failed", "canceled"].includes(status)
    ? "badge bad"
    : status === "skipped" || status === "paused"
    ? "badge warn"
    : "badge"
