/** A webhook's deliveries, each attempt with its status, duration and error; redeliver and recover. */
import { useEffect, useState } from "react"
import { api } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { Pagination } from "../ui/Pagination"
import { useLoad } from "../ui/useLoad"
import { RecoverForm } from "./RecoverForm"
import { WebhookHealth } from "./WebhookHealth"

const POLL_MS = 3_000

export const DeliveryLog = ({ id }: { readonly id: string }) => {
  const { date, t } = useI18n()
  const [page, setPage] = useState(1)
  const webhook = useLoad(async () => (await api.GET("/api/account/webhooks/{id}", { params: { path: { id } } })).data?.data, [id])
  const deliveries = useLoad(
    async () => (await api.GET("/api/account/webhooks/{id}/deliveries", { params: { path: { id }, query: { page } } })).data,
    [id, page]
  )
  const reload = () => { webhook.reload(); deliveries.reload() }
  // While a delivery still has attempts to come, the log follows them every few seconds.
  const pending = deliveries.data?.data.some((delivery) => delivery.status === "pending") ?? false
  useEffect(() => {
    if (!pending) return
    const timer = setInterval(reload, POLL_MS)
    return () => clearInterval(timer)
  }, [pending])
  const redeliver = async (delivery: string) => {
    await api.POST("/api/account/webhooks/{id}/deliveries/{delivery_id}/redeliver", { params: { path: { id, delivery_id: delivery } } })
    reload()
  }
  return (
    <section>
      <header className="page-header">
        <h1>{t("deliveries")}</h1>
        <button type="button" onClick={reload}>{t("refresh")}</button>
        <Link className="button" to="/webhooks">{t("back")}</Link>
      </header>
      {webhook.data && <p dir="ltr" className="url">{webhook.data.URL}</p>}
      {webhook.data && <WebhookHealth webhook={webhook.data} />}
      <ul className="cards">
        {(deliveries.data?.data ?? []).map((delivery) => (
          <li className="card delivery" key={delivery.id} data-status={delivery.status}>
            <header className="page-header">
              <h2 dir="ltr">{delivery.event}</h2>
              <span className={`badge ${delivery.status === "succeeded" ? "ok" : delivery.status === "failed" ? "bad" : "warn"}`}>{t(`status_${delivery.status}`)}</span>
              <button type="button" onClick={() => redeliver(delivery.id)}>{t("redeliver")}</button>
            </header>
            {delivery.next_attempt_at && <p>{t("nextAttempt", { at: date(delivery.next_attempt_at) })}</p>}
            <div className="table-scroll">
              <table>
                <caption className="visually-hidden">{t("attempts")}</caption>
                <thead>
                  <tr><th scope="col">{t("attempt")}</th><th scope="col">{t("at")}</th><th scope="col">{t("status")}</th><th scope="col">{t("duration")}</th><th scope="col">{t("error")}</th></tr>
                </thead>
                <tbody>
                  {delivery.attempts.map((attempt) => (
                    <tr key={attempt.number}>
                      <td>{attempt.number}</td>
                      <td>{date(attempt.at)}</td>
                      <td>{attempt.status_code ?? "—"}</td>
                      <td>{attempt.duration_ms} ms</td>
                      <td dir="ltr">{attempt.error ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </li>
        ))}
      </ul>
      {deliveries.data && deliveries.data.data.length === 0 && <p>{t("nothingYet")}</p>}
      {deliveries.data && <Pagination meta={deliveries.data.meta} onPage={setPage} />}
      <RecoverForm id={id} onDone={reload} />
    </section>
  )
}
