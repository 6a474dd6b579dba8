/**
 * The notification stream (Server-Sent Events): each new notification as a toast when its popup
 * channel is on, and as a browser notification when its browser channel is on and the user
 * allowed them; each is also announced on `window` for the pages that follow it. Renders nothing.
 */
import { useEffect } from "react"
import type { Schemas } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { useSession } from "../session/session"
import { useToast } from "../ui/toasts"
import { announceNotification } from "./notificationEvents"
import { notificationText } from "./notificationText"

export const LiveNotifications = () => {
  const { t } = useI18n()
  const toast = useToast()
  const { refresh } = useSession()
  useEffect(() => {
    const source = new EventSource("/api/notifications/stream")
    source.onmessage = (event: MessageEvent<string>) => {
      const notification = JSON.parse(event.data) as Schemas["Notification"]
      const { text, title } = notificationText(notification, t)
      if (notification.popup) toast(title, text)
      if (notification.browser && "Notification" in window && Notification.permission === "granted") {
        new Notification(title, { body: text, tag: String(notification.id) })
      }
      announceNotification(notification)
      void refresh()
    }
    return () => source.close()
  }, [t, toast, refresh])
  return null
}
