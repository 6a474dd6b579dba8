/** A contact's WhatsApp conversation on its page, with a link to it in the inbox. */
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"
import { Thread } from "./Thread"

export const ContactConversation = ({ contactId }: { readonly contactId: string }) => {
  const { t } = useI18n()
  return (
    <section aria-labelledby="conversation-title" className="contact-conversation">
      <header className="page-header">
        <h2 id="conversation-title">{t("conversation")}</h2>
        <Link to={`/inbox/${contactId}`}>{t("openInInbox")}</Link>
      </header>
      <Thread contactId={contactId} />
    </section>
  )
}
