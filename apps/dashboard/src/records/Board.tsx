/**
 * The board of deals or tickets: a column per stage of the chosen pipeline with its count and, for
 * deals, its amount total; a card moves to another stage by drag and drop, or with the arrow keys
 * (a PUT of its stage).
 *
 * A column is the list of its stage (`GET /api/{kind}` with the page's search and filters, and
 * `pipeline` and the stage equal to the column's): its count is the list's total, its cards the
 * first {@link BOARD_CARDS}. The API has no sum, so a column's amount total adds the amounts of
 * its list's pages, {@link PAGE_SIZE} records each, fetched at once for up to {@link AMOUNT_PAGES}
 * pages: exact for a stage of up to 1,000 deals; past that the column says "at least" and how
 * many records it added.
 */
import { type DragEvent, type KeyboardEvent, useEffect, useRef, useState } from "react"
import { api, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import type { ApiFilter } from "./filters"
import { NAME_PROPERTY, type RecordValues } from "./kinds"

/** The kinds with pipelines. */
export type BoardKind = "deals" | "tickets"

/** The property that holds a record's stage. */
const STAGE_PROPERTY: Readonly<Record<BoardKind, string>> = { deals: "deal_stage", tickets: "ticket_stage" }
/** The cards a column shows. */
const BOARD_CARDS = 25
/** The records of a page of a column's list (the API's largest). */
const PAGE_SIZE = 100
/** The pages of a column's list whose amounts are added. */
const AMOUNT_PAGES = 10

interface Column {
  readonly stage: Schemas["PipelineStage"]
  readonly count: number
  readonly cards: ReadonlyArray<RecordValues>
  /** The deals' amounts added, and over how many records (fewer than `count`: a lower bound). */
  readonly amount: { readonly total: number; readonly counted: number } | undefined
}

const amountOf = (record: RecordValues): number => (typeof record["amount"] === "number" ? record["amount"] : 0)

export const Board = ({ kind, search, filters }: {
  readonly kind: BoardKind
  readonly search: string
  readonly filters: ReadonlyArray<ApiFilter>
}) => {
  const { language, t } = useI18n()
  const [pipelineId, setPipelineId] = useState<string | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const [announced, setAnnounced] = useState("")
  const [dragged, setDragged] = useState<string | undefined>()
  const focusAfterLoad = useRef<string | undefined>(undefined)
  const board = useRef<HTMLDivElement>(null)
  const stageProperty = STAGE_PROPERTY[kind]
  const name = NAME_PROPERTY[kind]

  const pipelines = useLoad(async () => {
    const { data, error } = await api.GET("/api/{kind}/pipelines", { params: { path: { kind } } })
    setProblem(problemOf(error))
    return data?.data ?? []
  }, [kind])
  const pipeline = pipelines.data?.find((p) => p._id === pipelineId) ?? pipelines.data?.[0]

  const page = async (stage: string, number: number) => {
    const complex_filters: Array<ApiFilter> = [
      ...filters,
      { property: "pipeline", operator: "eq", value: pipeline!._id },
      { property: stageProperty, operator: "eq", value: stage }
    ]
    const { data, error } = await api.GET("/api/{kind}", {
      params: { path: { kind }, query: { search, complex_filters, page: number, per_page: PAGE_SIZE } }
    })
    if (error !== undefined) throw error
    return data
  }
  const columnOf = async (stage: Schemas["PipelineStage"]): Promise<Column> => {
    const first = await page(stage.internal_name, 1)
    const records = first.data.map((r) => r.properties as RecordValues)
    const count = first.meta.total
    if (kind !== "deals") return { stage, count, cards: records.slice(0, BOARD_CARDS), amount: undefined }
    const more = Array.from({ length: Math.min(first.meta.last_page, AMOUNT_PAGES) - 1 }, (_, i) => page(stage.internal_name, i + 2))
    const added = [records, ...(await Promise.all(more)).map((p) => p.data.map((r) => r.properties as RecordValues))].flat()
    const total = added.reduce((sum, record) => sum + amountOf(record), 0)
    return { stage, count, cards: records.slice(0, BOARD_CARDS), amount: { total, counted: added.length } }
  }
  const columns = useLoad(async () => {
    if (pipeline === undefined) return undefined
    try {
      const loaded = await Promise.all(pipeline.stages.map(columnOf))
      setProblem(undefined)
      return loaded
    } catch (error) {
      setProblem(problemOf(error))
      return undefined
    }
  }, [kind, pipeline?._id, pipeline?.stages.length, search, JSON.stringify(filters)])

  // A card the keyboard moved keeps the focus in its new column.
  useEffect(() => {
    const id = focusAfterLoad.current
    if (id === undefined || columns.data === undefined) return
    focusAfterLoad.current = undefined
    board.current?.querySelector<HTMLElement>(`[data-card-id="${CSS.escape(id)}"]`)?.focus()
  }, [columns.data])

  const stageName = (stage: Schemas["PipelineStage"]) => localized(stage.name, language) || stage.internal_name
  const cardName = (record: RecordValues) => String(record[name] ?? "") || String(record["_id"])
  const numbers = new Intl.NumberFormat(language === "ar" ? "ar" : "en")

  const move = async (record: RecordValues, stage: Schemas["PipelineStage"], keepFocus: boolean) => {
    if (record[stageProperty] === stage.internal_name) return
    const id = String(record["_id"])
    const { error } = await api.PUT("/api/{kind}/{id}", { params: { path: { kind, id } }, body: { [stageProperty]: stage.internal_name } })
    const failed = problemOf(error)
    setProblem(failed)
    if (failed !== undefined) return
    setAnnounced(t("boardMoved", { name: cardName(record), stage: stageName(stage) }))
    if (keepFocus) focusAfterLoad.current = id
    columns.reload()
  }

  const stages = pipeline?.stages ?? []
  // The arrow pointing to the line's end moves a card to the next stage: right in English, left in Arabic.
  const onCardKey = (event: KeyboardEvent, record: RecordValues, at: number) => {
    const forward = language === "ar" ? "ArrowLeft" : "ArrowRight"
    const backward = language === "ar" ? "ArrowRight" : "ArrowLeft"
    const to = event.key === forward ? at + 1 : event.key === backward ? at - 1 : undefined
    if (to === undefined || to < 0 || to >= stages.length) return
    event.preventDefault()
    void move(record, stages[to]!, true)
  }
  const onDrop = (event: DragEvent, stage: Schemas["PipelineStage"]) => {
    event.preventDefault()
    const id = event.dataTransfer.getData("text/plain")
    const record = columns.data?.flatMap((c) => c.cards).find((r) => String(r["_id"]) === id)
    setDragged(undefined)
    if (record !== undefined) void move(record, stage, false)
  }

  return (
    <div className="board-view">
      <form className="toolbar" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t("pipeline")}
          <select value={pipeline?._id ?? ""} onChange={(e) => setPipelineId(e.target.value)}>
            {(pipelines.data ?? []).map((p) => <option key={p._id} value={p._id}>{localized(p.name, language) || p._id}</option>)}
          </select>
        </label>
      </form>
      <ProblemMessage problem={problem} />
      <p className="visually-hidden" id="board-card-hint">{t("boardCardHint")}</p>
      <p className="visually-hidden" role="status" aria-live="polite">{announced}</p>
      {columns.data === undefined ? <p>{t("loading")}</p> : (
        <div className="board" ref={board}>
          {columns.data.map((column, at) => (
            <section
              key={column.stage.internal_name}
              className={`board-column${dragged !== undefined ? " drop-target" : ""}`}
              data-stage={column.stage.internal_name}
              aria-label={t("boardColumn", { stage: stageName(column.stage), count: column.count })}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => onDrop(e, column.stage)}
            >
              <header>
                <h2>{stageName(column.stage)}</h2>
                <p data-testid="stage-count">{t("stageCount", { count: numbers.format(column.count) })}</p>
                {column.amount !== undefined && (
                  <p data-testid="stage-amount">
                    {column.amount.counted < column.count
                      ? t("stageAmountAtLeast", { amount: numbers.format(column.amount.total), counted: numbers.format(column.amount.counted) })
                      : t("stageAmount", { amount: numbers.format(column.amount.total) })}
                  </p>
                )}
              </header>
              <ul>
                {column.cards.map((record) => (
                  <li
                    key={String(record["_id"])}
                    className="board-card"
                    draggable
                    onDragStart={(e) => {
                      e.dataTransfer.setData("text/plain", String(record["_id"]))
                      e.dataTransfer.effectAllowed = "move"
                      setDragged(String(record["_id"]))
                    }}
                    onDragEnd={() => setDragged(undefined)}
                  >
                    <Link
                      to={`/${kind}/${String(record["_id"])}`}
                      draggable={false}
                      data-card-id={String(record["_id"])}
                      aria-describedby="board-card-hint"
                      onKeyDown={(e) => onCardKey(e, record, at)}
                    >
                      {cardName(record)}
                    </Link>
                    {kind === "deals" && typeof record["amount"] === "number" && <span>{numbers.format(record["amount"])}</span>}
                  </li>
                ))}
              </ul>
              {column.count === 0 && <p>{t("boardEmpty")}</p>}
              {column.count > column.cards.length && <p>{t("boardMoreRecords", { count: numbers.format(column.count - column.cards.length) })}</p>}
            </section>
          ))}
        </div>
      )}
    </div>
  )
}
