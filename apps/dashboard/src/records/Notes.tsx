/** A record's notes: add, edit and delete. */
import { useState, type FormEvent } from "react"
import { api, type Kind, type Schemas } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { useLoad } from "../ui/useLoad"

const NoteItem = ({ kind, id, note, onChange }: {
  readonly kind: Kind
  readonly id: string
  readonly note: Schemas["Note"]
  readonly onChange: () => void
}) => {
  const { date, t } = useI18n()
  const [editing, setEditing] = useState<string | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const path = { kind, id, noteId: note._id }
  const save = async (event: FormEvent) => {
    event.preventDefault()
    const { error } = await api.PUT("/api/{kind}/{id}/notes/{noteId}", { params: { path }, body: { body: editing ?? "" } })
    setProblem(problemOf(error))
    if (!error) { setEditing(undefined); onChange() }
  }
  const remove = async () => {
    if (!window.confirm(t("confirmDelete"))) return
    await api.DELETE("/api/{kind}/{id}/notes/{noteId}", { params: { path } })
    onChange()
  }
  if (editing !== undefined) {
    return (
      <li>
        <form onSubmit={save}>
          <Field label={t("noteBody")} error={fieldError(problem, "body")}>
            <textarea value={editing} onChange={(e) => setEditing(e.target.value)} />
          </Field>
          <button type="submit" className="primary">{t("save")}</button>
          <button type="button" onClick={() => setEditing(undefined)}>{t("cancel")}</button>
        </form>
      </li>
    )
  }
  return (
    <li>
      <p className="note-body">{note.body}</p>
      <small>{date(note.created_at)}</small>
      <button type="button" onClick={() => setEditing(note.body)}>{t("edit")}</button>
      <button type="button" onClick={remove}>{t("delete")}</button>
    </li>
  )
}

export const Notes = ({ kind, id }: { readonly kind: Kind; readonly id: string }) => {
  const { t } = useI18n()
  const notes = useLoad(async () => {
    const { data } = await api.GET("/api/{kind}/{id}/notes", { params: { path: { kind, id }, query: { per_page: 100 } } })
    return data?.data ?? []
  }, [kind, id])
  const [body, setBody] = useState("")
  const [problem, setProblem] = useState<Problem | undefined>()
  const add = async (event: FormEvent) => {
    event.preventDefault()
    const { error } = await api.POST("/api/{kind}/{id}/notes", { params: { path: { kind, id } }, body: { body } })
    setProblem(problemOf(error))
    if (!error) { setBody(""); notes.reload() }
  }
  return (
    <section aria-labelledby="notes-title">
      <h2 id="notes-title">{t("notes")}</h2>
      <form onSubmit={add}>
        <Field label={t("noteBody")} error={fieldError(problem, "body")}>
          <textarea value={body} onChange={(e) => setBody(e.target.value)} />
        </Field>
        <button type="submit" className="primary">{t("addNote")}</button>
      </form>
      <ul className="notes">
        {(notes.data ?? []).map((note) => <NoteItem key={note._id} kind={kind} id={id} note={note} onChange={notes.reload} />)}
      </ul>
    </section>
  )
}
