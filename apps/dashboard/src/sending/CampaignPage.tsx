/**
 * One campaign, followed until it ends: its status (and why it is paused or failed), the
 * progress bar and counts, its recipients page by page with their statuses, and cancel.
 */
import { useEffect, useState } from "react"
import { api, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import type { MessageKey } from "../i18n/messages"
import { Link } from "../router"
import { usePermission } from "../session/permissions"
import { useSession } from "../session/session"
import { Pagination } from "../ui/Pagination"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { usePolled } from "../ui/usePolled"
import { AllowanceMeter } from "./AllowanceMeter"
import { CampaignProgress } from "./CampaignProgress"
import { sendingTone } from "./health"
import { useContactNames } from "./useContactNames"
import { ENDED } from "./progress"

export const CampaignPage = ({ id }: { readonly id: string }) => {
  const { date, t } = useI18n()
  const may = usePermission()
  const { refresh } = useSession()
  const path = { params: { path: { _id: id } } }
  const [canceled, setCanceled] = useState<Schemas["Campaign"] | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const [page, setPage] = useState(1)
  const polled = usePolled(async () => (await api.GET("/api/campaigns/{_id}", path)).data?.data, (campaign) => ENDED.has(campaign.status), [id])
  const campaign = canceled ?? polled
  // The recipients follow the counts: each change of them loads the page again.
  const recipients = useLoad(async () =>
    (await api.GET("/api/campaigns/{_id}/recipients", { params: { path: { _id: id }, query: { page, per_page: 15 } } })).data,
    [id, page, campaign?.status, JSON.stringify(campaign?.counts)])
  const names = useContactNames(recipients.data?.data.map((recipient) => recipient.contact_id) ?? [])
  const ended = campaign !== undefined && ENDED.has(campaign.status)
  // Its sends used the monthly allowance: the meter reads it again once it ends.
  useEffect(() => {
    if (ended) void refresh()
  }, [ended, refresh])
  if (campaign === undefined) return <p>{t("loading")}</p>
  const cancel = async () => {
    if (!window.confirm(t("confirmCancelCampaign"))) return
    const { data, error } = await api.POST("/api/campaigns/{_id}/cancel", path)
    setProblem(problemOf(error))
    if (data) setCanceled(data.data)
  }
  return (
    <article>
      <header className="page-header">
        <h1>{campaign.name}</h1>
        {may("broadcast-send") && !ended && <button type="button" onClick={cancel}>{t("cancelCampaign")}</button>}
        <Link className="button" to="/campaigns">{t("campaigns")}</Link>
      </header>
      <ProblemMessage problem={problem} />
      <section className="card" aria-label={t("progress")}>
        <p>
          <span className={sendingTone(campaign.status)} data-testid="campaign-status" data-status={campaign.status}>{t(`campaign_${campaign.status}`)}</span>
          {campaign.reason && <> <span data-testid="campaign-reason">{campaign.reason}</span></>}
        </p>
        <CampaignProgress campaign={campaign} />
        <dl className="properties">
          <div><dt>{t("scheduledAt")}</dt><dd>{date(campaign.scheduled_at) || t("notScheduled")}</dd></div>
          <div><dt>{t("startedAt")}</dt><dd>{date(campaign.started_at)}</dd></div>
          <div><dt>{t("completedAt")}</dt><dd>{date(campaign.completed_at)}</dd></div>
        </dl>
      </section>
      <AllowanceMeter />
      <section aria-labelledby="recipients">
        <h2 id="recipients">{t("recipients")}</h2>
        {recipients.data === undefined ? <p>{t("loading")}</p> : recipients.data.data.length === 0 ? <p>{t("noRecipientsYet")}</p> : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("contact")}</th>
                  <th scope="col">{t("status")}</th>
                  <th scope="col">{t("reviewReason")}</th>
                  <th scope="col">{t("updated_at")}</th>
                </tr>
              </thead>
              <tbody>
                {recipients.data.data.map((recipient) => (
                  <tr key={recipient.contact_id} data-recipient={recipient.contact_id}>
                    <td><Link to={`/contacts/${recipient.contact_id}`}>{names.get(recipient.contact_id) ?? recipient.contact_id}</Link></td>
                    <td><span className={sendingTone(recipient.status)} data-testid="recipient-status">{t(`recipient_${recipient.status}` as MessageKey)}</span></td>
                    <td>{recipient.reason ?? ""}</td>
                    <td>{date(recipient.updated_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {recipients.data && recipients.data.meta.last_page > 1 && <Pagination meta={recipients.data.meta} onPage={setPage} />}
      </section>
    </article>
  )
}
