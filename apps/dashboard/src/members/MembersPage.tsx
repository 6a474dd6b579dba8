/**
 * The account's members and pending invitations in one list: each one's status (active, invited,
 * suspended), teams and last use; invite by e-mail into teams, change a member's teams, suspend or
 * reactivate, remove, revoke an invitation. The API's refusals (the last member who can manage
 * members, a permission the caller lacks) are shown as it words them.
 */
import { useState } from "react"
import { api, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { usePermission } from "../session/permissions"
import { useMe } from "../session/session"
import { Pagination } from "../ui/Pagination"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { InviteForm } from "./InviteForm"
import { memberName } from "./memberName"
import { MemberTeams } from "./MemberTeams"
import type { TeamChoice } from "./TeamPicker"

/** `last_used` comes as `YYYY-MM-DD HH:MM:SS` in UTC. */
const utc = (text: string): string => `${text.replace(" ", "T")}Z`

const STATUS_BADGE = { active: "badge ok", invited: "badge", suspended: "badge bad" } as const

export const MembersPage = () => {
  const { date, t } = useI18n()
  const me = useMe()
  const may = usePermission()
  const [page, setPage] = useState(1)
  // Members, then the people invited who have not accepted yet, as the API pages them.
  const members = useLoad(async () => (await api.GET("/api/account/members", { params: { query: { page } } })).data, [page])
  // The teams to choose from: the teams list needs team-manage; without it, the teams members are in.
  const teamList = useLoad(async () => may("team-manage")
    ? (await api.GET("/api/account/teams", { params: { query: { per_page: 100 } } })).data?.data ?? []
    : undefined, [])
  const teams: ReadonlyArray<TeamChoice> = teamList.data ??
    [...new Map((members.data?.data ?? []).flatMap((m) => m.teams).map((team) => [team.id, team])).values()]
  const [problem, setProblem] = useState<Problem | undefined>()
  const [notice, setNotice] = useState<string | undefined>()
  const [moving, setMoving] = useState<Schemas["Member"] | undefined>()
  const done = (answer: { readonly error?: unknown; readonly data?: { readonly message?: string } | undefined }) => {
    setProblem(problemOf(answer.error))
    setNotice(answer.data?.message)
    members.reload()
  }
  const setStatus = async (member: Schemas["Member"], status: "active" | "suspended") =>
    done(await api.PUT("/api/account/members/{user_id}", { params: { path: { user_id: String(member.user.id) } }, body: { status } }))
  const remove = async (member: Schemas["Member"]) => {
    if (window.confirm(t("confirmRemoveMember", { name: memberName(member.user) }))) {
      done(await api.DELETE("/api/account/members/{user_id}", { params: { path: { user_id: String(member.user.id) } } }))
    }
  }
  const revoke = async (invitationId: number) =>
    done(await api.DELETE("/api/account/invitations/{id}", { params: { path: { id: String(invitationId) } } }))
  return (
    <section>
      <h1>{t("members")}</h1>
      <h2>{t("invite")}</h2>
      <InviteForm teams={teams} onInvited={(message) => { setNotice(message); members.reload() }} />
      {notice && <p role="status">{notice}</p>}
      <ProblemMessage problem={problem} />
      {moving && (
        <MemberTeams key={moving.user.id} member={moving} teams={teams} onSaved={(answer) => { setMoving(undefined); done(answer) }} onCancel={() => setMoving(undefined)} />
      )}
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t("name")}</th><th scope="col">{t("status")}</th><th scope="col">{t("teams")}</th>
              <th scope="col">{t("lastUsed")}</th><th scope="col"><span className="visually-hidden">{t("actions")}</span></th>
            </tr>
          </thead>
          <tbody>
            {(members.data?.data ?? []).map((member) => member.status === "invited" ? (
              <tr key={`invitation-${member.invitation_id}`} data-email={member.email}>
                <td dir="ltr">{member.email}</td>
                <td><span className={STATUS_BADGE.invited}>{t("status_invited")}</span> <small>{t("expires", { at: date(member.expires_at) })}</small></td>
                <td>{member.teams.map((team) => team.name).join(", ")}</td>
                <td>{t("never")}</td>
                <td><button type="button" onClick={() => revoke(member.invitation_id)}>{t("revoke")}</button></td>
              </tr>
            ) : (
              <tr key={member.user.id} data-email={member.user.email}>
                <td>{memberName(member.user)} <small dir="ltr">{member.user.email}</small>{member.user.id === me.id && <> <span className="badge">{t("you")}</span></>}</td>
                <td><span className={STATUS_BADGE[member.status]}>{t(`status_${member.status}`)}</span></td>
                <td>{member.teams.map((team) => team.name).join(", ")}</td>
                <td>{member.last_used ? date(utc(member.last_used)) : t("never")}</td>
                <td>
                  <button type="button" onClick={() => setMoving(member)}>{t("changeTeams")}</button>
                  {member.status === "active"
                    ? <button type="button" onClick={() => setStatus(member, "suspended")}>{t("suspend")}</button>
                    : <button type="button" onClick={() => setStatus(member, "active")}>{t("reactivate")}</button>}
                  <button type="button" onClick={() => remove(member)}>{t("remove")}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {members.data && <Pagination meta={members.data.meta} onPage={setPage} />}
    </section>
  )
}
