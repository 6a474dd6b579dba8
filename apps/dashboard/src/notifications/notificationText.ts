/** A notification's title and text in the language in use. */
import type { Schemas } from "../api/client"
import type { I18n } from "../i18n/i18n"

export const notificationText = (notification: Schemas["Notification"], t: I18n["t"]) => {
  const data = notification.data as { url?: string; message?: string }
  return {
    title: t(`notif_${notification.type}`),
    text: notification.type === "WebhookDeactivated" && data.url ? t("webhookDeactivatedText", { url: data.url }) : (data.message ?? "")
  }
}
