/** Finds a record of a kind by its name (the list's search) and picks one. */
import { useState } from "react"
import { api, type Kind } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { useDebounced } from "../ui/useDebounced"
import { useLoad } from "../ui/useLoad"
import { NAME_PROPERTY, type RecordValues } from "./kinds"

export const RecordPicker = ({ kind, value, onChange }: {
  readonly kind: Kind
  readonly value: string
  readonly onChange: (id: string) => void
}) => {
  const { t } = useI18n()
  const [search, setSearch] = useState("")
  const searched = useDebounced(search)
  const found = useLoad(async () => {
    const { data } = await api.GET("/api/{kind}", { params: { path: { kind }, query: { search: searched, per_page: 20 } } })
    return (data?.data ?? []) as ReadonlyArray<{ readonly properties: RecordValues }>
  }, [kind, searched])
  return (
    <span className="picker">
      <input type="search" aria-label={`${t("search")}: ${t(`kind_${kind}`)}`} value={search} onChange={(e) => setSearch(e.target.value)} />
      <select aria-label={`${t("findToLink")}: ${t(`kind_${kind}`)}`} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="" />
        {(found.data ?? []).map(({ properties }) => (
          <option key={String(properties["_id"])} value={String(properties["_id"])}>
            {String(properties[NAME_PROPERTY[kind]] ?? properties["_id"])}
          </option>
        ))}
      </select>
    </span>
  )
}
