/** Sign in with email and password (the first-party session). */
import { useState, type FormEvent } from "react"
import type { Problem } from "../api/errors"
import { fieldError } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { LanguageSwitch } from "../shell/LanguageSwitch"
import { useSession } from "./session"

export const LoginPage = () => {
  const { t } = useI18n()
  const { signIn } = useSession()
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setProblem(await signIn(email, password))
  }
  return (
    <main id="main" className="login">
      <form className="card" onSubmit={submit} noValidate>
        <h1>{t("appName")}</h1>
        <ProblemMessage problem={problem} />
        <Field label={t("email")} error={fieldError(problem, "email")}>
          <input type="email" autoComplete="username" dir="ltr" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t("password")} error={fieldError(problem, "password")}>
          <input type="password" autoComplete="current-password" dir="ltr" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <button type="submit" className="primary">{t("signIn")}</button>
        <LanguageSwitch />
      </form>
    </main>
  )
}
