/** One conversation in the list: who, the last message in a line, when, and its unread count. */
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { previewOf } from "./preview"
import type { Conversation } from "./wire"

export const ConversationListItem = ({ conversation, selected }: { readonly conversation: Conversation; readonly selected: boolean }) => {
  const { date, t } = useI18n()
  const { contact, last_message: last, unread_count: unread } = conversation
  const preview = previewOf(last)
  return (
    <li className={unread > 0 ? "conversation unread" : "conversation"} data-contact={contact._id}>
      <Link to={`/inbox/${contact._id}`} aria-current={selected ? "page" : undefined}>
        <span className="conversation-head">
          <strong dir="auto">{contact.fullname || contact.whatsapp_number}</strong>
          {unread > 0 && (
            <span className="badge unread-badge" data-testid="conversation-unread">
              <span aria-hidden="true">{unread}</span>
              <span className="visually-hidden"> {t("unreadMessages", { count: unread })}</span>
            </span>
          )}
        </span>
        <span className="conversation-preview" dir="auto">
          {last.is_sent_by_the_business && <span>{t("you")}: </span>}
          {"text" in preview ? preview.text : t(`msg_${preview.type}`)}
        </span>
        <time dateTime={last.created_at}>{date(last.created_at)}</time>
      </Link>
    </li>
  )
}
