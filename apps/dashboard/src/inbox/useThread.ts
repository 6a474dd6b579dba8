/**
 * A contact's messages, oldest first for reading, a page at a time from the newest (`more` loads
 * the page before); each reload fetches the loaded pages again, so new messages and changed
 * ticks appear without losing the older pages.
 */
import { useState } from "react"
import { api } from "../api/client"
import { useLoad } from "../ui/useLoad"
import type { Message } from "./wire"

const PER_PAGE = 30

const load = async (contactId: string, pages: number) => {
  const answers = await Promise.all(Array.from({ length: pages }, (_, index) => api.GET("/api/contacts/{id}/messages", { params: { path: { id: contactId }, query: { page: index + 1, per_page: PER_PAGE } } })))
  const seen = new Set<string>()
  const newestFirst: Array<Message> = []
  for (const answer of answers) {
    for (const message of answer.data?.data ?? []) {
      if (!seen.has(message._id)) newestFirst.push(message)
      seen.add(message._id)
    }
  }
  const last = answers.at(-1)?.data?.meta.last_page ?? 1
  return { messages: newestFirst.reverse(), hasOlder: pages < last }
}

export const useThread = (contactId: string) => {
  const [pages, setPages] = useState(1)
  const thread = useLoad(() => load(contactId, pages), [contactId, pages])
  return { ...thread, more: () => setPages((n) => n + 1) }
}
