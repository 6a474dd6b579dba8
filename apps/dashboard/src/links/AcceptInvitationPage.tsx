/**
 * The page an invitation's mail links to (`/invitations/{token}`): a newcomer gives their names
 * and a password, then signs in; someone who already has a Wasl user with the address signs in
 * first (the API answers 401 for them), then accepts with their session.
 */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { LoginForm } from "../session/LoginPage"
import { useSession } from "../session/session"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { LinkFrame } from "./LinkFrame"

type AcceptBody = { readonly firstname?: string; readonly lastname?: string; readonly password?: string }

export const AcceptInvitationPage = ({ token }: { readonly token: string }) => {
  const { t } = useI18n()
  const { me, signOut } = useSession()
  const [firstname, setFirstname] = useState("")
  const [lastname, setLastname] = useState("")
  const [password, setPassword] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [existingUser, setExistingUser] = useState(false)
  const [accepted, setAccepted] = useState<string | undefined>()
  const accept = async (body: AcceptBody) => {
    const { data, error, response } = await api.POST("/api/invitations/{token}/accept", { params: { path: { token } }, body })
    if (response.status === 401) {
      setExistingUser(true)
      setProblem(undefined)
      return
    }
    setProblem(problemOf(error))
    if (data) setAccepted(data.message)
  }
  const submitNew = (event: FormEvent) => {
    event.preventDefault()
    void accept({ firstname, lastname, password })
  }
  if (accepted !== undefined) {
    return (
      <LinkFrame title={t("invitationAccepted")}>
        <p role="status">{accepted}</p>
        {me === null && <><p>{t("signInNow")}</p><LoginForm /></>}
      </LinkFrame>
    )
  }
  if (me) {
    return (
      <LinkFrame title={t("acceptInvitation")}>
        <p>{t("signedInAs", { email: me.email })}</p>
        <ProblemMessage problem={problem} />
        <button type="button" className="primary" onClick={() => accept({})}>{t("acceptInvitation")}</button>
        {problem && <button type="button" onClick={signOut}>{t("signOut")}</button>}
      </LinkFrame>
    )
  }
  if (existingUser) {
    return (
      <LinkFrame title={t("acceptInvitation")}>
        <p>{t("invitationSignInFirst")}</p>
        <LoginForm />
      </LinkFrame>
    )
  }
  return (
    <LinkFrame title={t("acceptInvitation")}>
      <p>{t("invitationNewUser")}</p>
      <form onSubmit={submitNew} noValidate>
        <ProblemMessage problem={problem} />
        <Field label={t("firstname")} error={fieldError(problem, "firstname")}>
          <input autoComplete="given-name" value={firstname} onChange={(e) => setFirstname(e.target.value)} />
        </Field>
        <Field label={t("lastname")} error={fieldError(problem, "lastname")}>
          <input autoComplete="family-name" value={lastname} onChange={(e) => setLastname(e.target.value)} />
        </Field>
        <Field label={t("password")} hint={t("passwordHint")} error={fieldError(problem, "password")}>
          <input type="password" autoComplete="new-password" dir="ltr" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <button type="submit" className="primary">{t("acceptInvitation")}</button>
      </form>
      <button type="button" onClick={() => setExistingUser(true)}>{t("haveUserSignIn")}</button>
    </LinkFrame>
  )
}
