/** The inbox's conversations, latest activity first: search by name or number, unread only, pages. */
import { useState } from "react"
import { api } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { Pagination } from "../ui/Pagination"
import { useDebounced } from "../ui/useDebounced"
import { useLoad } from "../ui/useLoad"
import { ConversationListItem } from "./ConversationListItem"
import { useLiveReload } from "./useLiveReload"

/** `version` changes when the open thread changed the list (read, replied). */
export const ConversationList = ({ selected, version }: { readonly selected: string | undefined; readonly version: number }) => {
  const { t } = useI18n()
  const [search, setSearch] = useState("")
  const [unread, setUnread] = useState(false)
  const [page, setPage] = useState(1)
  const settled = useDebounced(search)
  const list = useLoad(async () => (await api.GET("/api/conversations", { params: { query: { search: settled, unread: unread || undefined, page } } })).data, [settled, unread, page, version])
  useLiveReload(list.reload)
  return (
    <>
      <div className="toolbar" role="search">
        <label>{t("search")}<input type="search" value={search} onChange={(e) => { setSearch(e.target.value); setPage(1) }} /></label>
        <label className="check"><input type="checkbox" checked={unread} onChange={(e) => { setUnread(e.target.checked); setPage(1) }} />{t("unreadOnly")}</label>
      </div>
      {list.data === undefined ? <p>{t("loading")}</p> : list.data.data.length === 0 ? <p>{t("noConversations")}</p> : (
        <ul className="conversations" aria-label={t("conversations")}>
          {list.data.data.map((conversation) => (
            <ConversationListItem key={conversation.contact._id} conversation={conversation} selected={conversation.contact._id === selected} />
          ))}
        </ul>
      )}
      {list.data && list.data.meta.last_page > 1 && <Pagination meta={list.data.meta} onPage={setPage} />}
    </>
  )
}
