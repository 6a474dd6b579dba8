/** A kind's records: saved views, search, ordering, the filter builder, pages and the total. */
import { useState } from "react"
import { api, type Kind } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { lazyPage } from "../ui/lazyPage"
import { Pagination } from "../ui/Pagination"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useDebounced } from "../ui/useDebounced"
import { useLoad } from "../ui/useLoad"
import { FilterBuilder } from "./FilterBuilder"
import { type FilterRow, fromApiFilters, toApiFilters } from "./filters"
import { ExportCsv } from "./ExportCsv"
import { ImportCsv } from "./ImportCsv"
import { DERIVED, NAME_PROPERTY, type RecordValues } from "./kinds"
import { type SavedView, SavedViews } from "./SavedViews"
import { useProperties } from "./useProperties"
import { displayValue } from "./values"

const COLUMNS = 4

// The board comes with its texts when first shown, not in the first load.
const Board = lazyPage(
  () => import("./Board").then((m) => m.Board),
  () => import("../i18n/board-messages").then(({ boardAr, boardEn }) => ({ en: boardEn, ar: boardAr }))
)

export const RecordsPage = ({ kind }: { readonly kind: Kind }) => {
  const { date, language, t } = useI18n()
  const properties = useProperties(kind).data ?? []
  const [search, setSearch] = useState("")
  const [order, setOrder] = useState("created_at")
  const [direction, setDirection] = useState<"asc" | "desc">("desc")
  const [filters, setFilters] = useState<ReadonlyArray<FilterRow>>([])
  // The builder starts again from a chosen view's filters: a new key remounts it with them.
  const [builder, setBuilder] = useState({ key: "", rows: [] as ReadonlyArray<FilterRow> })
  const [shown, setShown] = useState<ReadonlyArray<string>>([])
  const [page, setPage] = useState(1)
  const [problem, setProblem] = useState<Problem | undefined>()
  const [transfer, setTransfer] = useState<"import" | "export" | undefined>()
  const [asBoard, setAsBoard] = useState(false)
  const boardKind = kind === "deals" || kind === "tickets" ? kind : undefined
  const searched = useDebounced(search)
  const isNumeric = (name: string) => properties.some((p) => p.internal_name === name && p.type === "number")
  const query = { search: searched, order, direction, complex_filters: toApiFilters(filters, isNumeric) }
  const list = useLoad(async () => {
    const { data, error } = await api.GET("/api/{kind}", {
      params: { path: { kind }, query: { ...query, page, per_page: 15 } }
    })
    setProblem(problemOf(error))
    return data
  }, [kind, searched, order, direction, filters, page, properties.length])
  const showView = (view: SavedView | undefined) => {
    const rows = fromApiFilters(view?.complex_filters ?? [])
    setSearch(view?.search ?? "")
    setOrder(view?.order ?? "created_at")
    setDirection(view?.direction ?? "desc")
    setFilters(rows)
    setBuilder({ key: view?._id ?? "", rows })
    setShown(view?.columns ?? [])
    setPage(1)
  }
  const name = NAME_PROPERTY[kind]
  // A view's columns, else the first few properties.
  const columns = shown.length > 0
    ? shown.flatMap((column) => properties.filter((p) => p.internal_name === column && column !== name))
    : properties.filter((p) => p.internal_name !== name && !DERIVED.has(p.internal_name)).slice(0, COLUMNS)
  const rows = (list.data?.data ?? []) as ReadonlyArray<{ readonly properties: RecordValues }>
  const nameProperty = properties.find((p) => p.internal_name === name)
  return (
    <section>
      <header className="page-header">
        <h1>{t(`kind_${kind}`)}</h1>
        <Link className="button primary" to={`/${kind}/new`}>{t("new")}</Link>
        <Link className="button" to={`/${kind}/properties`}>{t("properties")}</Link>
        <Link className="button" to={`/${kind}/trash`}>{t("trash")}</Link>
        <button type="button" aria-expanded={transfer === "import"} onClick={() => setTransfer(transfer === "import" ? undefined : "import")}>{t("importCsv")}</button>
        <button type="button" aria-expanded={transfer === "export"} onClick={() => setTransfer(transfer === "export" ? undefined : "export")}>{t("exportCsv")}</button>
      </header>
      <SavedViews kind={kind} current={{ search: searched, order, direction, complex_filters: query.complex_filters }} onChoose={showView} />
      {transfer === "import" && <ImportCsv kind={kind} properties={properties} onImported={list.reload} />}
      {transfer === "export" && <ExportCsv kind={kind} properties={properties} query={query} />}
      <form className="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t("search")}
          <input type="search" value={search} onChange={(e) => { setSearch(e.target.value); setPage(1) }} />
        </label>
        <label>
          {t("orderBy")}
          <select value={order} onChange={(e) => setOrder(e.target.value)}>
            <option value="created_at">{t("created_at")}</option>
            <option value="updated_at">{t("updated_at")}</option>
            {properties.map((p) => <option key={p._id} value={p.internal_name}>{localized(p.name, language) || p.internal_name}</option>)}
          </select>
        </label>
        <label>
          {t("direction")}
          <select value={direction} onChange={(e) => setDirection(e.target.value as "asc" | "desc")}>
            <option value="desc">{t("desc")}</option>
            <option value="asc">{t("asc")}</option>
          </select>
        </label>
      </form>
      <FilterBuilder key={builder.key} properties={properties} initial={builder.rows} onApply={(rows) => { setFilters(rows); setPage(1) }} />
      {boardKind !== undefined && (
        <div className="view-switch" role="group" aria-label={t("viewAs")}>
          <button type="button" aria-pressed={!asBoard} onClick={() => setAsBoard(false)}>{t("tableView")}</button>
          <button type="button" aria-pressed={asBoard} onClick={() => setAsBoard(true)}>{t("boardView")}</button>
        </div>
      )}
      {boardKind !== undefined && asBoard ? <Board kind={boardKind} search={searched} filters={query.complex_filters} /> : <>
      <ProblemMessage problem={problem} />
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{localized(nameProperty?.name, language) || name}</th>
              {columns.map((p) => <th scope="col" key={p._id}>{localized(p.name, language) || p.internal_name}</th>)}
              <th scope="col">{t("created_at")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ properties: values }) => (
              <tr key={String(values["_id"])}>
                <td><Link to={`/${kind}/${String(values["_id"])}`}>{displayValue(values[name], nameProperty, language) || String(values["_id"])}</Link></td>
                {columns.map((p) => <td key={p._id}>{displayValue(values[p.internal_name], p, language)}</td>)}
                <td>{date(String(values["created_at"]))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data && rows.length === 0 && <p>{t("nothingYet")}</p>}
      {list.data && <Pagination meta={list.data.meta} onPage={setPage} />}
      </>}
    </section>
  )
}
