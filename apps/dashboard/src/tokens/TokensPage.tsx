/** The user's API tokens: list (a page at a time), create with abilities (the token shown once), revoke. */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { Pagination } from "../ui/Pagination"
import { ProblemMessage } from "../ui/ProblemMessage"
import { Secret } from "../ui/Secret"
import { useLoad } from "../ui/useLoad"
import { ABILITIES, type Ability } from "./abilities"

export const TokensPage = () => {
  const { date, t } = useI18n()
  const [page, setPage] = useState(1)
  const tokens = useLoad(async () => (await api.GET("/api/tokens", { params: { query: { page } } })).data, [page])
  const [name, setName] = useState("")
  const [abilities, setAbilities] = useState<ReadonlyArray<Ability>>([])
  const [problem, setProblem] = useState<Problem | undefined>()
  const [plain, setPlain] = useState<string | undefined>()
  const create = async (event: FormEvent) => {
    event.preventDefault()
    const { data, error } = await api.POST("/api/tokens", { body: { name, abilities: [...abilities] } })
    setProblem(problemOf(error))
    if (data) { setPlain(data.token); setName(""); setAbilities([]); tokens.reload() }
  }
  const revoke = async (id: number) => {
    if (!window.confirm(t("confirmDelete"))) return
    await api.DELETE("/api/tokens/{id}", { params: { path: { id: String(id) } } })
    tokens.reload()
  }
  return (
    <section>
      <h1>{t("tokens")}</h1>
      <form className="card" onSubmit={create} aria-label={`${t("new")}: ${t("tokens")}`} noValidate>
        <ProblemMessage problem={problem} />
        <Field label={t("name")} error={fieldError(problem, "name")}>
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t("abilities")} error={fieldError(problem, "abilities")}>
          <select multiple size={8} dir="ltr" value={abilities as Array<string>} onChange={(e) => setAbilities(Array.from(e.target.selectedOptions, (o) => o.value as Ability))}>
            <option value="*">{t("allAbilities")}</option>
            {ABILITIES.map((ability) => <option key={ability} value={ability}>{ability}</option>)}
          </select>
        </Field>
        <button type="submit" className="primary">{t("create")}</button>
      </form>
      {plain && <Secret label={t("tokens")} note={t("tokenOnce")} value={plain} />}
      <div className="table-scroll">
        <table>
          <thead>
            <tr><th scope="col">{t("name")}</th><th scope="col">{t("abilities")}</th><th scope="col">{t("created_at")}</th><th scope="col">{t("lastUsed")}</th><th scope="col"><span className="visually-hidden">{t("revoke")}</span></th></tr>
          </thead>
          <tbody>
            {(tokens.data?.data ?? []).map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td dir="ltr">{token.abilities.join(", ")}</td>
                <td>{date(token.created_at)}</td>
                <td>{token.last_used_at ? date(token.last_used_at) : t("never")}</td>
                <td><button type="button" onClick={() => revoke(token.id)}>{t("revoke")}</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {tokens.data && <Pagination meta={tokens.data.meta} onPage={setPage} />}
    </section>
  )
}
