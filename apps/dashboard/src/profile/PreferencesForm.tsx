/** The user's own time zone, calendar, clock, locale and currency in this account (`PUT /api/me/preferences`). */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { type Regional, regionalBody, RegionalFields, regionalOf } from "../account/RegionalFields"
import { useI18n } from "../i18n/i18n"
import { useMe, useSession } from "../session/session"
import { ProblemMessage } from "../ui/ProblemMessage"

export const PreferencesForm = () => {
  const { t } = useI18n()
  const { account } = useMe()
  const { refresh } = useSession()
  const [regional, setRegional] = useState<Regional>(regionalOf(account.pivot))
  const [problem, setProblem] = useState<Problem | undefined>()
  const [saved, setSaved] = useState<string | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    // A member always has a time zone and a clock: left empty, they keep theirs.
    const { timeZone, hour12, ...rest } = regionalBody(regional)
    const { data, error } = await api.PUT("/api/me/preferences", {
      body: { ...rest, ...(timeZone === null ? {} : { timeZone }), ...(hour12 === null ? {} : { hour12 }) }
    })
    setProblem(problemOf(error))
    setSaved(data?.message)
    if (data) await refresh()
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="my-settings-title" noValidate>
      <h2 id="my-settings-title">{t("mySettings", { account: account.name })}</h2>
      <ProblemMessage problem={problem} />
      <RegionalFields value={regional} onChange={setRegional} problem={problem} unsetLabel={t("accountDefault")} />
      <button type="submit" className="primary">{t("save")}</button>
      {saved && <p role="status">{saved}</p>}
    </form>
  )
}
