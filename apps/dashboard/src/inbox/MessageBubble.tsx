/**
 * One message of a thread: the business's on the end side, the customer's on the start side (so
 * the sides mirror in Arabic), its text in its own direction, content, media, time and ticks.
 * Codes sent as one-time passwords show as stored: masked.
 */
import { useI18n } from "../i18n/i18n"
import { AttachmentView } from "./AttachmentView"
import { MessageContent } from "./MessageContent"
import { MessageStatus } from "./MessageStatus"
import { namedType } from "./preview"
import type { Message } from "./wire"

export const MessageBubble = ({ message }: { readonly message: Message }) => {
  const { date, t } = useI18n()
  const mine = message.is_sent_by_the_business
  return (
    <li className={mine ? "bubble outbound" : "bubble inbound"} data-direction={mine ? "outbound" : "inbound"} data-message={message._id}>
      <span className="visually-hidden">{mine ? t("fromBusiness") : t("fromCustomer")}: </span>
      {message.type !== "text" && message.type !== "template" && <span className="badge">{t(`msg_${namedType(message.type)}`)}</span>}
      {message.body !== "" && <p className="bubble-text" dir="auto">{message.body}</p>}
      <MessageContent type={message.type} body={message.body} content={message.content} />
      {message.attachments.map((attachment, index) => <AttachmentView key={index} attachment={attachment} />)}
      <div className="bubble-meta">
        <time dateTime={message.created_at}>{date(message.created_at)}</time>
        <MessageStatus message={message} />
      </div>
    </li>
  )
}
