/**
 * The permission each operation needs, in one table, written into the OpenAPI document as the
 * operation's `x-wasl-permission` extension, so that a program reading the document (a client
 * choosing a token's abilities, the permission matrix test) knows it without parsing prose. The
 * use-cases ask for the permissions (`authorize`); this table says the same for the reader, and
 * the permission matrix test holds the two to each other over real requests.
 */
import type { Permission } from "@wasl/core/Auth"

/** A record permission of the operation's kind: `{kind}` is the kind's singular (`/api/deals` → `deal`). */
export type KindPermission = `{kind}-${"index" | "show" | "create" | "update" | "delete"}`

/** One permission name, or one of the operation's kind. */
export type PermissionName = Permission | KindPermission

/**
 * What an operation needs of its caller: one permission; every one of `all`; or any one of
 * `any`. A token needs the ability as well as its user the permission.
 */
export type PermissionRule =
  | PermissionName
  | { readonly all: ReadonlyArray<PermissionName> }
  | { readonly any: ReadonlyArray<PermissionName> }

/** The OpenAPI extension that names an operation's permission. */
export const PERMISSION_EXTENSION = "x-wasl-permission"

const PROPERTY_READ: PermissionRule = { any: ["{kind}-index", "property-manage"] }

/**
 * The permission of every operation that needs one, by operationId. An operation left out needs
 * none beyond authentication (the caller's own user, session, notifications and accounts). For
 * `/api/exports/{id}` the kind is the export's. Some operations ask for more when the body does:
 * an import with `match_on` needs `{kind}-update` too; granting a permission to a team, an
 * invitee or a token needs that permission.
 */
export const OPERATION_PERMISSIONS: Readonly<Record<string, PermissionRule>> = {
  "tokens.list": "token-manage",
  "tokens.create": "token-manage",
  "tokens.revoke": "token-manage",
  "accounts.update": "account-manage",
  "members.listMembers": "member-manage",
  "members.updateMember": "member-manage",
  "members.removeMember": "member-manage",
  "members.listInvitations": "member-manage",
  "members.invite": "member-manage",
  "members.revokeInvitation": "member-manage",
  "teams.list": "team-manage",
  "teams.create": "team-manage",
  "teams.show": "team-manage",
  "teams.update": "team-manage",
  "teams.delete": "team-manage",
  "teams.setMembers": "team-manage",
  "properties.listGroups": PROPERTY_READ,
  "properties.createGroup": "property-manage",
  "properties.showGroup": PROPERTY_READ,
  "properties.updateGroup": "property-manage",
  "properties.deleteGroup": "property-manage",
  "properties.list": PROPERTY_READ,
  "properties.create": "property-manage",
  "properties.show": PROPERTY_READ,
  "properties.update": "property-manage",
  "properties.delete": "property-manage",
  "pipelines.list": PROPERTY_READ,
  "pipelines.create": "property-manage",
  "pipelines.show": PROPERTY_READ,
  "pipelines.update": "property-manage",
  "pipelines.delete": "property-manage",
  "webhooks.list": "webhook-index",
  "webhooks.create": "webhook-create",
  "webhooks.show": "webhook-index",
  "webhooks.update": "webhook-update",
  "webhooks.delete": "webhook-delete",
  "webhooks.validate": "webhook-update",
  "webhooks.activate": "webhook-update",
  "deliveries.list": "webhook-index",
  "deliveries.redeliver": "webhook-update",
  "deliveries.recover": "webhook-update",
  "messaging.listPlatforms": "broadcast-index",
  "messaging.createPlatform": "broadcast-manage",
  "messaging.listBroadcasts": "broadcast-index",
  "messaging.createBroadcast": "broadcast-manage",
  "messaging.syncBroadcasts": "broadcast-manage",
  "messaging.showBroadcast": "broadcast-index",
  "messaging.send": "broadcast-send",
  "platforms.showPlatform": "broadcast-index",
  "platforms.updatePlatform": "broadcast-manage",
  "platforms.deletePlatform": "broadcast-manage",
  "campaigns.createCampaign": "broadcast-send",
  "campaigns.listCampaigns": "broadcast-index",
  "campaigns.showCampaign": "broadcast-index",
  "campaigns.listCampaignRecipients": "broadcast-index",
  "campaigns.cancelCampaign": "broadcast-send",
  "platforms.refreshPlatform": "broadcast-manage",
  "conversations.listContactMessages": "contact-show",
  "conversations.reply": "broadcast-send",
  "conversations.listConversations": "contact-show",
  "conversations.readConversation": "contact-show",
  "conversations.downloadAttachment": "contact-show",
  "otp.sendOtp": "broadcast-send-otp",
  "otp.verify": "broadcast-send-otp",
  "otp.showVerification": "broadcast-send-otp",
  "recordLinks.dealAttachContacts": "deal-update",
  "recordLinks.dealDetachContact": "deal-update",
  "recordLinks.dealAttachTickets": "deal-update",
  "recordLinks.dealDetachTicket": "deal-update",
  "recordLinks.ticketAttachContacts": "ticket-update",
  "recordLinks.ticketDetachContact": "ticket-update",
  "recordLinks.ticketAttachDeals": "ticket-update",
  "recordLinks.ticketDetachDeal": "ticket-update",
  "recordLinks.companyAttachContacts": "company-update",
  "recordLinks.companyDetachContact": "company-update",
  "recordLinks.companyAttachDeals": "company-update",
  "recordLinks.companyDetachDeal": "company-update",
  "recordLinks.companyAttachTickets": "company-update",
  "recordLinks.companyDetachTicket": "company-update",
  "recordLinks.contactAttachCompanies": "contact-update",
  "recordLinks.contactDetachCompany": "contact-update",
  "recordLinks.dealAttachCompanies": "deal-update",
  "recordLinks.dealDetachCompany": "deal-update",
  "recordLinks.ticketAttachCompanies": "ticket-update",
  "recordLinks.ticketDetachCompany": "ticket-update",
  "notes.list": "{kind}-show",
  "notes.create": "{kind}-update",
  "notes.update": "{kind}-update",
  "notes.delete": "{kind}-update",
  "history.list": "{kind}-show",
  "imports.start": "{kind}-create",
  "imports.show": "{kind}-create",
  "imports.errors": "{kind}-create",
  "records.list": "{kind}-index",
  "records.create": "{kind}-create",
  "records.show": "{kind}-show",
  "records.update": "{kind}-update",
  "records.delete": "{kind}-delete",
  "records.batchCreate": "{kind}-create",
  "records.batchUpdate": "{kind}-update",
  "records.batchDelete": "{kind}-delete",
  "records.batchUpsert": { all: ["{kind}-create", "{kind}-update"] },
  "trash.list": "{kind}-index",
  "trash.restore": "{kind}-delete",
  "trash.purge": "{kind}-delete",
  "merges.merge": { all: ["{kind}-update", "{kind}-delete"] },
  "views.list": "{kind}-index",
  "views.create": "{kind}-index",
  "views.show": "{kind}-index",
  "views.update": "{kind}-index",
  "views.delete": "{kind}-index",
  "exports.request": "{kind}-index",
  "exports.show": "{kind}-index",
  "exports.download": "{kind}-index"
}

/**
 * Writes each operation's `x-wasl-permission` from {@link OPERATION_PERMISSIONS} (an `OpenApi`
 * transform of the whole document). A name in the table that is no operation of the document is
 * a defect: the table would be saying something of nothing.
 */
export const documentPermissions = (spec: Record<string, any>): Record<string, any> => {
  const unused = new Set(Object.keys(OPERATION_PERMISSIONS))
  for (const item of Object.values(spec.paths as Record<string, Record<string, any>>)) {
    for (const operation of Object.values(item)) {
      const rule = typeof operation === "object" ? OPERATION_PERMISSIONS[operation.operationId] : undefined
      if (rule === undefined) continue
      operation[PERMISSION_EXTENSION] = rule
      unused.delete(operation.operationId)
    }
  }
  if (unused.size > 0) throw new Error(`permissions of operations the API does not have: ${[...unused].join(", ")}`)
  return spec
}
