/**
 * Sign in with email and password (the first-party session), then, for a user with two-factor
 * on, with a code of their authenticator app or one of their recovery codes.
 */
import { useState, type FormEvent } from "react"
import type { Problem } from "../api/errors"
import { fieldError } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { LanguageSwitch } from "../shell/LanguageSwitch"
import { useSession } from "./session"

/** The second step: a six-digit code, or a recovery code instead. */
const TwoFactorStep = () => {
  const { t } = useI18n()
  const { completeTwoFactor } = useSession()
  const [recovery, setRecovery] = useState(false)
  const [value, setValue] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const field = recovery ? "recovery_code" : "code"
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setProblem(await completeTwoFactor(recovery ? { recovery_code: value.trim() } : { code: value.trim() }))
  }
  return (
    <form className="card" onSubmit={submit} noValidate>
      <h1>{t("appName")}</h1>
      <p>{recovery ? t("twoFactorRecoveryHint") : t("twoFactorCodeHint")}</p>
      <ProblemMessage problem={problem} />
      <Field label={recovery ? t("twoFactorRecoveryCode") : t("twoFactorCode")} error={fieldError(problem, field)}>
        <input
          key={field}
          autoComplete="one-time-code"
          inputMode={recovery ? "text" : "numeric"}
          dir="ltr"
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </Field>
      <button type="submit" className="primary">{t("twoFactorVerify")}</button>
      <button type="button" onClick={() => { setRecovery(!recovery); setValue(""); setProblem(undefined) }}>
        {recovery ? t("twoFactorUseCode") : t("twoFactorUseRecovery")}
      </button>
    </form>
  )
}

/** The sign-in card: email and password, then the second step when two-factor is on. */
export const LoginForm = () => {
  const { t } = useI18n()
  const { signIn } = useSession()
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [secondStep, setSecondStep] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const outcome = await signIn(email, password)
    if (outcome === "two-factor") setSecondStep(true)
    else setProblem(outcome)
  }
  if (secondStep) return <TwoFactorStep />
  return (
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
  )
}

export const LoginPage = () => (
  <main id="main" className="login">
    <LoginForm />
  </main>
)
