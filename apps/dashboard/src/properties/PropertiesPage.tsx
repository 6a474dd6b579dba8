/** A kind's property groups and properties: list, create, edit and delete (built-ins are read-only). */
import { useState } from "react"
import { api, type Kind, type Schemas } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import { localized, useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useGroups, useProperties } from "../records/useProperties"
import { GroupForm } from "./GroupForm"
import { PropertyForm } from "./PropertyForm"

type Editing =
  | { readonly what: "group"; readonly group?: Schemas["PropertyGroupView"] }
  | { readonly what: "property"; readonly property?: Schemas["PropertyView"] }

export const PropertiesPage = ({ kind }: { readonly kind: Kind }) => {
  const { language, t } = useI18n()
  const properties = useProperties(kind)
  const groups = useGroups(kind)
  const [editing, setEditing] = useState<Editing | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const done = () => { setEditing(undefined); properties.reload(); groups.reload() }
  const remove = async (path: "/api/{kind}/properties/{id}" | "/api/{kind}/properties/groups/{id}", id: string) => {
    if (!window.confirm(t("confirmDelete"))) return
    const { error } = await api.DELETE(path, { params: { path: { kind, id } } })
    setProblem(problemOf(error))
    done()
  }
  return (
    <section>
      <header className="page-header">
        <h1>{t(`kind_${kind}`)}: {t("properties")}</h1>
        <button type="button" className="primary" onClick={() => setEditing({ what: "property" })}>{t("new")}: {t("property")}</button>
        <button type="button" onClick={() => setEditing({ what: "group" })}>{t("new")}: {t("group")}</button>
        <Link className="button" to={`/${kind}`}>{t("back")}</Link>
      </header>
      {editing?.what === "group" && <GroupForm kind={kind} group={editing.group} onDone={done} />}
      {editing?.what === "property" && <PropertyForm kind={kind} groups={groups.data ?? []} property={editing.property} onDone={done} />}
      <ProblemMessage problem={problem} />
      {(groups.data ?? []).map((group) => (
        <section key={group._id} className="card" aria-label={localized(group.name, language)}>
          <header className="page-header">
            <h2>{localized(group.name, language)}</h2>
            {group.account_id === null ? <span className="badge">{t("builtIn")}</span> : (
              <>
                <button type="button" onClick={() => setEditing({ what: "group", group })}>{t("edit")}</button>
                <button type="button" onClick={() => remove("/api/{kind}/properties/groups/{id}", group._id)}>{t("delete")}</button>
              </>
            )}
          </header>
          <div className="table-scroll">
            <table>
              <thead>
                <tr><th scope="col">{t("name")}</th><th scope="col">{t("internalName")}</th><th scope="col">{t("type")}</th><th scope="col"><span className="visually-hidden">{t("edit")}</span></th></tr>
              </thead>
              <tbody>
                {(properties.data ?? []).filter((p) => p.group_id === group._id).map((property) => (
                  <tr key={property._id}>
                    <td>{localized(property.name, language)}</td>
                    <td dir="ltr">{property.internal_name}</td>
                    <td>{property.type}</td>
                    <td>
                      {property.account_id === null ? <span className="badge">{t("builtIn")}</span> : (
                        <>
                          <button type="button" onClick={() => setEditing({ what: "property", property })}>{t("edit")}</button>
                          <button type="button" onClick={() => remove("/api/{kind}/properties/{id}", property._id)}>{t("delete")}</button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </section>
  )
}
