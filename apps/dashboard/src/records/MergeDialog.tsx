/**
 * Merging a duplicate into the record on its page: pick the duplicate, see both side by side with
 * the value each property will have (the kept record's, or the duplicate's where the kept one has
 * none), then merge. The duplicate goes to the trash.
 */
import { useState } from "react"
import { api, type Kind } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { DERIVED, type RecordValues } from "./kinds"
import { RecordPicker } from "./RecordPicker"
import { useProperties } from "./useProperties"
import { displayValue } from "./values"

/** The kinds whose records merge. */
export const MERGING_KINDS: ReadonlySet<Kind> = new Set<Kind>(["contacts", "companies", "deals", "tickets"])

export const MergeDialog = ({ kind, id, kept, onMerged, onClose }: {
  readonly kind: Kind
  readonly id: string
  readonly kept: RecordValues
  readonly onMerged: () => void
  readonly onClose: () => void
}) => {
  const { language, t } = useI18n()
  const properties = (useProperties(kind).data ?? []).filter((p) => !DERIVED.has(p.internal_name))
  const [other, setOther] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const duplicate = useLoad(async () => {
    if (other === "" || other === id) return undefined
    const { data } = await api.GET("/api/{kind}/{id}", { params: { path: { kind, id: other } } })
    return (data?.data as { readonly properties: RecordValues } | undefined)?.properties
  }, [kind, other])
  const merge = async () => {
    const { error } = await api.POST("/api/{kind}/{id}/merge", { params: { path: { kind, id } }, body: { from: other } })
    setProblem(problemOf(error))
    if (error === undefined) onMerged()
  }
  const theirs = duplicate.data
  const shown = theirs === undefined ? [] : properties.filter((p) =>
    displayValue(kept[p.internal_name], p, language) !== "" || displayValue(theirs[p.internal_name], p, language) !== ""
  )
  return (
    <section className="dialog" role="dialog" aria-label={t("mergeTitle")}>
      <h2>{t("mergeTitle")}</h2>
      <p>{t("mergeExplain")}</p>
      <label>
        {t("mergeChoose")}
        <RecordPicker kind={kind} value={other} onChange={setOther} />
      </label>
      {theirs !== undefined && (
        <table aria-label={t("mergeResult")}>
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">{t("mergeKept")}</th>
              <th scope="col">{t("mergeOther")}</th>
              <th scope="col">{t("mergeResult")}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => {
              const mine = displayValue(kept[p.internal_name], p, language)
              const yours = displayValue(theirs[p.internal_name], p, language)
              const wins = mine !== "" ? "kept" : "other"
              return (
                <tr key={p._id} data-property={p.internal_name} data-wins={wins}>
                  <th scope="row">{localized(p.name, language) || p.internal_name}</th>
                  <td className={wins === "kept" ? "wins" : undefined}>{mine}</td>
                  <td className={wins === "other" ? "wins" : undefined}>{yours}</td>
                  <td>{mine !== "" ? mine : yours}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <ProblemMessage problem={problem} />
      <div className="toolbar">
        <button type="button" className="primary" disabled={theirs === undefined} onClick={merge}>{t("mergeConfirm")}</button>
        <button type="button" onClick={onClose}>{t("cancel")}</button>
      </div>
    </section>
  )
}
