/** A record's property history as a timeline, newest first: each change with who made it, how and when. */
import { useState } from "react"
import { api, type Kind, type Schemas } from "../api/client"
import { addMessages, localized, useI18n } from "../i18n/i18n"
import { historyAr, historyEn } from "../i18n/history-messages"
import { usePermission } from "../session/permissions"
import { useMe } from "../session/session"
import { useLoad } from "../ui/useLoad"
import { displayValue } from "./values"

addMessages({ en: historyEn, ar: historyAr })

type Entry = Schemas["HistoryEntry"]

const PER_PAGE = 20

export const History = ({ kind, id, properties }: {
  readonly kind: Kind
  readonly id: string
  readonly properties: ReadonlyArray<Schemas["PropertyView"]>
}) => {
  const { date, language, t } = useI18n()
  const me = useMe()
  const may = usePermission()
  const [pages, setPages] = useState(1)
  const history = useLoad(async () => {
    const { data } = await api.GET("/api/{kind}/{id}/history", {
      params: { path: { kind, id }, query: { per_page: PER_PAGE * pages } }
    })
    return data
  }, [kind, id, pages])
  // Names of the other members, where the caller may list them; else their id.
  const members = useLoad(async () => may("member-manage")
    ? ((await api.GET("/api/account/members", { params: { query: { per_page: 100 } } })).data?.data ?? [])
    : [], [])
  const names = new Map((members.data ?? []).flatMap((entry) => "user" in entry ? [[entry.user.id, `${entry.user.firstname} ${entry.user.lastname}`.trim()]] : []))
  const who = (userId: number | null) =>
    userId === null ? t("historyNobody") : userId === me.id ? t("historyYou") : names.get(userId) || t("historyUser", { id: userId })
  const describe = (entry: Entry) => {
    const property = properties.find((p) => p.internal_name === entry.property)
    const label = (property && localized(property.name, language)) || entry.property
    const shown = (value: unknown) => displayValue(value, property, language) || t("historyEmpty")
    if (entry.previous_value === null) return t("historySet", { property: label, to: shown(entry.value) })
    if (entry.value === null) return t("historyCleared", { property: label, from: shown(entry.previous_value) })
    return t("historyChange", { property: label, from: shown(entry.previous_value), to: shown(entry.value) })
  }
  const entries = history.data?.data ?? []
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">{t("history")}</h2>
      {history.data !== undefined && entries.length === 0 && <p>{t("noHistory")}</p>}
      <ol className="timeline">
        {entries.map((entry) => (
          <li key={entry._id} data-property={entry.property} data-source={entry.source}>
            <p>{describe(entry)}</p>
            <small>
              <time dateTime={entry.changed_at}>{date(entry.changed_at)}</time>
              {" · "}{t("historyBy", { who: who(entry.user_id) })}
              {" · "}{t(`source_${entry.source}`)}
            </small>
          </li>
        ))}
      </ol>
      {(history.data?.meta.total ?? 0) > entries.length && (
        <button type="button" onClick={() => setPages((n) => n + 1)}>{t("olderChanges")}</button>
      )}
    </section>
  )
}
