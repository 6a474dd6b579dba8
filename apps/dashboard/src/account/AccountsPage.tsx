/** The user's accounts (`GET /api/me/accounts`): switch the session to one, or open a new one (`POST /api/accounts`). */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { useMe, useSession } from "../session/session"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"

export const AccountsPage = () => {
  const { t } = useI18n()
  const me = useMe()
  const { refresh } = useSession()
  const accounts = useLoad(async () => (await api.GET("/api/me/accounts")).data?.data ?? [], [me])
  const [name, setName] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [created, setCreated] = useState<string | undefined>()
  const open = async (event: FormEvent) => {
    event.preventDefault()
    const { data, error } = await api.POST("/api/accounts", { body: { name } })
    setProblem(problemOf(error))
    setCreated(data?.message)
    if (data) {
      setName("")
      await refresh()
    }
  }
  const switchTo = async (accountId: number) => {
    const { error } = await api.PUT("/api/me/current-account", { body: { account_id: accountId } })
    setProblem(problemOf(error))
    if (!error) await refresh()
  }
  return (
    <section>
      <h1>{t("accounts")}</h1>
      <ul className="cards">
        {(accounts.data ?? []).map((account) => (
          <li className="card" key={account.id} aria-label={account.name}>
            <h2>{account.name}</h2>
            <p><small>{t("plan")}: {account.plan}</small></p>
            {account.id === me.account.id
              ? <span className="badge ok">{t("currentAccount")}</span>
              : <button type="button" onClick={() => switchTo(account.id)}>{t("switchTo")}</button>}
          </li>
        ))}
      </ul>
      <form className="card" onSubmit={open} aria-label={t("newAccount")} noValidate>
        <h2>{t("newAccount")}</h2>
        <p>{t("newAccountHint")}</p>
        <ProblemMessage problem={problem} />
        <Field label={t("name")} error={fieldError(problem, "name")}>
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit" className="primary">{t("create")}</button>
        {created && <p role="status">{created}</p>}
      </form>
    </section>
  )
}
