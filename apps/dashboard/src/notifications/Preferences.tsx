/** The user's channels per notification (inbox, pop-up, browser, email), and browser permission. */
import { useState } from "react"
import { api, type Schemas } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { useSession } from "../session/session"

const CHANNELS = ["stored", "popup", "browser", "email"] as const

const BrowserPermission = () => {
  const { t } = useI18n()
  const supported = "Notification" in window
  const [permission, setPermission] = useState(supported ? Notification.permission : "denied")
  if (permission === "granted") return <p role="status">{t("browserAllowed")}</p>
  if (permission === "denied") return <p>{t("browserDenied")}</p>
  return <button type="button" onClick={async () => setPermission(await Notification.requestPermission())}>{t("allowBrowser")}</button>
}

export const Preferences = ({ preferences }: { readonly preferences: ReadonlyArray<Schemas["NotificationPreference"]> }) => {
  const { t } = useI18n()
  const { refresh } = useSession()
  const toggle = async (preference: Schemas["NotificationPreference"], channel: typeof CHANNELS[number]) => {
    const { name, stored, popup, browser, email } = preference
    await api.PUT("/api/me/notification-preferences", { body: { name, stored, popup, browser, email, [channel]: !preference[channel] } })
    await refresh()
  }
  return (
    <section aria-labelledby="preferences-title">
      <h2 id="preferences-title">{t("preferences")}</h2>
      <BrowserPermission />
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t("notifications")}</th>
              {CHANNELS.map((channel) => <th scope="col" key={channel}>{t(`channel_${channel}`)}</th>)}
            </tr>
          </thead>
          <tbody>
            {preferences.map((preference) => (
              <tr key={preference.name}>
                <th scope="row">{t(`notif_${preference.name}`)}</th>
                {CHANNELS.map((channel) => (
                  <td key={channel}>
                    <input
                      type="checkbox"
                      aria-label={`${t(`notif_${preference.name}`)}: ${t(`channel_${channel}`)}`}
                      checked={preference[channel]}
                      onChange={() => toggle(preference, channel)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
