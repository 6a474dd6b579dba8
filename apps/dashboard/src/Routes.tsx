/**
 * Which page a path under /app shows. The team and account pages are loaded when first opened,
 * which keeps the first load within its budget.
 */
import { useEffect } from "react"
import { useI18n } from "./i18n/i18n"
import { InboxPage } from "./inbox/InboxPage"
import { NotificationsPage } from "./notifications/NotificationsPage"
import { PropertiesPage } from "./properties/PropertiesPage"
import { isKind } from "./records/kinds"
import { RecordForm } from "./records/RecordForm"
import { RecordPage } from "./records/RecordPage"
import { RecordsPage } from "./records/RecordsPage"
import { TrashPage } from "./records/TrashPage"
import { match, navigate } from "./router"
import { usePermission } from "./session/permissions"
import { startPage } from "./shell/menu"
import { lazyPage, type PageTexts } from "./ui/lazyPage"
import { TokensPage } from "./tokens/TokensPage"
import { DeliveryLog } from "./webhooks/DeliveryLog"
import { WebhooksPage } from "./webhooks/WebhooksPage"

const MembersPage = lazyPage(() => import("./members/MembersPage").then((m) => m.MembersPage))
const TeamsPage = lazyPage(() => import("./teams/TeamsPage").then((m) => m.TeamsPage))
const AccountSettingsPage = lazyPage(() => import("./account/AccountSettingsPage").then((m) => m.AccountSettingsPage))
const AccountsPage = lazyPage(() => import("./account/AccountsPage").then((m) => m.AccountsPage))
const ProfilePage = lazyPage(() => import("./profile/ProfilePage").then((m) => m.ProfilePage))
const sendingTexts: PageTexts = () => import("./i18n/sending-messages").then(({ sendingEn, sendingAr }) => ({ en: sendingEn, ar: sendingAr }))
const NumbersPage = lazyPage(() => import("./sending/NumbersPage").then((m) => m.NumbersPage), sendingTexts)
const NumberPage = lazyPage(() => import("./sending/NumberPage").then((m) => m.NumberPage), sendingTexts)
const TemplatesPage = lazyPage(() => import("./sending/TemplatesPage").then((m) => m.TemplatesPage), sendingTexts)
const TemplateForm = lazyPage(() => import("./sending/TemplateForm").then((m) => m.TemplateForm), sendingTexts)
const CampaignsPage = lazyPage(() => import("./sending/CampaignsPage").then((m) => m.CampaignsPage), sendingTexts)
const CampaignForm = lazyPage(() => import("./sending/CampaignForm").then((m) => m.CampaignForm), sendingTexts)
const CampaignPage = lazyPage(() => import("./sending/CampaignPage").then((m) => m.CampaignPage), sendingTexts)

const Redirect = ({ to }: { readonly to: string }) => {
  useEffect(() => navigate(to), [to])
  return null
}

export const Routes = ({ path }: { readonly path: string }) => {
  const { t } = useI18n()
  const may = usePermission()
  if (path === "/" || path === "/login") return <Redirect to={startPage(may)} />
  if (path === "/members") return <MembersPage />
  if (path === "/teams") return <TeamsPage />
  if (path === "/account") return <AccountSettingsPage />
  if (path === "/accounts") return <AccountsPage />
  if (path === "/profile") return <ProfilePage />
  if (path === "/webhooks") return <WebhooksPage />
  if (path === "/notifications") return <NotificationsPage />
  if (path === "/tokens") return <TokensPage />
  // One page for the list and each thread, so the search and filter stay as threads change.
  if (path === "/inbox") return <InboxPage contactId={undefined} />
  const thread = match("/inbox/:contactId", path)
  if (thread) return <InboxPage contactId={thread["contactId"]} />
  if (path === "/numbers") return <NumbersPage />
  const number = match("/numbers/:id", path)
  if (number) return <NumberPage key={number["id"]} id={number["id"]!} />
  if (path === "/templates") return <TemplatesPage />
  if (path === "/templates/new") return <TemplateForm />
  if (path === "/campaigns") return <CampaignsPage />
  if (path === "/campaigns/new") return <CampaignForm />
  const campaign = match("/campaigns/:id", path)
  if (campaign) return <CampaignPage key={campaign["id"]} id={campaign["id"]!} />
  const webhook = match("/webhooks/:id", path)
  if (webhook) return <DeliveryLog key={webhook["id"]} id={webhook["id"]!} />
  const [, first, second, third] = path.split("/")
  if (isKind(first)) {
    if (second === undefined) return <RecordsPage key={first} kind={first} />
    if (second === "new") return <RecordForm key={first} kind={first} />
    if (second === "properties") return <PropertiesPage key={first} kind={first} />
    if (second === "trash") return <TrashPage key={first} kind={first} />
    if (third === "edit") return <RecordForm key={second} kind={first} id={second} />
    if (third === undefined) return <RecordPage key={second} kind={first} id={second} />
  }
  return <p>{t("notFound")}</p>
}
