/** Queues again the deliveries of a webhook that failed in a period. */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"

const iso = (local: string) => (local === "" ? undefined : new Date(local).toISOString())

export const RecoverForm = ({ id, onDone }: { readonly id: string; readonly onDone: () => void }) => {
  const { t } = useI18n()
  const [since, setSince] = useState("")
  const [until, setUntil] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [queued, setQueued] = useState<number | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const { data, error } = await api.POST("/api/account/webhooks/{id}/recover", {
      params: { path: { id } },
      body: { since: iso(since), ...(until ? { until: iso(until) } : {}) }
    })
    setProblem(problemOf(error))
    setQueued(data?.data.queued)
    onDone()
  }
  return (
    <form className="card" onSubmit={submit} aria-label={t("recover")}>
      <h2>{t("recover")}</h2>
      <ProblemMessage problem={problem} />
      <Field label={t("since")} error={fieldError(problem, "since")}>
        <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
      </Field>
      <Field label={t("until")} error={fieldError(problem, "until")}>
        <input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
      </Field>
      <button type="submit">{t("recover")}</button>
      {queued !== undefined && <p role="status">{t("queued", { count: queued })}</p>}
    </form>
  )
}
