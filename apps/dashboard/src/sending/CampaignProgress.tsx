/** A campaign's progress bar and its counts. */
import type { Schemas } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { progressOf } from "./progress"

const COUNTS = ["recipients", "sent", "delivered", "read", "failed", "skipped"] as const

export const CampaignProgress = ({ campaign, compact = false }: { readonly campaign: Schemas["Campaign"]; readonly compact?: boolean }) => {
  const { t } = useI18n()
  const { done, of, percent } = progressOf(campaign)
  return (
    <div className="campaign-progress">
      <progress max={Math.max(of, 1)} value={of === 0 ? (percent === 100 ? 1 : 0) : done} aria-label={t("progressOf", { name: campaign.name })}
        aria-valuetext={t("progressText", { done, of, percent })} data-testid="progress" />
      <span>{t("progressText", { done, of, percent })}</span>
      {!compact && (
        <dl className="counts">
          {COUNTS.map((count) => (
            <div key={count}><dt>{t(`count_${count}`)}</dt><dd data-testid={`count-${count}`}>{campaign.counts[count]}</dd></div>
          ))}
        </dl>
      )}
    </div>
  )
}
