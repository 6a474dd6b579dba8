/**
 * One sending number: its health, a new name or access token (write-only: the field starts empty
 * and the token is never shown), a health refresh from Meta, and delete (refused while a campaign
 * that has not ended sends through it: the API's message shows).
 */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { navigate } from "../router"
import { usePermission } from "../session/permissions"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { qualityTone } from "./health"

export const NumberPage = ({ id }: { readonly id: string }) => {
  const { date, t } = useI18n()
  const may = usePermission()
  const number = useLoad(async () => (await api.GET("/api/platforms/{id}", { params: { path: { id } } })).data?.data ?? null, [id])
  const [name, setName] = useState<string | undefined>()
  const [token, setToken] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [saved, setSaved] = useState(false)
  if (number.data === undefined) return <p>{t("loading")}</p>
  if (number.data === null) return <p>{t("notFound")}</p>
  const current = number.data
  const path = { params: { path: { id } } }
  const answered = (error: unknown): boolean => {
    const found = problemOf(error)
    // A refusal on the id (a campaign still sending) says more than the summary.
    setProblem(found && { ...found, message: fieldError(found, "id") ?? found.message })
    return found === undefined
  }
  const save = async (event: FormEvent) => {
    event.preventDefault()
    const body = { name: name ?? current.name, ...(token === "" ? {} : { access_token: token }) }
    const { error } = await api.PUT("/api/platforms/{id}", { ...path, body })
    setSaved(answered(error))
    if (error === undefined) {
      setToken("")
      number.reload()
    }
  }
  const refresh = async () => {
    const { error } = await api.POST("/api/platforms/{id}/refresh", path)
    if (answered(error)) number.reload()
  }
  const remove = async () => {
    if (!window.confirm(t("confirmDeleteNumber"))) return
    const { error } = await api.DELETE("/api/platforms/{id}", path)
    if (answered(error)) navigate("/numbers")
  }
  const shown = (value: string | null) => value ?? t("notReported")
  const manage = may("broadcast-manage")
  return (
    <article>
      <header className="page-header">
        <h1>{current.name}</h1>
        {manage && current.provider !== "sandbox" && <button type="button" onClick={refresh}>{t("refreshHealth")}</button>}
        {manage && <button type="button" onClick={remove}>{t("delete")}</button>}
      </header>
      <ProblemMessage problem={problem} />
      <section className="card" aria-label={t("health")}>
        <h2>{t("health")}</h2>
        <dl className="properties">
          <div><dt>{t("phoneNumber")}</dt><dd dir="ltr">{current.display_phone_number}</dd></div>
          <div><dt>{t("provider")}</dt><dd>{t(current.provider === "sandbox" ? "providerSandbox" : "providerCloud")}</dd></div>
          <div><dt>{t("verifiedName")}</dt><dd data-testid="verified-name">{shown(current.verified_name)}</dd></div>
          <div><dt>{t("codeVerification")}</dt><dd data-testid="code-verification">{shown(current.code_verification_status)}</dd></div>
          <div><dt>{t("qualityRating")}</dt><dd data-testid="quality-rating"><span className={qualityTone(current.quality_rating)}>{shown(current.quality_rating)}</span></dd></div>
          <div><dt>{t("messagingLimit")}</dt><dd data-testid="messaging-limit">{shown(current.messaging_limit_tier)}</dd></div>
          <div><dt>{t("updated_at")}</dt><dd>{date(current.updated_at)}</dd></div>
        </dl>
      </section>
      {manage && (
        <form className="card" onSubmit={save} aria-label={t("changeNumber")} noValidate>
          <h2>{t("changeNumber")}</h2>
          <Field label={t("name")} error={fieldError(problem, "name")}>
            <input value={name ?? current.name} onChange={(e) => { setName(e.target.value); setSaved(false) }} />
          </Field>
          <Field label={t("accessToken")} hint={t("accessTokenHint")} error={fieldError(problem, "access_token")}>
            <input type="password" autoComplete="new-password" dir="ltr" value={token} onChange={(e) => { setToken(e.target.value); setSaved(false) }} />
          </Field>
          <button type="submit" className="primary">{t("save")}</button>
          {saved && <span role="status">{t("saved")}</span>}
        </form>
      )}
    </article>
  )
}
