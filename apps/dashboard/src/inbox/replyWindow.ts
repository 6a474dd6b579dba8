/**
 * WhatsApp's customer-service window: a free-form reply is allowed only until 24 hours after the
 * customer's last message; the server says when that is (`window_expires_at`, null when closed).
 */

/** Whether a free-form reply is allowed at `now` (ms since the epoch). */
export const isWindowOpen = (expiresAt: string | null | undefined, now: number): boolean =>
  typeof expiresAt === "string" && Date.parse(expiresAt) > now

/** Milliseconds until the window closes (0 when it is closed), for re-rendering when it does. */
export const msUntilClosed = (expiresAt: string | null | undefined, now: number): number =>
  isWindowOpen(expiresAt, now) ? Date.parse(expiresAt!) - now : 0
