/**
 * The account's templates (broadcasts) with their review status and Meta's reason for a refusal,
 * kept current from the notification stream (a review arriving) and every 15 seconds; a sync
 * reads the reviews from Meta at once.
 */
import { useState } from "react"
import { api } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { useNotifiedReload } from "../notifications/useNotifiedReload"
import { Link } from "../router"
import { usePermission } from "../session/permissions"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { AllowanceMeter } from "./AllowanceMeter"
import { reviewTone } from "./health"

const EVERY_MS = 15_000
const REVIEWS = new Set(["WhatsappTemplateStatusChanged", "WhatsappTemplateCategoryChanged"])

export const TemplatesPage = () => {
  const { t } = useI18n()
  const may = usePermission()
  const templates = useLoad(async () => (await api.GET("/api/broadcasts")).data?.data, [])
  useNotifiedReload(templates.reload, (notification) => REVIEWS.has(notification.type), EVERY_MS, [])
  const [problem, setProblem] = useState<Problem | undefined>()
  const [syncing, setSyncing] = useState(false)
  const sync = async () => {
    setSyncing(true)
    const { error } = await api.POST("/api/broadcasts/sync")
    setSyncing(false)
    setProblem(problemOf(error))
    templates.reload()
  }
  return (
    <section>
      <header className="page-header">
        <h1>{t("templates")}</h1>
        {may("broadcast-manage") && <Link className="button primary" to="/templates/new">{t("newTemplate")}</Link>}
        {may("broadcast-manage") && <button type="button" onClick={sync} disabled={syncing}>{t("syncReviews")}</button>}
      </header>
      <AllowanceMeter />
      <ProblemMessage problem={problem} />
      {templates.data === undefined ? <p>{t("loading")}</p> : templates.data.length === 0 ? <p>{t("nothingYet")}</p> : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("name")}</th>
                <th scope="col">{t("templateName")}</th>
                <th scope="col">{t("templateLanguage")}</th>
                <th scope="col">{t("category")}</th>
                <th scope="col">{t("sendingNumber")}</th>
                <th scope="col">{t("status")}</th>
                <th scope="col">{t("reviewReason")}</th>
                <th scope="col">{t("actions")}</th>
              </tr>
            </thead>
            <tbody>
              {templates.data.map((broadcast) => (
                <tr key={broadcast.id} data-template={broadcast.template.name}>
                  <td>{broadcast.name}</td>
                  <td dir="ltr">{broadcast.template.name}{broadcast.template.external_id && <small> ({broadcast.template.external_id})</small>}</td>
                  <td>{broadcast.language}</td>
                  <td>{broadcast.template.category}</td>
                  <td>{broadcast.platform.name}</td>
                  <td><span className={reviewTone(broadcast.status)} data-testid="template-status">{broadcast.status}</span></td>
                  <td data-testid="template-reason">{broadcast.reason ?? ""}</td>
                  <td>
                    {may("broadcast-send") && broadcast.status === "APPROVED" && broadcast.template.category !== "AUTHENTICATION" && (
                      <Link className="button" to={`/campaigns/new?broadcast=${broadcast.id}`}>{t("startCampaign")}</Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
