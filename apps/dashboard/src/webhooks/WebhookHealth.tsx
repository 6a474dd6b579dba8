/** A webhook's state at a glance: validated, active, and its run of failed deliveries. */
import type { Schemas } from "../api/client"
import { useI18n } from "../i18n/i18n"

export const WebhookHealth = ({ webhook }: { readonly webhook: Schemas["Webhook"] }) => {
  const { date, t } = useI18n()
  const failing = webhook.consecutive_failures > 0 || (webhook.is_validated && !webhook.is_active && webhook.last_failure_at !== null)
  return (
    <span className="health" data-testid="health">
      <span className={webhook.is_validated ? "badge ok" : "badge"}>{webhook.is_validated ? t("validated") : t("notValidated")}</span>{" "}
      <span className={webhook.is_active ? "badge ok" : "badge warn"}>{webhook.is_active ? t("active") : t("inactive")}</span>{" "}
      <span className={failing ? "badge bad" : "badge ok"}>
        {failing ? t("failing", { count: webhook.consecutive_failures }) : t("healthy")}
      </span>
      {webhook.last_failure_at && <small> {t("lastFailure", { at: date(webhook.last_failure_at) })}</small>}
    </span>
  )
}
