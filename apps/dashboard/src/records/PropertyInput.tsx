/** The form control for a property's type: text, number, date, select, checkbox... */
import type { Schemas } from "../api/client"
import { localized, useI18n } from "../i18n/i18n"

const INPUT_TYPES: Partial<Record<Schemas["PropertyView"]["type"], string>> = {
  number: "number",
  date: "date",
  datetime: "datetime-local",
  email: "email",
  phone: "tel",
  url: "url"
}

export const PropertyInput = ({ property, value, onChange, ...aria }: {
  readonly property: Schemas["PropertyView"]
  readonly value: string | ReadonlyArray<string>
  readonly onChange: (value: string | ReadonlyArray<string>) => void
}) => {
  const { language } = useI18n()
  const options = property.enum ?? []
  switch (property.type) {
    case "textarea":
      return <textarea {...aria} value={value as string} onChange={(e) => onChange(e.target.value)} />
    case "boolean":
      return <input {...aria} type="checkbox" checked={value === "true"} onChange={(e) => onChange(String(e.target.checked))} />
    case "single_select":
      return (
        <select {...aria} value={value as string} onChange={(e) => onChange(e.target.value)}>
          <option value="" />
          {options.map((o) => <option key={o.internal_name} value={o.internal_name}>{localized(o, language) || o.internal_name}</option>)}
        </select>
      )
    case "multi_select":
      return (
        <select {...aria} multiple value={value as Array<string>} onChange={(e) => onChange(Array.from(e.target.selectedOptions, (o) => o.value))}>
          {options.map((o) => <option key={o.internal_name} value={o.internal_name}>{localized(o, language) || o.internal_name}</option>)}
        </select>
      )
    default:
      return <input {...aria} type={INPUT_TYPES[property.type] ?? "text"} step={property.type === "number" ? "any" : undefined} value={value as string} onChange={(e) => onChange(e.target.value)} />
  }
}
