/** The inbox (newest first, unread marked), mark as read, and the preferences. */
import { useState } from "react"
import { api } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { useMe, useSession } from "../session/session"
import { Pagination } from "../ui/Pagination"
import { useLoad } from "../ui/useLoad"
import { notificationText } from "./notificationText"
import { Preferences } from "./Preferences"

export const NotificationsPage = () => {
  const { date, t } = useI18n()
  const me = useMe()
  const { refresh } = useSession()
  const [page, setPage] = useState(1)
  const inbox = useLoad(async () => (await api.GET("/api/notifications", { params: { query: { page } } })).data, [page, me.unread_notifications_count])
  const markRead = async (id: number) => {
    await api.POST("/api/notifications/{id}/read", { params: { path: { id: String(id) } } })
    await refresh()
    inbox.reload()
  }
  return (
    <section>
      <header className="page-header">
        <h1>{t("notifications")}</h1>
        <span className="badge" data-testid="unread">{t("unread", { count: me.unread_notifications_count })}</span>
      </header>
      <ul className="cards">
        {(inbox.data?.data ?? []).map((notification) => {
          const { text, title } = notificationText(notification, t)
          return (
            <li key={notification.id} className={notification.read_at ? "card" : "card unread"}>
              <strong>{title}</strong>
              <p>{text}</p>
              <small>{date(notification.created_at)}</small>{" "}
              {notification.read_at ? <span className="badge">{t("read")}</span> : (
                <button type="button" onClick={() => markRead(notification.id)}>{t("markRead")}</button>
              )}
            </li>
          )
        })}
      </ul>
      {inbox.data && inbox.data.data.length === 0 && <p>{t("nothingYet")}</p>}
      {inbox.data && <Pagination meta={inbox.data.meta} onPage={setPage} />}
      <Preferences preferences={me.notification_preferences} />
    </section>
  )
}
