/**
 * A list's saved views: choose one to show the list as it says, or save the list's current
 * search, order and filters as a new one (private, or shared with the account). Contacts, deals
 * and tickets open on the view chosen last (the user's `*_view_id`, kept by `PUT /api/me`).
 */
import { useEffect, useRef, useState } from "react"
import { api, type Kind, type Schemas } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { useSession } from "../session/session"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"

export type SavedView = Schemas["SavedView"]

/** The key of `GET /api/me` holding the kind's chosen view, for the kinds that have one. */
const CHOICE_KEYS: Partial<Record<Kind, "contacts_view_id" | "deals_view_id" | "tickets_view_id">> = {
  contacts: "contacts_view_id",
  deals: "deals_view_id",
  tickets: "tickets_view_id"
}

/** What a new view saves: the list as it is shown. */
export interface ListState {
  readonly search: string
  readonly order: string
  readonly direction: "asc" | "desc"
  readonly complex_filters: ReadonlyArray<unknown>
}

export const SavedViews = ({ kind, current, onChoose }: {
  readonly kind: Kind
  readonly current: ListState
  /** Shows the list as the view says (undefined: every record, the default order). */
  readonly onChoose: (view: SavedView | undefined) => void
}) => {
  const { t } = useI18n()
  const { me, refresh } = useSession()
  const choiceKey = CHOICE_KEYS[kind]
  const views = useLoad(async () => (await api.GET("/api/{kind}/views", { params: { path: { kind } } })).data?.data ?? [], [kind])
  const [selected, setSelected] = useState("")
  const [name, setName] = useState("")
  const [shared, setShared] = useState(false)
  const [problem, setProblem] = useState<Problem | undefined>()
  // The chosen view is applied once, when the list opens (not again after each choice refreshes `me`).
  const opened = useRef<Kind | undefined>(undefined)
  useEffect(() => {
    if (views.data === undefined || opened.current === kind) return
    opened.current = kind
    const chosen = choiceKey === undefined ? undefined : views.data.find((v) => v._id === me?.[choiceKey])
    setSelected(chosen?._id ?? "")
    if (chosen !== undefined) onChoose(chosen)
  }, [views.data, kind])

  const choose = async (id: string, all: ReadonlyArray<SavedView> = views.data ?? []) => {
    setSelected(id)
    onChoose(all.find((v) => v._id === id))
    if (choiceKey === undefined) return
    await api.PUT("/api/me", { body: { [choiceKey]: id === "" ? null : id } })
    await refresh()
  }
  const save = async () => {
    const { data, error } = await api.POST("/api/{kind}/views", {
      params: { path: { kind } },
      body: { name, shared, ...current, complex_filters: [...current.complex_filters] }
    })
    setProblem(problemOf(error))
    if (data === undefined) return
    setName("")
    views.reload()
    await choose(data.data._id, [...(views.data ?? []), data.data])
  }
  return (
    <section aria-label={t("views")}>
      <form className="toolbar" onSubmit={(e) => { e.preventDefault(); void save() }}>
        <label>
          {t("view")}
          <select value={selected} onChange={(e) => void choose(e.target.value)}>
            <option value="">{t("allRecords")}</option>
            {(views.data ?? []).map((v) => <option key={v._id} value={v._id}>{v.shared ? `${v.name} (${t("sharedView")})` : v.name}</option>)}
          </select>
        </label>
        <Field label={t("viewName")} error={fieldError(problem, "name")}>
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <label className="check">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
          {t("shareView")}
        </label>
        <button type="submit" className="toolbar-end">{t("saveView")}</button>
      </form>
      {fieldError(problem, "name") === undefined && <ProblemMessage problem={problem} />}
    </section>
  )
}
