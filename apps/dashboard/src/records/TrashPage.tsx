/** A kind's trash: its deleted records, newest first, each restored or deleted forever. */
import { useState } from "react"
import { api, type Kind } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { kindPermission, usePermission } from "../session/permissions"
import { Pagination } from "../ui/Pagination"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { NAME_PROPERTY, type RecordValues } from "./kinds"

export const TrashPage = ({ kind }: { readonly kind: Kind }) => {
  const { date, t } = useI18n()
  const may = usePermission()
  const [page, setPage] = useState(1)
  const [problem, setProblem] = useState<Problem | undefined>()
  const trash = useLoad(async () => {
    const { data } = await api.GET("/api/{kind}/trash", { params: { path: { kind }, query: { page, per_page: 15 } } })
    return data
  }, [kind, page])
  const canChange = may(kindPermission(kind, "delete"))
  const restore = async (id: string) => {
    const { error } = await api.POST("/api/{kind}/{id}/restore", { params: { path: { kind, id } } })
    setProblem(problemOf(error))
    trash.reload()
  }
  const purge = async (id: string) => {
    if (!window.confirm(t("confirmPurge"))) return
    const { error } = await api.DELETE("/api/{kind}/trash/{id}", { params: { path: { kind, id } } })
    setProblem(problemOf(error))
    trash.reload()
  }
  const entries = trash.data?.data ?? []
  return (
    <section>
      <header className="page-header">
        <h1>{t("trashOf", { kind: t(`kind_${kind}`) })}</h1>
        <Link className="button" to={`/${kind}`}>{t("back")}</Link>
      </header>
      <ProblemMessage problem={problem} />
      {trash.data && entries.length === 0 && <p>{t("trashEmpty")}</p>}
      {entries.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t(`kind_${kind}`)}</th>
                <th scope="col">{t("deletedAt")}</th>
                <th scope="col">{t("purgedAt")}</th>
                {canChange && <th scope="col"><span className="visually-hidden">{t("restore")}</span></th>}
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => {
                const values = (entry.record as { readonly properties?: RecordValues }).properties ?? {}
                return (
                  <tr key={entry._id}>
                    <td>
                      {String(values[NAME_PROPERTY[kind]] ?? entry._id)}
                      {entry.merged_into !== null && <small> ({t("mergedInto")})</small>}
                    </td>
                    <td>{date(entry.deleted_at)}</td>
                    <td>{date(entry.expires_at)}</td>
                    {canChange && (
                      <td>
                        <button type="button" onClick={() => restore(entry._id)}>{t("restore")}</button>
                        <button type="button" onClick={() => purge(entry._id)}>{t("purge")}</button>
                      </td>
                    )}
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {trash.data && <Pagination meta={trash.data.meta} onPage={setPage} />}
    </section>
  )
}
