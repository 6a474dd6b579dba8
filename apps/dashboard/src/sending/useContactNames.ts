/**
 * The names of the contacts a page of recipients lists (a recipient names only its contact's id):
 * each contact read once, however often the page reloads while a campaign runs.
 */
import { useEffect, useState } from "react"
import { api } from "../api/client"

export const useContactNames = (ids: ReadonlyArray<string>): ReadonlyMap<string, string> => {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map())
  const missing = ids.filter((id) => !names.has(id))
  useEffect(() => {
    if (missing.length === 0) return
    let current = true
    void Promise.all(missing.map(async (id) => {
      const { data } = await api.GET("/api/{kind}/{id}", { params: { path: { kind: "contacts", id } } })
      const values = (data?.data as { properties?: Readonly<Record<string, unknown>> } | undefined)?.properties ?? {}
      return [id, String(values["fullname"] || values["whatsapp_number"] || id)] as const
    })).then((found) => {
      if (current) setNames((known) => new Map([...known, ...found]))
    })
    return () => {
      current = false
    }
  }, [missing.join(",")])
  return names
}
