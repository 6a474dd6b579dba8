/** The dashboard: the sign-in page, or the signed-in frame with the live notifications and the page. */
import { useEffect } from "react"
import { I18nProvider, useI18n } from "./i18n/i18n"
import { LiveNotifications } from "./notifications/LiveNotifications"
import { useLocation } from "./router"
import { Routes } from "./Routes"
import { LoginPage } from "./session/LoginPage"
import { SessionProvider, useSession } from "./session/session"
import { Shell } from "./shell/Shell"
import { ToastProvider } from "./ui/toasts"

const Screen = () => {
  const { t } = useI18n()
  const { me } = useSession()
  const { path } = useLocation()
  // Each page's first heading names the tab too, for screen readers and history.
  useEffect(() => {
    document.title = `${t("appName")} — ${document.querySelector("main h1")?.textContent ?? ""}`
  })
  if (me === undefined) return <p>{t("loading")}</p>
  if (me === null) return <LoginPage />
  return (
    <ToastProvider>
      <LiveNotifications />
      <Shell path={path}><Routes path={path} /></Shell>
    </ToastProvider>
  )
}

export const App = () => (
  <I18nProvider>
    <SessionProvider>
      <Screen />
    </SessionProvider>
  </I18nProvider>
)
