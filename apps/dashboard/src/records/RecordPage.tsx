/** One record: its properties by group (custom ones included), notes, links and history; a merge; a contact's conversation. */
import { useState } from "react"
import { api, type Kind } from "../api/client"
import { localized, useI18n } from "../i18n/i18n"
import { ContactConversation } from "../inbox/ContactConversation"
import { Link, navigate } from "../router"
import { useLoad } from "../ui/useLoad"
import { NAME_PROPERTY, type RecordValues } from "./kinds"
import { History } from "./History"
import { Links } from "./Links"
import { MergeDialog, MERGING_KINDS } from "./MergeDialog"
import { Notes } from "./Notes"
import { useGroups, useProperties } from "./useProperties"
import { displayValue } from "./values"

export const RecordPage = ({ kind, id }: { readonly kind: Kind; readonly id: string }) => {
  const { language, t } = useI18n()
  const properties = useProperties(kind).data ?? []
  const groups = useGroups(kind).data ?? []
  const [merging, setMerging] = useState(false)
  const record = useLoad(async () => {
    const { data } = await api.GET("/api/{kind}/{id}", { params: { path: { kind, id } } })
    return data?.data as { readonly properties: RecordValues; readonly contacts?: unknown } | undefined
  }, [kind, id])
  if (record.data === undefined) return <p>{t("loading")}</p>
  const values = record.data.properties
  const remove = async () => {
    if (!window.confirm(t("confirmDelete"))) return
    await api.DELETE("/api/{kind}/{id}", { params: { path: { kind, id } } })
    navigate(`/${kind}`)
  }
  return (
    <article>
      <header className="page-header">
        <h1>{String(values[NAME_PROPERTY[kind]] ?? id)}</h1>
        <Link className="button" to={`/${kind}/${id}/edit`}>{t("edit")}</Link>
        <button type="button" onClick={remove}>{t("delete")}</button>
        {MERGING_KINDS.has(kind) && <button type="button" aria-expanded={merging} onClick={() => setMerging(!merging)}>{t("merge")}</button>}
        <Link className="button" to={`/${kind}`}>{t("back")}</Link>
      </header>
      {merging && (
        <MergeDialog kind={kind} id={id} kept={values} onClose={() => setMerging(false)} onMerged={() => { setMerging(false); record.reload() }} />
      )}
      {groups.map((group) => {
        const shown = properties.filter((p) => p.group_id === group._id && displayValue(values[p.internal_name], p, language) !== "")
        if (shown.length === 0) return null
        return (
          <section key={group._id} aria-label={localized(group.name, language)}>
            <h2>{localized(group.name, language)}</h2>
            <dl className="properties">
              {shown.map((p) => (
                <div key={p._id}>
                  <dt>{localized(p.name, language) || p.internal_name}</dt>
                  <dd data-property={p.internal_name}>{displayValue(values[p.internal_name], p, language)}</dd>
                </div>
              ))}
            </dl>
          </section>
        )
      })}
      <Links kind={kind} id={id} record={record.data} onChange={record.reload} />
      <Notes kind={kind} id={id} />
      <History kind={kind} id={id} properties={properties} />
      {kind === "contacts" && <ContactConversation contactId={id} />}
    </article>
  )
}
