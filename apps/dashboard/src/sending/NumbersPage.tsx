/** The account's sending numbers with their health as Meta last told it (none on the sandbox). */
import { api } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { useLoad } from "../ui/useLoad"
import { qualityTone } from "./health"

export const NumbersPage = () => {
  const { t } = useI18n()
  const numbers = useLoad(async () => (await api.GET("/api/platforms")).data?.data, [])
  const shown = (value: string | null) => value ?? t("notReported")
  return (
    <section>
      <header className="page-header">
        <h1>{t("sendingNumbers")}</h1>
      </header>
      {numbers.data === undefined ? <p>{t("loading")}</p> : numbers.data.length === 0 ? <p>{t("nothingYet")}</p> : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("name")}</th>
                <th scope="col">{t("phoneNumber")}</th>
                <th scope="col">{t("provider")}</th>
                <th scope="col">{t("verifiedName")}</th>
                <th scope="col">{t("codeVerification")}</th>
                <th scope="col">{t("qualityRating")}</th>
                <th scope="col">{t("messagingLimit")}</th>
              </tr>
            </thead>
            <tbody>
              {numbers.data.map((number) => (
                <tr key={number.id} data-number={number.id}>
                  <td><Link to={`/numbers/${number.id}`}>{number.name}</Link></td>
                  <td dir="ltr">{number.display_phone_number}</td>
                  <td>{t(number.provider === "sandbox" ? "providerSandbox" : "providerCloud")}</td>
                  <td>{shown(number.verified_name)}</td>
                  <td>{shown(number.code_verification_status)}</td>
                  <td><span className={qualityTone(number.quality_rating)}>{shown(number.quality_rating)}</span></td>
                  <td>{shown(number.messaging_limit_tier)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
