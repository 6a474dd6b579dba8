/** Invites someone by e-mail into chosen teams (`POST /api/account/invitations`); the API mails the link. */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { type TeamChoice, teamIdsError, TeamPicker } from "./TeamPicker"

export const InviteForm = ({ teams, onInvited }: { readonly teams: ReadonlyArray<TeamChoice>; readonly onInvited: (message: string) => void }) => {
  const { t } = useI18n()
  const [email, setEmail] = useState("")
  const [teamIds, setTeamIds] = useState<ReadonlyArray<number>>([])
  const [problem, setProblem] = useState<Problem | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const { data, error } = await api.POST("/api/account/invitations", { body: { email: email.trim(), team_ids: [...teamIds] } })
    setProblem(problemOf(error))
    if (data) {
      setEmail("")
      setTeamIds([])
      onInvited(data.message)
    }
  }
  return (
    <form className="card" onSubmit={submit} aria-label={t("invite")} noValidate>
      <ProblemMessage problem={problem} />
      <Field label={t("email")} error={fieldError(problem, "email")}>
        <input type="email" dir="ltr" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <TeamPicker teams={teams} value={teamIds} onChange={setTeamIds} error={teamIdsError(problem?.errors)} />
      <button type="submit" className="primary">{t("sendInvitation")}</button>
    </form>
  )
}
