/**
 * A new campaign from an approved template: its audience built with the contacts' filter builder
 * (and search), with the count of contacts it matches now; a value per variable (a text, or a
 * property of each contact); and optionally a time to start.
 */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { FilterBuilder } from "../records/FilterBuilder"
import { type FilterRow, toApiFilters } from "../records/filters"
import { useProperties } from "../records/useProperties"
import { navigate, useLocation } from "../router"
import { useSession } from "../session/session"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useDebounced } from "../ui/useDebounced"
import { useLoad } from "../ui/useLoad"
import { AllowanceMeter } from "./AllowanceMeter"
import { variableCount } from "./variables"

/** A variable's value as chosen: a text, or a contact property's internal name. */
interface Parameter {
  readonly from: "text" | "property"
  readonly value: string
}

const NO_PARAMETER: Parameter = { from: "text", value: "" }

export const CampaignForm = () => {
  const { language, t } = useI18n()
  const { refresh } = useSession()
  const { search: query } = useLocation()
  const properties = useProperties("contacts").data ?? []
  const templates = useLoad(async () =>
    ((await api.GET("/api/broadcasts")).data?.data ?? []).filter((b) => b.status === "APPROVED" && b.template.category !== "AUTHENTICATION"), [])
  const [chosen, setChosen] = useState(() => new URLSearchParams(query).get("broadcast") ?? "")
  const [name, setName] = useState("")
  const [search, setSearch] = useState("")
  const [filters, setFilters] = useState<ReadonlyArray<FilterRow>>([])
  const [parameters, setParameters] = useState<{ readonly body: ReadonlyArray<Parameter>; readonly header: ReadonlyArray<Parameter> }>({ body: [], header: [] })
  const [later, setLater] = useState(false)
  const [at, setAt] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const searched = useDebounced(search)
  const isNumeric = (property: string) => properties.some((p) => p.internal_name === property && p.type === "number")
  const audience = { search: searched, complex_filters: toApiFilters(filters, isNumeric) }
  const count = useLoad(async () => {
    const { data } = await api.GET("/api/{kind}", { params: { path: { kind: "contacts" }, query: { ...audience, per_page: 1 } } })
    return data?.meta.total
  }, [searched, filters, properties.length])
  const broadcast = templates.data?.find((b) => String(b.id) === chosen) ?? templates.data?.[0]
  const counts = {
    header: variableCount(broadcast?.template.header?.text ?? ""),
    body: variableCount(broadcast?.template.body.text ?? "")
  }
  const valuesOf = (part: "body" | "header") =>
    Array.from({ length: counts[part] }, (_, index) => {
      const parameter = parameters[part][index] ?? NO_PARAMETER
      return parameter.from === "text" ? parameter.value : { property: parameter.value || properties[0]?.internal_name || "" }
    })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (broadcast === undefined) return
    const body = {
      name,
      audience: { ...(audience.search === "" ? {} : { search: audience.search }), complex_filters: audience.complex_filters },
      parameters: { body: valuesOf("body"), header: valuesOf("header") },
      ...(later && at !== "" ? { scheduled_at: new Date(at).toISOString() } : {})
    }
    const { data, error } = await api.POST("/api/broadcasts/{id}/campaigns", { params: { path: { id: String(broadcast.id) } }, body })
    setProblem(problemOf(error))
    if (data) {
      void refresh()
      navigate(`/campaigns/${data.data._id}`)
    }
  }
  // A function, not a component: a component made anew each render would remount its inputs.
  const parameterFields = (part: "body" | "header") =>
    Array.from({ length: counts[part] }, (_, index) => {
        const parameter = parameters[part][index] ?? NO_PARAMETER
        const change = (next: Parameter) => setParameters((all) => ({ ...all, [part]: Object.assign([...all[part]], { [index]: next }) }))
        const label = t(part === "body" ? "bodyVariable" : "headerVariable", { number: index + 1 })
        return (
          <fieldset className="condition" key={`${part}-${index}`}>
            <legend>{label}</legend>
            <select aria-label={t("parameterFrom", { variable: label })} value={parameter.from} onChange={(e) => change({ from: e.target.value as Parameter["from"], value: "" })}>
              <option value="text">{t("parameterText")}</option>
              <option value="property">{t("parameterProperty")}</option>
            </select>
            <Field label={t("parameterValue", { variable: label })} error={fieldError(problem, `parameters.${part}.${index}`)}>
              {parameter.from === "text"
                ? <input value={parameter.value} onChange={(e) => change({ ...parameter, value: e.target.value })} />
                : (
                  <select value={parameter.value || properties[0]?.internal_name} onChange={(e) => change({ ...parameter, value: e.target.value })}>
                    {properties.map((p) => <option key={p._id} value={p.internal_name}>{localized(p.name, language) || p.internal_name}</option>)}
                  </select>
                )}
            </Field>
          </fieldset>
        )
      })
  const audienceError = Object.entries(problem?.errors ?? {}).find(([key]) => key.startsWith("audience"))?.[1][0]
  return (
    <section>
      <header className="page-header">
        <h1>{t("newCampaign")}</h1>
      </header>
      <AllowanceMeter />
      {templates.data?.length === 0 && <p>{t("noApprovedTemplates")}</p>}
      <form className="card" onSubmit={submit} aria-label={t("newCampaign")} noValidate>
        <ProblemMessage problem={problem} />
        <Field label={t("template")} error={fieldError(problem, "template")}>
          <select value={broadcast === undefined ? "" : String(broadcast.id)} onChange={(e) => setChosen(e.target.value)}>
            {(templates.data ?? []).map((b) => <option key={b.id} value={b.id}>{b.name} ({b.template.name}, {b.language})</option>)}
          </select>
        </Field>
        {broadcast !== undefined && <p className="template-text"><small>{broadcast.template.body.text}</small></p>}
        <Field label={t("campaignName")} error={fieldError(problem, "name")}>
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <h2>{t("audience")}</h2>
        <div className="toolbar" role="search">
          <label>
            {t("search")}
            <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
        </div>
        <FilterBuilder properties={properties} onApply={setFilters} />
        <p role="status">
          <strong data-testid="audience-count">{count.data === undefined ? t("loading") : t("audienceCount", { count: count.data })}</strong>
        </p>
        {audienceError && <p className="problem" role="alert">{audienceError}</p>}
        {counts.header + counts.body > 0 && <h2>{t("parameters")}</h2>}
        {parameterFields("header")}
        {parameterFields("body")}
        <label className="check">
          <input type="checkbox" checked={later} onChange={(e) => setLater(e.target.checked)} />
          {t("sendLater")}
        </label>
        {later && (
          <Field label={t("scheduledAt")} error={fieldError(problem, "scheduled_at")}>
            <input type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} />
          </Field>
        )}
        <button type="submit" className="primary" disabled={broadcast === undefined}>{later ? t("schedule") : t("sendNow")}</button>
        <button type="button" onClick={() => navigate("/campaigns")}>{t("cancel")}</button>
      </form>
    </section>
  )
}
