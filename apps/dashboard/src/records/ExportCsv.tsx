/**
 * Exports the list as it is searched, filtered and ordered (with the columns chosen, or all of
 * them) and follows the export the worker writes, to its download link. The link is same-origin,
 * so the session cookie signs the download in.
 */
import { useState } from "react"
import { api, type Kind, type Schemas } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { usePolled } from "../ui/usePolled"
import { JobStatus } from "./JobStatus"

/** The list query the export repeats over every page. */
export interface ListQuery {
  readonly search: string
  readonly order: string
  readonly direction: "asc" | "desc"
  readonly complex_filters: unknown
}

const ExportProgress = ({ id }: { readonly id: string }) => {
  const { t } = useI18n()
  const job = usePolled(async () => (await api.GET("/api/exports/{id}", { params: { path: { id } } })).data?.data,
    (job) => job.status !== "queued" && job.status !== "running", [id])
  return (
    <div data-testid="export-progress">
      <JobStatus state={job?.status} />
      {job?.failure_reason && <p className="problem">{job.failure_reason}</p>}
      {job?.status === "completed" && (
        <p>
          <a className="button primary" href={`/api/exports/${id}/download`} download>{t("downloadCsv")}</a>{" "}
          <span data-testid="export-size">{t("exportSize", { count: job.row_count ?? 0, kb: Math.ceil((job.byte_size ?? 0) / 1024) })}</span>
        </p>
      )}
    </div>
  )
}

export const ExportCsv = ({ kind, properties, query }: {
  readonly kind: Kind
  readonly properties: ReadonlyArray<Schemas["PropertyView"]>
  readonly query: ListQuery
}) => {
  const { language, t } = useI18n()
  const [columns, setColumns] = useState<ReadonlyArray<string>>([])
  const [problem, setProblem] = useState<Problem | undefined>()
  const [id, setId] = useState<string | undefined>()
  const start = async () => {
    // As the list sends it: an empty search is no search.
    const { search, ...rest } = query
    const body = { ...rest, ...(search !== "" ? { search } : {}), ...(columns.length > 0 ? { properties: [...columns] } : {}) }
    const { data, error } = await api.POST("/api/{kind}/exports", { params: { path: { kind } }, body })
    setProblem(problemOf(error))
    setId(data?.data._id)
  }
  return (
    <section className="card" aria-label={t("exportCsv")}>
      <h2>{t("exportCsv")}</h2>
      <p>{t("exportHint")}</p>
      <ProblemMessage problem={problem} />
      <Field label={t("columns")} hint={t("columnsHint")} error={fieldError(problem, "properties")}>
        <select multiple size={6} value={columns as Array<string>} onChange={(e) => setColumns(Array.from(e.target.selectedOptions, (o) => o.value))}>
          {properties.map((p) => <option key={p._id} value={p.internal_name}>{localized(p.name, language) || p.internal_name}</option>)}
        </select>
      </Field>
      <button type="button" className="primary" onClick={start}>{t("startExport")}</button>
      {id && <ExportProgress key={id} id={id} />}
    </section>
  )
}
