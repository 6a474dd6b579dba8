/** The account's campaigns, newest first, each with its status and progress; the monthly allowance. */
import { useState } from "react"
import { api } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { usePermission } from "../session/permissions"
import { Pagination } from "../ui/Pagination"
import { usePolled } from "../ui/usePolled"
import { AllowanceMeter } from "./AllowanceMeter"
import { CampaignProgress } from "./CampaignProgress"
import { sendingTone } from "./health"
import { ENDED } from "./progress"

export const CampaignsPage = () => {
  const { date, t } = useI18n()
  const may = usePermission()
  const [page, setPage] = useState(1)
  // Followed while a campaign of the page is still under way.
  const list = usePolled(async () => (await api.GET("/api/campaigns", { params: { query: { page, per_page: 15 } } })).data,
    (answer) => answer.data.every((campaign) => ENDED.has(campaign.status) || campaign.status === "scheduled"), [page])
  return (
    <section>
      <header className="page-header">
        <h1>{t("campaigns")}</h1>
        {may("broadcast-send") && <Link className="button primary" to="/campaigns/new">{t("newCampaign")}</Link>}
      </header>
      <AllowanceMeter />
      {list === undefined ? <p>{t("loading")}</p> : list.data.length === 0 ? <p>{t("nothingYet")}</p> : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("name")}</th>
                <th scope="col">{t("status")}</th>
                <th scope="col">{t("progress")}</th>
                <th scope="col">{t("scheduledAt")}</th>
                <th scope="col">{t("created_at")}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((campaign) => (
                <tr key={campaign._id} data-campaign={campaign._id}>
                  <td><Link to={`/campaigns/${campaign._id}`}>{campaign.name}</Link></td>
                  <td><span className={sendingTone(campaign.status)}>{t(`campaign_${campaign.status}`)}</span></td>
                  <td><CampaignProgress campaign={campaign} compact /></td>
                  <td>{date(campaign.scheduled_at)}</td>
                  <td>{date(campaign.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && list.meta.last_page > 1 && <Pagination meta={list.meta} onPage={setPage} />}
    </section>
  )
}
