/** The account's webhooks: health, create (secret shown once), validate, (de)activate, edit, delete. */
import { useState } from "react"
import { api, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { ProblemMessage } from "../ui/ProblemMessage"
import { Secret } from "../ui/Secret"
import { useLoad } from "../ui/useLoad"
import { WebhookForm } from "./WebhookForm"
import { WebhookHealth } from "./WebhookHealth"

export const WebhooksPage = () => {
  const { t } = useI18n()
  const webhooks = useLoad(async () => (await api.GET("/api/account/webhooks")).data?.data ?? [], [])
  const [editing, setEditing] = useState<Schemas["Webhook"] | "new" | undefined>()
  const [secret, setSecret] = useState<string | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const act = async (answer: Promise<{ error?: unknown }>) => {
    setProblem(problemOf((await answer).error))
    webhooks.reload()
  }
  const saved = (webhook: Schemas["Webhook"]) => {
    if (editing === "new") setSecret(webhook.secret)
    setEditing(undefined)
    webhooks.reload()
  }
  return (
    <section>
      <header className="page-header">
        <h1>{t("webhooks")}</h1>
        <button type="button" className="primary" onClick={() => { setEditing("new"); setSecret(undefined) }}>{t("new")}</button>
      </header>
      {editing !== undefined && <WebhookForm webhook={editing === "new" ? undefined : editing} onSaved={saved} onCancel={() => setEditing(undefined)} />}
      {secret && <Secret label={t("secret")} note={t("secretOnce")} value={secret} />}
      <ProblemMessage problem={problem} />
      <ul className="cards">
        {(webhooks.data ?? []).map((webhook) => {
          const id = String(webhook.id)
          return (
            <li className="card" key={webhook.id} aria-label={webhook.URL}>
              <h2 dir="ltr" className="url">{webhook.URL}</h2>
              <WebhookHealth webhook={webhook} />
              <p dir="ltr"><small>{webhook.events.map((e) => e.name).join(", ")}</small></p>
              <div className="actions">
                <button type="button" onClick={() => act(api.POST("/api/account/webhooks/{id}/validate", { params: { path: { id } } }))}>{t("validate")}</button>
                <button type="button" onClick={() => act(api.PUT("/api/account/webhooks/{id}/activate", { params: { path: { id } }, body: { is_active: !webhook.is_active } as never }))}>
                  {webhook.is_active ? t("deactivate") : t("activate")}
                </button>
                <button type="button" onClick={() => setEditing(webhook)}>{t("edit")}</button>
                <Link className="button" to={`/webhooks/${id}`}>{t("deliveries")}</Link>
                <button type="button" onClick={() => window.confirm(t("confirmDelete")) && act(api.DELETE("/api/account/webhooks/{id}", { params: { path: { id } } }))}>{t("delete")}</button>
              </div>
            </li>
          )
        })}
      </ul>
      {webhooks.data?.length === 0 && <p>{t("nothingYet")}</p>}
    </section>
  )
}
