/** One condition of the filter builder: property, operator and the value the operator takes. */
import type { Schemas } from "../api/client"
import { localized, useI18n } from "../i18n/i18n"
import { type Condition, type Operator, OPERATORS, operandOf } from "./filters"

export const ConditionEditor = ({ condition, properties, onChange, onRemove, label }: {
  readonly condition: Condition
  readonly properties: ReadonlyArray<Schemas["PropertyView"]>
  readonly onChange: (condition: Condition) => void
  readonly onRemove: () => void
  readonly label: string
}) => {
  const { language, t } = useI18n()
  const operand = operandOf(condition.operator)
  return (
    <fieldset className="condition">
      <legend className="visually-hidden">{label}</legend>
      <select aria-label={t("property")} value={condition.property} onChange={(e) => onChange({ ...condition, property: e.target.value })}>
        {properties.map((property) => (
          <option key={property._id} value={property.internal_name}>{localized(property.name, language) || property.internal_name}</option>
        ))}
      </select>
      <select aria-label={t("operator")} value={condition.operator} onChange={(e) => onChange({ ...condition, operator: e.target.value as Operator })}>
        {OPERATORS.map((operator) => <option key={operator} value={operator}>{t(`op_${operator}`)}</option>)}
      </select>
      {operand !== "none" && (
        <input
          aria-label={operand === "range" ? t("from") : t("value")}
          title={operand === "list" ? t("listHint") : undefined}
          placeholder={operand === "list" ? t("listHint") : ""}
          value={condition.value}
          onChange={(e) => onChange({ ...condition, value: e.target.value })}
        />
      )}
      {operand === "range" && (
        <input aria-label={t("to")} value={condition.high} onChange={(e) => onChange({ ...condition, high: e.target.value })} />
      )}
      <button type="button" onClick={onRemove}>{t("remove")}</button>
    </fieldset>
  )
}
