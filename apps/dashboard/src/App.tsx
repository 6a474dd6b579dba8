/**
 * The dashboard: a page a mailed link opens, the sign-in page, or the signed-in frame with the
 * live notifications and the page.
 */
import { Suspense, useEffect } from "react"
import { I18nProvider, useI18n } from "./i18n/i18n"
import { linkPage } from "./links/linkPages"
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
  const { path, search } = useLocation()
  // Each page's first heading names the tab too, for screen readers and history.
  useEffect(() => {
    document.title = `${t("appName")} — ${document.querySelector("main h1")?.textContent ?? ""}`
  })
  if (me === undefined) return <p>{t("loading")}</p>
  const link = linkPage(path, search)
  if (link !== undefined) return <Suspense fallback={<p>{t("loading")}</p>}>{link}</Suspense>
  if (me === null) return <LoginPage />
  return (
    <ToastProvider>
      <LiveNotifications />
      <Shell path={path}>
        <Suspense fallback={<p>{t("loading")}</p>}>
          {/* Keyed by account: after a switch every page loads that account's data afresh. */}
          <Routes key={me.account.id} path={path} />
        </Suspense>
      </Shell>
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
