/** Previous/next for a paginated answer, with its page and total. */
import { useI18n } from "../i18n/i18n"

export interface PageMeta {
  readonly current_page: number
  readonly last_page: number
  readonly total: number
  readonly from: number | null
  readonly to: number | null
}

export const Pagination = ({ meta, onPage }: { readonly meta: PageMeta; readonly onPage: (page: number) => void }) => {
  const { t } = useI18n()
  return (
    <nav className="pagination" aria-label={t("page", { page: meta.current_page, last: meta.last_page })}>
      <button type="button" disabled={meta.current_page <= 1} onClick={() => onPage(meta.current_page - 1)}>{t("previous")}</button>
      <span>{t("page", { page: meta.current_page, last: Math.max(meta.last_page, 1) })}</span>
      <span data-testid="total">{t("total", { total: meta.total })}</span>
      <button type="button" disabled={meta.current_page >= meta.last_page} onClick={() => onPage(meta.current_page + 1)}>{t("next")}</button>
    </nav>
  )
}
