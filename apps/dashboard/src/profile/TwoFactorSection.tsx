/**
 * Two-factor sign-in: turning it on (a new secret shown as a QR code and as text, confirmed with a
 * code of the app, then the 8 recovery codes shown this once) and off (with the password).
 */
import { useState, type FormEvent } from "react"
import { api, type Schemas } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { useMe, useSession } from "../session/session"
import { CopyButton } from "../ui/CopyButton"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { QrCode } from "../ui/QrCode"

const RecoveryCodes = ({ codes, onDone }: { readonly codes: ReadonlyArray<string>; readonly onDone: () => void }) => {
  const { t } = useI18n()
  return (
    <div className="secret" role="status">
      <p>{t("recoveryCodesOnce")}</p>
      <ul className="recovery-codes" dir="ltr" data-testid="recovery-codes">
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ul>
      <CopyButton text={codes.join("\n")} />
      <button type="button" className="primary" onClick={onDone}>{t("recoveryCodesSaved")}</button>
    </div>
  )
}

const Enrolment = ({ enrolment, onConfirmed }: {
  readonly enrolment: Schemas["TwoFactorEnrolment"]
  readonly onConfirmed: (codes: ReadonlyArray<string>) => void
}) => {
  const { t } = useI18n()
  const [code, setCode] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const confirm = async (event: FormEvent) => {
    event.preventDefault()
    const { data, error } = await api.POST("/api/me/two-factor/confirm", { body: { code: code.trim() } })
    setProblem(problemOf(error))
    if (data) onConfirmed(data.data.recovery_codes)
  }
  return (
    <form onSubmit={confirm} noValidate>
      <p>{t("twoFactorScan")}</p>
      <QrCode text={enrolment.otpauth_uri} label={t("twoFactorQr")} />
      <p>{t("twoFactorSecret")} <code dir="ltr" data-testid="two-factor-secret">{enrolment.secret}</code> <CopyButton text={enrolment.secret} /></p>
      <ProblemMessage problem={problem} />
      <Field label={t("twoFactorCode")} error={fieldError(problem, "code")}>
        <input autoComplete="one-time-code" inputMode="numeric" dir="ltr" value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <button type="submit" className="primary">{t("twoFactorConfirm")}</button>
    </form>
  )
}

const TurnOff = () => {
  const { t } = useI18n()
  const { refresh } = useSession()
  const [password, setPassword] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const turnOff = async (event: FormEvent) => {
    event.preventDefault()
    const { error } = await api.DELETE("/api/me/two-factor", { body: { password } })
    setProblem(problemOf(error))
    if (!error) await refresh()
  }
  return (
    <form onSubmit={turnOff} noValidate>
      <ProblemMessage problem={problem} />
      <Field label={t("password")} error={fieldError(problem, "password")}>
        <input type="password" autoComplete="current-password" dir="ltr" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <button type="submit">{t("twoFactorTurnOff")}</button>
    </form>
  )
}

export const TwoFactorSection = () => {
  const { t } = useI18n()
  const me = useMe()
  const { refresh } = useSession()
  const [enrolment, setEnrolment] = useState<Schemas["TwoFactorEnrolment"] | undefined>()
  const [codes, setCodes] = useState<ReadonlyArray<string> | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const begin = async () => {
    const { data, error } = await api.POST("/api/me/two-factor")
    setProblem(problemOf(error))
    setEnrolment(data?.data)
  }
  const body = codes !== undefined
    ? <RecoveryCodes codes={codes} onDone={() => { setCodes(undefined); setEnrolment(undefined); void refresh() }} />
    : me.has2FA
      ? <><p><span className="badge ok">{t("twoFactorOn")}</span></p><TurnOff /></>
      : enrolment
        ? <Enrolment enrolment={enrolment} onConfirmed={setCodes} />
        : <><p>{t("twoFactorOffText")}</p><ProblemMessage problem={problem} /><button type="button" className="primary" onClick={begin}>{t("twoFactorTurnOn")}</button></>
  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t("twoFactor")}</h2>
      {body}
    </section>
  )
}
