/**
 * The inbox: the conversations beside the open one. On a phone they are two views: the list
 * at /inbox, a thread at /inbox/{contact} with a way back.
 */
import { useReducer } from "react"
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { ConversationList } from "./ConversationList"
import { Thread } from "./Thread"

export const InboxPage = ({ contactId }: { readonly contactId: string | undefined }) => {
  const { t } = useI18n()
  const [version, changed] = useReducer((n: number) => n + 1, 0)
  return (
    <div className="inbox" data-view={contactId === undefined ? "list" : "thread"}>
      <h1>{t("inbox")}</h1>
      <section className="inbox-list" aria-label={t("conversations")}>
        <ConversationList selected={contactId} version={version} />
      </section>
      <section className="inbox-thread" aria-label={t("conversation")}>
        {contactId === undefined ? <p>{t("chooseConversation")}</p> : (
          <>
            <Link className="phone-only" to="/inbox">{t("allConversations")}</Link>
            <Thread key={contactId} contactId={contactId} withHeader onChange={changed} />
          </>
        )}
      </section>
    </div>
  )
}
