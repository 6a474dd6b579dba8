/**
 * The account's teams: each with its permissions (grouped by area) and members; create, edit,
 * set the members, delete. Members are named when the viewer may list them (member-manage).
 */
import { useState } from "react"
import { api, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { memberName } from "../members/memberName"
import { usePermission } from "../session/permissions"
import { Pagination } from "../ui/Pagination"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { TeamForm } from "./TeamForm"
import { TeamMembers } from "./TeamMembers"

export const TeamsPage = () => {
  const { t } = useI18n()
  const may = usePermission()
  const [page, setPage] = useState(1)
  const teams = useLoad(async () => (await api.GET("/api/account/teams", { params: { query: { page } } })).data, [page])
  // The members list also holds the invitees (no user yet): only members can be put in a team.
  const members = useLoad(async () => may("member-manage")
    ? ((await api.GET("/api/account/members", { params: { query: { per_page: 100 } } })).data?.data ?? [])
      .flatMap((entry) => entry.status === "invited" ? [] : [entry])
    : [], [])
  const [editing, setEditing] = useState<Schemas["TeamDetails"] | "new" | undefined>()
  const [staffing, setStaffing] = useState<Schemas["TeamDetails"] | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const byId = new Map((members.data ?? []).map((member) => [member.user.id, member]))
  const saved = () => {
    setEditing(undefined)
    setStaffing(undefined)
    teams.reload()
  }
  const remove = async (team: Schemas["TeamDetails"]) => {
    if (!window.confirm(t("confirmDelete"))) return
    const { error } = await api.DELETE("/api/account/teams/{id}", { params: { path: { id: String(team.id) } } })
    setProblem(problemOf(error))
    teams.reload()
  }
  return (
    <section>
      <header className="page-header">
        <h1>{t("teams")}</h1>
        <button type="button" className="primary" onClick={() => setEditing("new")}>{t("newTeam")}</button>
      </header>
      {editing !== undefined && (
        <TeamForm key={editing === "new" ? "new" : editing.id} team={editing === "new" ? undefined : editing} onSaved={saved} onCancel={() => setEditing(undefined)} />
      )}
      {staffing && members.data && <TeamMembers key={staffing.id} team={staffing} members={members.data} onSaved={saved} onCancel={() => setStaffing(undefined)} />}
      <ProblemMessage problem={problem} />
      <ul className="cards">
        {(teams.data?.data ?? []).map((team) => (
          <li className="card" key={team.id} aria-label={team.name}>
            <h2>{team.name}</h2>
            {team.description && <p>{team.description}</p>}
            <p><strong>{t("permissions")}: </strong><small dir="ltr">{team.permissions.join(", ") || "—"}</small></p>
            <p>
              <strong>{t("teamMembers")}: </strong>
              {team.user_ids.length === 0 ? t("noMembers") : byId.size > 0
                ? team.user_ids.map((id) => byId.get(id)).filter((m) => m !== undefined).map((m) => memberName(m.user)).join(", ")
                : t("memberCount", { count: team.user_ids.length })}
            </p>
            <div className="actions">
              <button type="button" onClick={() => setEditing(team)}>{t("edit")}</button>
              {byId.size > 0 && <button type="button" onClick={() => setStaffing(team)}>{t("editTeamMembers")}</button>}
              <button type="button" onClick={() => remove(team)}>{t("delete")}</button>
            </div>
          </li>
        ))}
      </ul>
      {teams.data && <Pagination meta={teams.data.meta} onPage={setPage} />}
    </section>
  )
}
