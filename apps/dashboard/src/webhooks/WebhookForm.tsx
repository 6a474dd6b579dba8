/** Create a webhook or edit its URL and events, with the API's 422 messages on the fields. */
import { useState, type FormEvent } from "react"
import { api, type Schemas } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { EVENT_NAMES } from "./events"

export const WebhookForm = ({ webhook, onSaved, onCancel }: {
  readonly webhook?: Schemas["Webhook"] | undefined
  readonly onSaved: (saved: Schemas["Webhook"]) => void
  readonly onCancel: () => void
}) => {
  const { t } = useI18n()
  const [url, setUrl] = useState(webhook?.URL ?? "https://")
  const [events, setEvents] = useState<ReadonlyArray<string>>(webhook?.events.map((e) => e.name) ?? [])
  const [problem, setProblem] = useState<Problem | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const body = { URL: url, events } as never
    const answer = webhook === undefined
      ? await api.POST("/api/account/webhooks", { body })
      : await api.PUT("/api/account/webhooks/{id}", { params: { path: { id: String(webhook.id) } }, body })
    setProblem(problemOf(answer.error))
    if (answer.data) onSaved(answer.data.data)
  }
  const eventsError = fieldError(problem, "events") ?? Object.entries(problem?.errors ?? {}).find(([key]) => key.startsWith("events."))?.[1][0]
  return (
    <form className="card" onSubmit={submit} aria-label={webhook ? t("edit") : `${t("new")}: ${t("webhooks")}`} noValidate>
      <ProblemMessage problem={problem} />
      <Field label={t("url")} error={fieldError(problem, "URL")}>
        <input type="url" dir="ltr" value={url} onChange={(e) => setUrl(e.target.value)} />
      </Field>
      <Field label={t("events")} error={eventsError}>
        <select multiple size={8} dir="ltr" value={events as Array<string>} onChange={(e) => setEvents(Array.from(e.target.selectedOptions, (o) => o.value))}>
          {EVENT_NAMES.map((name) => <option key={name} value={name}>{name}</option>)}
        </select>
      </Field>
      <button type="submit" className="primary">{t("save")}</button>
      <button type="button" onClick={onCancel}>{t("cancel")}</button>
    </form>
  )
}
