/** Create or edit a property group: its bilingual name and description. */
import { useState, type FormEvent } from "react"
import { api, type Kind, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { ProblemMessage } from "../ui/ProblemMessage"
import { BilingualFields, fromLocalized, toLocalized } from "./BilingualFields"

export const GroupForm = ({ kind, group, onDone }: {
  readonly kind: Kind
  readonly group?: Schemas["PropertyGroupView"] | undefined
  readonly onDone: () => void
}) => {
  const { t } = useI18n()
  const [name, setName] = useState(fromLocalized(group?.name))
  const [desc, setDesc] = useState(fromLocalized(group?.desc))
  const [problem, setProblem] = useState<Problem | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const body = { name: toLocalized(name), desc: toLocalized(desc) }
    const { error } = group === undefined
      ? await api.POST("/api/{kind}/properties/groups", { params: { path: { kind } }, body })
      : await api.PUT("/api/{kind}/properties/groups/{id}", { params: { path: { kind, id: group._id } }, body })
    setProblem(problemOf(error))
    if (!error) onDone()
  }
  return (
    <form className="card" onSubmit={submit} aria-label={group ? t("edit") : `${t("new")}: ${t("group")}`}>
      <ProblemMessage problem={problem} />
      <BilingualFields field="name" labels={["nameEn", "nameAr"]} value={name} onChange={setName} problem={problem} />
      <BilingualFields field="desc" labels={["descEn", "descAr"]} value={desc} onChange={setDesc} problem={problem} />
      <button type="submit" className="primary">{t("save")}</button>
      <button type="button" onClick={onDone}>{t("cancel")}</button>
    </form>
  )
}
