/** The account's monthly allowance of template messages: used of the limit, and when it starts again. */
import { useId } from "react"
import { useI18n } from "../i18n/i18n"
import { useMe } from "../session/session"

export const AllowanceMeter = () => {
  const { date, t } = useI18n()
  const id = useId()
  const { limit, used, resets_at } = useMe().account.message_allowance
  return (
    <section className="card allowance" aria-labelledby={id}>
      <h2 id={id}>{t("allowance")}</h2>
      <meter min={0} max={Math.max(limit, 1)} high={limit * 0.9} value={used} aria-labelledby={id} aria-valuetext={t("allowanceUsed", { used, limit })} />
      <p><span data-testid="allowance-used">{t("allowanceUsed", { used, limit })}</span> · {t("allowanceResets", { at: date(resets_at) })}</p>
    </section>
  )
}
