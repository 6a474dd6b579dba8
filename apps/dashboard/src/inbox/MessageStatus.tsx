/** The ticks of a message the business sent, named for screen readers; a failure says Meta's reason. */
import { useI18n } from "../i18n/i18n"
import { failureReason, TICK_SYMBOL, tickOf } from "./ticks"
import type { Message } from "./wire"

export const MessageStatus = ({ message }: { readonly message: Message }) => {
  const { t } = useI18n()
  const tick = tickOf(message)
  if (tick === undefined) return null
  const reason = tick === "failed" ? failureReason(message.error) : undefined
  return (
    <>
      <span className={`ticks ticks-${tick}`} data-status={tick} title={t(`tick_${tick}`)}>
        <span aria-hidden="true">{TICK_SYMBOL[tick]}</span>
        <span className="visually-hidden">{t(`tick_${tick}`)}</span>
      </span>
      {reason !== undefined && <p className="failure" data-testid="failure-reason">{t("failedBecause", { reason })}</p>}
    </>
  )
}
