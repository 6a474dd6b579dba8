/** The list's filter builder: conditions that must all hold, and `or` groups of alternatives. */
import { useState } from "react"
import type { Schemas } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { ConditionEditor } from "./ConditionEditor"
import { type Condition, emptyCondition, type FilterRow } from "./filters"

export const FilterBuilder = ({ properties, initial = [], onApply }: {
  readonly properties: ReadonlyArray<Schemas["PropertyView"]>
  /** The rows it starts with (a saved view's); give the builder a new `key` to start again. */
  readonly initial?: ReadonlyArray<FilterRow>
  readonly onApply: (rows: ReadonlyArray<FilterRow>) => void
}) => {
  const { t } = useI18n()
  const [rows, setRows] = useState<ReadonlyArray<FilterRow>>(initial)
  const first = properties[0]?.internal_name ?? "created_at"
  const replace = (index: number, row: FilterRow | undefined) =>
    setRows((all) => all.flatMap((old, i) => (i !== index ? [old] : row === undefined ? [] : [row])))
  const replaceInGroup = (index: number, group: ReadonlyArray<Condition>, at: number, condition: Condition | undefined) => {
    const next = group.flatMap((old, i) => (i !== at ? [old] : condition === undefined ? [] : [condition]))
    replace(index, next.length === 0 ? undefined : { or: next })
  }
  return (
    <section className="filters" aria-label={t("filters")}>
      <h2>{t("filters")}</h2>
      {rows.map((row, index) =>
        "condition" in row ? (
          <ConditionEditor
            key={index}
            label={`${t("filters")} ${index + 1}`}
            condition={row.condition}
            properties={properties}
            onChange={(condition) => replace(index, { condition })}
            onRemove={() => replace(index, undefined)}
          />
        ) : (
          <fieldset className="or-group" key={index}>
            <legend>{t("either")}</legend>
            {row.or.map((condition, at) => (
              <ConditionEditor
                key={at}
                label={`${t("either")} ${at + 1}`}
                condition={condition}
                properties={properties}
                onChange={(next) => replaceInGroup(index, row.or, at, next)}
                onRemove={() => replaceInGroup(index, row.or, at, undefined)}
              />
            ))}
            <button type="button" onClick={() => replace(index, { or: [...row.or, emptyCondition(first)] })}>{t("addToGroup")}</button>
          </fieldset>
        )
      )}
      <div className="actions">
        <button type="button" onClick={() => setRows([...rows, { condition: emptyCondition(first) }])}>{t("addCondition")}</button>
        <button type="button" onClick={() => setRows([...rows, { or: [emptyCondition(first), emptyCondition(first)] }])}>{t("addOrGroup")}</button>
        <button type="button" className="primary" onClick={() => onApply(rows)}>{t("apply")}</button>
        <button type="button" onClick={() => { setRows([]); onApply([]) }}>{t("clear")}</button>
      </div>
    </section>
  )
}
