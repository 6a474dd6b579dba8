/**
 * Uploads a CSV of the kind's records (with an optional match_on property), then follows the
 * import the worker runs: counts, the first refused rows and the refused rows' CSV.
 */
import { useState, type FormEvent } from "react"
import { api, type Kind, type Schemas } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { usePolled } from "../ui/usePolled"
import { JobStatus } from "./JobStatus"
import { DERIVED } from "./kinds"

const ImportProgress = ({ kind, id, onEnd }: { readonly kind: Kind; readonly id: string; readonly onEnd: () => void }) => {
  const { t } = useI18n()
  const job = usePolled(async () => {
    const { data } = await api.GET("/api/{kind}/imports/{id}", { params: { path: { kind, id } } })
    if (data && (data.data.status === "completed" || data.data.status === "failed")) onEnd()
    return data?.data
  }, (job) => job.status === "completed" || job.status === "failed", [kind, id])
  return (
    <div data-testid="import-progress">
      <JobStatus state={job?.status} />
      {job && (
        <>
          {job.reason && <p className="problem">{job.reason}</p>}
          <dl className="properties">
            <div><dt>{t("rowsRead")}</dt><dd data-testid="rows-read">{t("ofTotal", { count: job.rows_read, total: job.rows_total })}</dd></div>
            <div><dt>{t("createdCount")}</dt><dd data-testid="created">{job.created}</dd></div>
            <div><dt>{t("updatedCount")}</dt><dd data-testid="updated">{job.updated}</dd></div>
            <div><dt>{t("failedCount")}</dt><dd data-testid="failed">{job.failed}</dd></div>
          </dl>
          {job.failures.length > 0 && (
            <>
              <h3>{t("refusedRows")}</h3>
              <ul className="failures">
                {job.failures.map((failure) => (
                  <li key={failure.line}>{t("line", { line: failure.line })}: {Object.values(failure.errors).flat().join(" ")}</li>
                ))}
              </ul>
            </>
          )}
          {job.failed > 0 && <a href={`/api/${kind}/imports/${id}/errors`} download>{t("downloadErrors")}</a>}
        </>
      )}
    </div>
  )
}

export const ImportCsv = ({ kind, properties, onImported }: {
  readonly kind: Kind
  readonly properties: ReadonlyArray<Schemas["PropertyView"]>
  readonly onImported: () => void
}) => {
  const { language, t } = useI18n()
  const [file, setFile] = useState<File | undefined>()
  const [matchOn, setMatchOn] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [id, setId] = useState<string | undefined>()
  const upload = async (event: FormEvent) => {
    event.preventDefault()
    if (file === undefined) return
    const form = new FormData()
    if (matchOn !== "") form.append("match_on", matchOn)
    form.append("file", file)
    const { data, error } = await api.POST("/api/{kind}/imports", {
      params: { path: { kind } },
      body: { file: file.name },
      // Sent as the multipart form itself: the browser sets its boundary.
      bodySerializer: () => form
    })
    setProblem(problemOf(error))
    setId(data?.data._id)
  }
  return (
    <section className="card" aria-label={t("importCsv")}>
      <h2>{t("importCsv")}</h2>
      <form onSubmit={upload} noValidate>
        <ProblemMessage problem={problem} />
        <Field label={t("csvFile")} hint={t("csvFileHint")} error={fieldError(problem, "file")}>
          <input type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0])} />
        </Field>
        <Field label={t("matchOn")} hint={t("matchOnHint")} error={fieldError(problem, "match_on")}>
          <select value={matchOn} onChange={(e) => setMatchOn(e.target.value)}>
            <option value="">{t("matchNone")}</option>
            {properties.filter((p) => !DERIVED.has(p.internal_name)).map((p) => (
              <option key={p._id} value={p.internal_name}>{localized(p.name, language) || p.internal_name}</option>
            ))}
          </select>
        </Field>
        <button type="submit" className="primary" disabled={file === undefined}>{t("upload")}</button>
      </form>
      {id && <ImportProgress key={id} kind={kind} id={id} onEnd={onImported} />}
    </section>
  )
}
