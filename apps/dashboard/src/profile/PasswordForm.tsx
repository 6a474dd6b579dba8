/** Changes the user's password given the current one (`PUT /api/me/password`); their other sessions end. */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"

export const PasswordForm = () => {
  const { t } = useI18n()
  const [current, setCurrent] = useState("")
  const [password, setPassword] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [changed, setChanged] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const { error } = await api.PUT("/api/me/password", { body: { current_password: current, password } })
    setProblem(problemOf(error))
    setChanged(error === undefined)
    if (error === undefined) {
      setCurrent("")
      setPassword("")
    }
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="password-title" noValidate>
      <h2 id="password-title">{t("changePassword")}</h2>
      <ProblemMessage problem={problem} />
      <Field label={t("currentPassword")} error={fieldError(problem, "current_password")}>
        <input type="password" autoComplete="current-password" dir="ltr" value={current} onChange={(e) => setCurrent(e.target.value)} />
      </Field>
      <Field label={t("newPassword")} hint={t("passwordHint")} error={fieldError(problem, "password")}>
        <input type="password" autoComplete="new-password" dir="ltr" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <button type="submit" className="primary">{t("changePassword")}</button>
      {changed && <p role="status">{t("passwordChanged")}</p>}
    </form>
  )
}
