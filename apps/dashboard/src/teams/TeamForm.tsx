/** Create a team or edit its name, description and permissions, with the API's messages (422 on a field, 403 naming a permission the caller lacks). */
import { useState, type FormEvent } from "react"
import { api, type Schemas } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import type { Permission } from "../session/permissions"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { PermissionChecklist } from "./PermissionChecklist"

export const TeamForm = ({ team, onSaved, onCancel }: {
  readonly team?: Schemas["TeamDetails"] | undefined
  readonly onSaved: () => void
  readonly onCancel: () => void
}) => {
  const { t } = useI18n()
  const [name, setName] = useState(team?.name ?? "")
  const [description, setDescription] = useState(team?.description ?? "")
  const [permissions, setPermissions] = useState<ReadonlyArray<Permission>>(team?.permissions ?? [])
  const [problem, setProblem] = useState<Problem | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const body = { name, description: description === "" ? null : description, permissions: [...permissions] }
    const answer = team === undefined
      ? await api.POST("/api/account/teams", { body })
      : await api.PUT("/api/account/teams/{id}", { params: { path: { id: String(team.id) } }, body })
    setProblem(problemOf(answer.error))
    if (answer.data) onSaved()
  }
  const permissionsError = fieldError(problem, "permissions") ??
    Object.entries(problem?.errors ?? {}).find(([key]) => key.startsWith("permissions."))?.[1][0]
  return (
    <form className="card" onSubmit={submit} aria-label={team ? `${t("edit")}: ${team.name}` : t("newTeam")} noValidate>
      <ProblemMessage problem={problem} />
      <Field label={t("name")} error={fieldError(problem, "name")}>
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label={t("description")} error={fieldError(problem, "description")}>
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <h2>{t("permissions")}</h2>
      <PermissionChecklist value={permissions} onChange={setPermissions} error={permissionsError} />
      <button type="submit" className="primary">{t("save")}</button>
      <button type="button" onClick={onCancel}>{t("cancel")}</button>
    </form>
  )
}
