/**
 * The conversation endpoints: the inbox, a contact's thread, a reply and marking it read. Same
 * origin with the session cookie and `X-Requested-With`, like the openapi-fetch client.
 */
import { SIGNED_OUT_EVENT } from "../api/client"
import { problemOf, type Problem } from "../api/errors"
import type { PageMeta } from "../ui/Pagination"
import type { Conversation, Message } from "./wire"

export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly meta: PageMeta
}

type Answer<A> = { readonly data: A; readonly problem?: undefined } | { readonly data?: undefined; readonly problem: Problem }

const call = async <A,>(method: "GET" | "POST", path: string, body?: unknown): Promise<Answer<A>> => {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: {
      Accept: "application/json",
      "X-Requested-With": "XMLHttpRequest",
      ...(body === undefined ? {} : { "Content-Type": "application/json" })
    },
    body: body === undefined ? null : JSON.stringify(body)
  })
  if (response.status === 401) window.dispatchEvent(new Event(SIGNED_OUT_EVENT))
  const json: unknown = await response.json().catch(() => ({ message: response.statusText }))
  return response.ok ? { data: json as A } : { problem: problemOf(json)! }
}

const query = (values: Readonly<Record<string, string | number | boolean | undefined>>): string => {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== "" && value !== false) params.set(key, String(value))
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

export const listConversations = (options: { readonly search?: string; readonly unread?: boolean; readonly page?: number; readonly per_page?: number }) =>
  call<Page<Conversation>>("GET", `/api/conversations${query(options)}`)

export const listMessages = (contactId: string, page: number, perPage: number) =>
  call<Page<Message>>("GET", `/api/contacts/${encodeURIComponent(contactId)}/messages${query({ page, per_page: perPage })}`)

export const sendReply = (contactId: string, text: string) =>
  call<{ readonly data: Message }>("POST", `/api/contacts/${encodeURIComponent(contactId)}/messages`, { text })

export const markConversationRead = (contactId: string) =>
  call<{ readonly data: { readonly unread_count: number } }>("POST", `/api/conversations/${encodeURIComponent(contactId)}/read`)
