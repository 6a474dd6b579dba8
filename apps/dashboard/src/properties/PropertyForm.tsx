/**
 * Create or edit a custom property: internal name (at creation only), type, group, bilingual
 * name and description, and the options of a select.
 */
import { useState, type FormEvent } from "react"
import { api, type Kind, type Schemas } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { BilingualFields, fromLocalized, toLocalized } from "./BilingualFields"

type PropertyType = Schemas["PropertyView"]["type"]

const TYPES: ReadonlyArray<PropertyType> = [
  "string", "textarea", "number", "boolean", "date", "datetime", "single_select", "multi_select", "email", "phone", "url"
]

const optionsText = (options: ReadonlyArray<Schemas["EnumOption"]> | undefined): string =>
  (options ?? []).map((o) => [o.internal_name, o.en, o.ar].join(" | ")).join("\n")

const parseOptions = (text: string) =>
  text.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const [internal_name = "", en = "", ar = ""] = line.split("|").map((part) => part.trim())
    return { internal_name, en, ar }
  })

export const PropertyForm = ({ kind, groups, property, onDone }: {
  readonly kind: Kind
  readonly groups: ReadonlyArray<Schemas["PropertyGroupView"]>
  readonly property?: Schemas["PropertyView"] | undefined
  readonly onDone: () => void
}) => {
  const { language, t } = useI18n()
  const [internalName, setInternalName] = useState(property?.internal_name ?? "")
  const [type, setType] = useState<PropertyType>(property?.type ?? "string")
  const [chosenGroup, setGroupId] = useState(property?.group_id ?? "")
  // The groups may arrive after the form opens: until one is chosen, the first is meant.
  const groupId = chosenGroup || (groups[0]?._id ?? "")
  const [name, setName] = useState(fromLocalized(property?.name))
  const [desc, setDesc] = useState(fromLocalized(property?.desc))
  const [options, setOptions] = useState(optionsText(property?.enum))
  const [problem, setProblem] = useState<Problem | undefined>()
  const selects = type === "single_select" || type === "multi_select"
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const common = { type, group_id: groupId, name: toLocalized(name), desc: toLocalized(desc), ...(selects ? { enum: parseOptions(options) } : {}) }
    const { error } = property === undefined
      ? await api.POST("/api/{kind}/properties", { params: { path: { kind } }, body: { ...common, internal_name: internalName } as never })
      : await api.PUT("/api/{kind}/properties/{id}", { params: { path: { kind, id: property._id } }, body: common as never })
    setProblem(problemOf(error))
    if (!error) onDone()
  }
  return (
    <form className="card" onSubmit={submit} aria-label={property ? t("edit") : `${t("new")}: ${t("property")}`}>
      <ProblemMessage problem={problem} />
      {property === undefined && (
        <Field label={t("internalName")} error={fieldError(problem, "internal_name")}>
          <input dir="ltr" value={internalName} onChange={(e) => setInternalName(e.target.value)} />
        </Field>
      )}
      <Field label={t("type")} error={fieldError(problem, "type")}>
        <select value={type} onChange={(e) => setType(e.target.value as PropertyType)}>
          {TYPES.map((value) => <option key={value} value={value}>{value}</option>)}
        </select>
      </Field>
      <Field label={t("group")} error={fieldError(problem, "group_id")}>
        <select value={groupId} onChange={(e) => setGroupId(e.target.value)}>
          {groups.map((group) => <option key={group._id} value={group._id}>{localized(group.name, language)}</option>)}
        </select>
      </Field>
      <BilingualFields field="name" labels={["nameEn", "nameAr"]} value={name} onChange={setName} problem={problem} />
      <BilingualFields field="desc" labels={["descEn", "descAr"]} value={desc} onChange={setDesc} problem={problem} />
      {selects && (
        <Field label={t("options")} hint={t("optionsHint")} error={fieldError(problem, "enum") ?? Object.entries(problem?.errors ?? {}).find(([key]) => key.startsWith("enum."))?.[1][0]}>
          <textarea dir="ltr" value={options} onChange={(e) => setOptions(e.target.value)} />
        </Field>
      )}
      <button type="submit" className="primary">{t("save")}</button>
      <button type="button" onClick={onDone}>{t("cancel")}</button>
    </form>
  )
}
