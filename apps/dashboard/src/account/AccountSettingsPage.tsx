/** The current account's settings (`PUT /api/account`, permission account-manage), with the API's message on each field. */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { useMe, useSession } from "../session/session"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { type Regional, regionalBody, RegionalFields, regionalOf } from "./RegionalFields"

export const AccountSettingsPage = () => {
  const { t } = useI18n()
  const { account } = useMe()
  const { refresh } = useSession()
  const [name, setName] = useState(account.name)
  const [industry, setIndustry] = useState(account.industry ?? "")
  const [logo, setLogo] = useState(account.logo ?? "")
  const [address, setAddress] = useState(account.address ?? "")
  const [regional, setRegional] = useState<Regional>(regionalOf(account))
  const [problem, setProblem] = useState<Problem | undefined>()
  const [saved, setSaved] = useState<string | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const { data, error } = await api.PUT("/api/account", {
      body: { name, industry: industry.trim() || null, logo: logo.trim() || null, address: address.trim() || null, ...regionalBody(regional) }
    })
    setProblem(problemOf(error))
    setSaved(data?.message)
    if (data) await refresh()
  }
  return (
    <section>
      <h1>{t("accountSettings")}</h1>
      <form className="card" onSubmit={submit} aria-label={t("accountSettings")} noValidate>
        <ProblemMessage problem={problem} />
        <Field label={t("name")} error={fieldError(problem, "name")}>
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t("industry")} error={fieldError(problem, "industry")}>
          <input value={industry} onChange={(e) => setIndustry(e.target.value)} />
        </Field>
        <Field label={t("logo")} hint={t("httpsHint")} error={fieldError(problem, "logo")}>
          <input type="url" dir="ltr" value={logo} onChange={(e) => setLogo(e.target.value)} />
        </Field>
        <Field label={t("address")} error={fieldError(problem, "address")}>
          <textarea value={address} onChange={(e) => setAddress(e.target.value)} />
        </Field>
        <RegionalFields value={regional} onChange={setRegional} problem={problem} unsetLabel={t("notSet")} />
        <button type="submit" className="primary">{t("save")}</button>
        {saved && <p role="status">{saved}</p>}
      </form>
    </section>
  )
}
