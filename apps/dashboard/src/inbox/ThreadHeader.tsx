/** Whom the open thread is with: name, WhatsApp number and a link to the contact's page. */
import { useI18n } from "../i18n/i18n"
import { Link } from "../router"

export const ThreadHeader = ({ contactId, name, number }: { readonly contactId: string; readonly name: string; readonly number: string | null | undefined }) => {
  const { t } = useI18n()
  return (
    <header className="page-header thread-header">
      <h2 dir="auto">{name}</h2>
      {number && <span dir="ltr">{number}</span>}
      <Link to={`/contacts/${contactId}`}>{t("contactPage")}</Link>
    </header>
  )
}
