/**
 * The signed-in frame: the menu (only what the member's permissions open), the user with
 * account, plan and credits, the account switcher, and the page.
 */
import { type ReactNode, useEffect, useRef } from "react"
import { AccountSwitcher } from "../account/AccountSwitcher"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { usePermission } from "../session/permissions"
import { useMe, useSession } from "../session/session"
import { LanguageSwitch } from "./LanguageSwitch"
import { MENU } from "./menu"

const NavLink = ({ to, current, children }: { readonly to: string; readonly current: string; readonly children: ReactNode }) => (
  <li><Link to={to} aria-current={current === to || current.startsWith(`${to}/`) ? "page" : undefined}>{children}</Link></li>
)

export const Shell = ({ path, children }: { readonly path: string; readonly children: ReactNode }) => {
  const { t } = useI18n()
  const me = useMe()
  const { signOut } = useSession()
  const may = usePermission()
  // After a client-side navigation, keyboard and screen-reader users start at the new page.
  const main = useRef<HTMLElement>(null)
  const first = useRef(true)
  useEffect(() => {
    if (first.current) first.current = false
    else main.current?.focus({ preventScroll: true })
  }, [path])
  return (
    <div className="shell">
      <a className="skip" href="#main">{t("skipToContent")}</a>
      <header className="topbar">
        <strong className="brand">{t("appName")}</strong>
        <dl className="who" aria-label={t("account")}>
          <div><dt className="visually-hidden">{t("email")}</dt><dd data-testid="user">{me.firstname || me.email} <small dir="ltr">{me.email}</small></dd></div>
          <div><dt>{t("account")}</dt><dd data-testid="account">{me.account.name}</dd></div>
          <div><dt>{t("plan")}</dt><dd data-testid="plan">{me.account.plan}</dd></div>
          <div><dt>{t("otpCredits")}</dt><dd data-testid="credits">{me.account.otp_credits}</dd></div>
        </dl>
        <AccountSwitcher />
        <LanguageSwitch />
        <button type="button" onClick={signOut}>{t("signOut")}</button>
      </header>
      <nav className="sidebar" aria-label={t("menu")}>
        <ul>
          {MENU.filter((entry) => may(entry.needs)).map((entry) => (
            <NavLink key={entry.to} to={entry.to} current={path}>
              {t(entry.label)}
              {entry.to === "/notifications" && <> <span className="badge" data-testid="unread-count">{me.unread_notifications_count}</span></>}
            </NavLink>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} ref={main}>{children}</main>
    </div>
  )
}
