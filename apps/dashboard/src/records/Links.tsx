/**
 * A record's links to other kinds: the linked records the record lists (a deal's contacts, a
 * contact's deals) or counts (a ticket's), attach and detach.
 */
import { useState } from "react"
import { api, type Kind } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { ProblemMessage } from "../ui/ProblemMessage"
import type { RecordValues } from "./kinds"
import { LINKS, type LinkSpec } from "./links"
import { RecordPicker } from "./RecordPicker"

interface Linked {
  readonly id: string
  readonly label: string
}

/** The linked records of `target` the record carries, if it carries them. */
const linkedOf = (record: { readonly properties: RecordValues; readonly contacts?: unknown }, target: Kind): ReadonlyArray<Linked> | undefined => {
  if (target === "contacts" && Array.isArray(record.contacts)) {
    return record.contacts.map((contact: { _id?: string; properties?: RecordValues; firstname?: string; lastname?: string }) => {
      const values = (contact.properties ?? contact) as RecordValues
      return { id: String(values["_id"]), label: [values["firstname"], values["lastname"]].filter(Boolean).join(" ") || String(values["_id"]) }
    })
  }
  if (target === "deals" && Array.isArray(record.properties["deal_ids"])) {
    return (record.properties["deal_ids"] as ReadonlyArray<string>).map((id) => ({ id, label: id }))
  }
  return undefined
}

const LinkSection = ({ id, spec, record, onChange }: {
  readonly id: string
  readonly spec: LinkSpec
  readonly record: { readonly properties: RecordValues; readonly contacts?: unknown }
  readonly onChange: () => void
}) => {
  const { t } = useI18n()
  const [picked, setPicked] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const call = async (path: LinkSpec["attach"], body: Record<string, unknown>) => {
    const { error } = await api.POST(path, { params: { path: { id } }, body } as never)
    setProblem(problemOf(error))
    if (!error) { setPicked(""); onChange() }
  }
  const linked = linkedOf(record, spec.target)
  const count = record.properties[`${spec.target}_count`]
  return (
    <section className="link-section" aria-label={`${t("links")}: ${t(`kind_${spec.target}`)}`}>
      <h3>{t(`kind_${spec.target}`)}</h3>
      {typeof count === "number" && <p>{t("count", { count })}</p>}
      {linked && (
        <ul>
          {linked.map((item) => (
            <li key={item.id}>
              <Link to={`/${spec.target}/${item.id}`}>{item.label}</Link>{" "}
              <button type="button" onClick={() => call(spec.detach, spec.detachBody(item.id))}>{t("detach")}</button>
            </li>
          ))}
        </ul>
      )}
      <RecordPicker kind={spec.target} value={picked} onChange={setPicked} />
      <button type="button" disabled={picked === ""} onClick={() => call(spec.attach, spec.attachBody(picked))}>{t("attach")}</button>
      {!linked && <button type="button" disabled={picked === ""} onClick={() => call(spec.detach, spec.detachBody(picked))}>{t("detach")}</button>}
      <ProblemMessage problem={problem} />
    </section>
  )
}

export const Links = ({ kind, id, record, onChange }: {
  readonly kind: Kind
  readonly id: string
  readonly record: { readonly properties: RecordValues; readonly contacts?: unknown }
  readonly onChange: () => void
}) => {
  const { t } = useI18n()
  const specs = LINKS[kind] ?? []
  const deals = kind === "contacts" ? linkedOf(record, "deals") : undefined
  if (specs.length === 0 && deals === undefined) return null
  return (
    <section aria-labelledby="links-title">
      <h2 id="links-title">{t("links")}</h2>
      {specs.map((spec) => <LinkSection key={spec.target} id={id} spec={spec} record={record} onChange={onChange} />)}
      {deals && (
        <ul aria-label={t("kind_deals")}>
          {deals.map((deal) => <li key={deal.id}><Link to={`/deals/${deal.id}`}>{deal.label}</Link></li>)}
        </ul>
      )}
    </section>
  )
}
