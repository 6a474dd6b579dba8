/** Sets a member's teams exactly (`PUT /api/account/members/{user_id}` with `team_ids`). */
import { useState } from "react"
import { api, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { ProblemMessage } from "../ui/ProblemMessage"
import { memberName } from "./memberName"
import { type TeamChoice, teamIdsError, TeamPicker } from "./TeamPicker"

export const MemberTeams = ({ member, teams, onSaved, onCancel }: {
  readonly member: Schemas["Member"]
  readonly teams: ReadonlyArray<TeamChoice>
  readonly onSaved: (answer: { readonly data: { readonly message: string } }) => void
  readonly onCancel: () => void
}) => {
  const { t } = useI18n()
  const [teamIds, setTeamIds] = useState<ReadonlyArray<number>>(member.teams.map((team) => team.id))
  const [problem, setProblem] = useState<Problem | undefined>()
  const save = async () => {
    const { data, error } = await api.PUT("/api/account/members/{user_id}", {
      params: { path: { user_id: String(member.user.id) } },
      body: { team_ids: [...teamIds] }
    })
    setProblem(problemOf(error))
    if (data) onSaved({ data })
  }
  return (
    <section className="card" aria-label={t("teamsOf", { name: memberName(member.user) })}>
      <h2>{t("teamsOf", { name: memberName(member.user) })}</h2>
      <ProblemMessage problem={problem} />
      <TeamPicker teams={teams} value={teamIds} onChange={setTeamIds} error={teamIdsError(problem?.errors)} />
      <button type="button" className="primary" onClick={save}>{t("save")}</button>
      <button type="button" onClick={onCancel}>{t("cancel")}</button>
    </section>
  )
}
