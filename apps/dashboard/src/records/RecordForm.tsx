/**
 * Create or edit a record: one control per writable property, sending only what changed, and the
 * API's 422 messages shown on their fields.
 */
import { useState, type FormEvent } from "react"
import { api, type Kind } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { Link, navigate } from "../router"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { DERIVED, type RecordValues } from "./kinds"
import { PropertyInput } from "./PropertyInput"
import { useProperties } from "./useProperties"
import { formText, fromFormText } from "./values"

type Texts = Readonly<Record<string, string | ReadonlyArray<string>>>

export const RecordForm = ({ kind, id }: { readonly kind: Kind; readonly id?: string | undefined }) => {
  const { language, t } = useI18n()
  const properties = (useProperties(kind).data ?? []).filter((p) => !DERIVED.has(p.internal_name))
  const current = useLoad(async (): Promise<RecordValues> => {
    if (id === undefined) return {}
    const { data } = await api.GET("/api/{kind}/{id}", { params: { path: { kind, id } } })
    return (data?.data.properties ?? {}) as RecordValues
  }, [kind, id])
  const [edits, setEdits] = useState<Texts>({})
  const [problem, setProblem] = useState<Problem | undefined>()
  const textOf = (name: string) => {
    const property = properties.find((p) => p.internal_name === name)!
    return edits[name] ?? formText(current.data?.[name], property)
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const body = Object.fromEntries(
      Object.entries(edits).map(([name, text]) => [name, fromFormText(text, properties.find((p) => p.internal_name === name)!)])
    )
    const answer = id === undefined
      ? await api.POST("/api/{kind}", { params: { path: { kind } }, body })
      : await api.PUT("/api/{kind}/{id}", { params: { path: { kind, id } }, body })
    const failed = problemOf(answer.error)
    setProblem(failed)
    if (failed === undefined && answer.data) navigate(`/${kind}/${answer.data.data.properties._id}`)
  }
  if (current.data === undefined) return <p>{t("loading")}</p>
  return (
    <form className="record-form" onSubmit={submit} noValidate>
      <h1>{id === undefined ? `${t("new")}: ${t(`kind_${kind}`)}` : t("edit")}</h1>
      <ProblemMessage problem={problem} />
      {properties.map((property) => (
        <Field key={property._id} label={localized(property.name, language) || property.internal_name} error={fieldError(problem, property.internal_name)}>
          <PropertyInput property={property} value={textOf(property.internal_name)} onChange={(text) => setEdits({ ...edits, [property.internal_name]: text })} />
        </Field>
      ))}
      <div className="actions">
        <button type="submit" className="primary">{id === undefined ? t("create") : t("save")}</button>
        <Link className="button" to={id === undefined ? `/${kind}` : `/${kind}/${id}`}>{t("cancel")}</Link>
      </div>
    </form>
  )
}
