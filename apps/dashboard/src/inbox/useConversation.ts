/**
 * A contact's name and number, and its conversation entry (unread count, the 24-hour window)
 * found in the inbox by that number; `entry` is null when the contact has no conversation yet.
 */
import { api } from "../api/client"
import { useLoad } from "../ui/useLoad"
import type { Conversation } from "./wire"

export interface ContactConversation {
  readonly name: string
  readonly number: string
  readonly entry: Conversation | null
}

const load = async (contactId: string): Promise<ContactConversation> => {
  const { data } = await api.GET("/api/{kind}/{id}", { params: { path: { kind: "contacts", id: contactId } } })
  const properties = (data?.data as { readonly properties?: Readonly<Record<string, unknown>> } | undefined)?.properties ?? {}
  const name = String(properties["fullname"] ?? "")
  const number = String(properties["whatsapp_number"] ?? "")
  const found = number === "" ? undefined : await api.GET("/api/conversations", { params: { query: { search: number, per_page: 100 } } })
  const entry = found?.data?.data.find((conversation) => conversation.contact._id === contactId) ?? null
  return { name: entry?.contact.fullname || name, number, entry }
}

export const useConversation = (contactId: string) => useLoad(() => load(contactId), [contactId])
