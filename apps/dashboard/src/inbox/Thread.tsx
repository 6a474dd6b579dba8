/**
 * A contact's conversation: the messages both ways (older pages on demand), kept current, marked
 * read while it is shown, and the reply box with the 24-hour window's state.
 */
import { useEffect, useLayoutEffect, useRef } from "react"
import { api } from "../api/client"
import { useI18n } from "../i18n/i18n"
import { MessageBubble } from "./MessageBubble"
import { ReplyBox } from "./ReplyBox"
import { ThreadHeader } from "./ThreadHeader"
import { useConversation } from "./useConversation"
import { useLiveReload } from "./useLiveReload"
import { useThread } from "./useThread"

/**
 * `withHeader` names the contact above the thread (the inbox; a contact's page already does);
 * `onChange` is told when the conversation's unread count or last message changed.
 */
export const Thread = ({ contactId, withHeader = false, onChange }: {
  readonly contactId: string
  readonly withHeader?: boolean
  readonly onChange?: () => void
}) => {
  const { t } = useI18n()
  const conversation = useConversation(contactId)
  const thread = useThread(contactId)
  useLiveReload(() => {
    thread.reload()
    conversation.reload()
  }, contactId)
  const messages = thread.data?.messages
  const newest = messages?.at(-1)?._id
  const unread = messages?.some((message) => !message.is_sent_by_the_business && message.status === "received") ?? false
  useEffect(() => {
    if (!unread) return
    void api.POST("/api/conversations/{id}/read", { params: { path: { id: contactId } } }).then(({ error }) => {
      if (!error) onChange?.()
    })
  }, [contactId, unread, newest])
  // The newest message is at the end: keep it in view as messages arrive.
  const list = useRef<HTMLOListElement>(null)
  useLayoutEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight
  }, [newest])
  if (messages === undefined) return <p>{t("loading")}</p>
  return (
    <div className="thread">
      {withHeader && conversation.data && (
        <ThreadHeader contactId={contactId} name={conversation.data.name} number={conversation.data.entry?.contact.whatsapp_number ?? conversation.data.number} />
      )}
      {thread.data?.hasOlder && <button type="button" onClick={thread.more}>{t("olderMessages")}</button>}
      {messages.length === 0 ? <p>{t("noMessages")}</p> : (
        <ol className="messages" ref={list} tabIndex={0} aria-label={t("messagesWith", { name: conversation.data?.name ?? "" })} aria-live="polite" aria-relevant="additions">
          {messages.map((message) => <MessageBubble key={message._id} message={message} />)}
        </ol>
      )}
      <ReplyBox
        contactId={contactId}
        windowExpiresAt={conversation.data === undefined ? undefined : (conversation.data.entry?.window_expires_at ?? null)}
        onSent={() => {
          thread.reload()
          onChange?.()
        }}
      />
    </div>
  )
}
