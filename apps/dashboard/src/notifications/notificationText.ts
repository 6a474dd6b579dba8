/** A notification's title and text in the language in use. */
import type { Schemas } from "../api/client"
import type { I18n } from "../i18n/i18n"

const textOf = (notification: Schemas["Notification"], t: I18n["t"]): string => {
  const data = notification.data as { url?: string; message?: string; fullname?: string; preview?: string }
  if (notification.type === "WebhookDeactivated" && data.url) return t("webhookDeactivatedText", { url: data.url })
  if (notification.type === "IncomingMessage" && data.preview !== undefined) return t("incomingMessageText", { name: data.fullname ?? "", preview: data.preview })
  return data.message ?? ""
}

export const notificationText = (notification: Schemas["Notification"], t: I18n["t"]) => ({
  title: t(`notif_${notification.type}`),
  text: textOf(notification, t)
})
