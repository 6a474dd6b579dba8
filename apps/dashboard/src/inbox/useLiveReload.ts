/**
 * Keeps an inbox view current: `reload` on each `IncomingMessage` of the notification stream
 * (only those of `contactId` when given), and every 15 seconds for what the stream does not
 * carry (delivery ticks, replies sent by colleagues).
 */
import { useEffect, useRef } from "react"
import { onNotification } from "../notifications/notificationEvents"

const EVERY_MS = 15_000

export const useLiveReload = (reload: () => void, contactId?: string): void => {
  const latest = useRef(reload)
  latest.current = reload
  useEffect(() => {
    const stop = onNotification((notification) => {
      if (notification.type !== "IncomingMessage") return
      const about = (notification.data as { contact_id?: string }).contact_id
      if (contactId === undefined || about === contactId) latest.current()
    })
    const timer = setInterval(() => latest.current(), EVERY_MS)
    return () => {
      stop()
      clearInterval(timer)
    }
  }, [contactId])
}
