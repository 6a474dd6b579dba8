/**
 * The user's login e-mail: whether it is verified (with a link to send), the change waiting for
 * its confirmation link, and a change to ask for (`PUT /api/me/email`, with the current password).
 */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { useMe, useSession } from "../session/session"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"

export const EmailForm = () => {
  const { t } = useI18n()
  const me = useMe()
  const { refresh } = useSession()
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [notice, setNotice] = useState<string | undefined>()
  const change = async (event: FormEvent) => {
    event.preventDefault()
    const { data, error } = await api.PUT("/api/me/email", { body: { email: email.trim(), password } })
    setProblem(problemOf(error))
    setNotice(data?.message)
    if (data) {
      setEmail("")
      setPassword("")
      await refresh()
    }
  }
  const verify = async () => {
    const { data, error } = await api.POST("/api/me/email/verify")
    setProblem(problemOf(error))
    setNotice(data?.message)
  }
  return (
    <form className="card" onSubmit={change} aria-labelledby="email-title" noValidate>
      <h2 id="email-title">{t("email")}</h2>
      <p>
        <span dir="ltr">{me.email}</span>{" "}
        {me.email_verified_at
          ? <span className="badge ok">{t("emailVerified")}</span>
          : <><span className="badge warn">{t("emailNotVerified")}</span> <button type="button" onClick={verify}>{t("sendVerification")}</button></>}
      </p>
      {me.change_email_to && <p>{t("emailChangePending", { email: me.change_email_to })}</p>}
      {notice && <p role="status">{notice}</p>}
      <ProblemMessage problem={problem} />
      <Field label={t("newEmail")} error={fieldError(problem, "email")}>
        <input type="email" dir="ltr" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label={t("currentPassword")} error={fieldError(problem, "password")}>
        <input type="password" autoComplete="current-password" dir="ltr" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <button type="submit" className="primary">{t("changeEmail")}</button>
    </form>
  )
}
