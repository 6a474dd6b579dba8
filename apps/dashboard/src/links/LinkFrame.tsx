/** The frame of a page a mailed link opens, signed in or not: one card, the language switch, a way into the dashboard. */
import type { ReactNode } from "react"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { LanguageSwitch } from "../shell/LanguageSwitch"

export const LinkFrame = ({ title, children }: { readonly title: string; readonly children: ReactNode }) => {
  const { t } = useI18n()
  return (
    <main id="main" className="login">
      <section className="card link-page">
        <h1>{title}</h1>
        {children}
        <p><Link to="/">{t("openDashboard")}</Link> <LanguageSwitch /></p>
      </section>
    </main>
  )
}
