/**
 * The top bar's account picker, for a member of several accounts: moves the session to the one
 * chosen (`PUT /api/me/current-account`); the page then shows that account's data. The list is
 * read again whenever the user is (after a switch, or an account opened).
 */
import { api } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { useMe, useSession } from "../session/session"
import { useLoad } from "../ui/useLoad"

export const AccountSwitcher = () => {
  const { t } = useI18n()
  const me = useMe()
  const { refresh } = useSession()
  const accounts = useLoad(async () => (await api.GET("/api/me/accounts")).data?.data ?? [], [me])
  if ((accounts.data?.length ?? 0) < 2) return null
  const choose = async (accountId: number) => {
    const { error } = await api.PUT("/api/me/current-account", { body: { account_id: accountId } })
    if (!error) await refresh()
  }
  return (
    <label className="switcher">
      <span className="visually-hidden">{t("switchAccount")}</span>
      <select value={me.account.id} onChange={(e) => choose(Number(e.target.value))}>
        {accounts.data!.map((account) => <option key={account.id} value={account.id}>{account.name}</option>)}
      </select>
    </label>
  )
}
