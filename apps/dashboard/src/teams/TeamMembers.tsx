/** A team's members as checkboxes over the account's members; saving replaces them (`PUT /api/account/teams/{id}/members`). */
import { useState } from "react"
import { api, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { ProblemMessage } from "../ui/ProblemMessage"
import { memberName } from "../members/memberName"

export const TeamMembers = ({ team, members, onSaved, onCancel }: {
  readonly team: Schemas["TeamDetails"]
  readonly members: ReadonlyArray<Schemas["Member"]>
  readonly onSaved: () => void
  readonly onCancel: () => void
}) => {
  const { t } = useI18n()
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set(team.user_ids))
  const [problem, setProblem] = useState<Problem | undefined>()
  const toggle = (id: number) => setChosen((all) => {
    const next = new Set(all)
    if (!next.delete(id)) next.add(id)
    return next
  })
  const save = async () => {
    const { data, error } = await api.PUT("/api/account/teams/{id}/members", { params: { path: { id: String(team.id) } }, body: { user_ids: [...chosen] } })
    setProblem(problemOf(error))
    if (data) onSaved()
  }
  return (
    <fieldset className="card">
      <legend>{t("teamMembersOf", { name: team.name })}</legend>
      <ProblemMessage problem={problem} />
      {members.map((member) => (
        <label key={member.user.id} className="check">
          <input type="checkbox" checked={chosen.has(member.user.id)} onChange={() => toggle(member.user.id)} />
          {memberName(member.user)} <small dir="ltr">{member.user.email}</small>
        </label>
      ))}
      <button type="button" className="primary" onClick={save}>{t("save")}</button>
      <button type="button" onClick={onCancel}>{t("cancel")}</button>
    </fieldset>
  )
}
