/**
 * Each notification of the stream, raised on `window` too, so a page can follow what concerns it
 * (the inbox, a new message) over the one stream connection the app keeps.
 */
import type { Schemas } from "../api/client"

const NOTIFICATION_EVENT = "wasl:notification"

export const announceNotification = (notification: Schemas["Notification"]): void => {
  window.dispatchEvent(new CustomEvent(NOTIFICATION_EVENT, { detail: notification }))
}

/** Calls `listener` with each notification of the stream until the returned function is called. */
export const onNotification = (listener: (notification: Schemas["Notification"]) => void): (() => void) => {
  const handle = (event: Event) => listener((event as CustomEvent<Schemas["Notification"]>).detail)
  window.addEventListener(NOTIFICATION_EVENT, handle)
  return () => window.removeEventListener(NOTIFICATION_EVENT, handle)
}
