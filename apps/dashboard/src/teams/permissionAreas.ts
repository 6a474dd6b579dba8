/**
 * The permissions a team can carry, grouped by area as the team form's checklist shows them: the
 * records of each kind by action, then webhooks, properties, messaging, tokens and administration.
 */
import type { MessageKey } from "../i18n/messages"
import type { Permission } from "../session/permissions"

/** The areas beside the records, each with its permissions. */
export const AREAS: ReadonlyArray<{ readonly area: MessageKey; readonly permissions: ReadonlyArray<Permission> }> = [
  { area: "area_webhooks", permissions: ["webhook-index", "webhook-create", "webhook-update", "webhook-delete"] },
  { area: "area_properties", permissions: ["property-manage"] },
  { area: "area_messaging", permissions: ["broadcast-index", "broadcast-manage", "broadcast-send", "broadcast-send-otp"] },
  { area: "area_tokens", permissions: ["token-manage"] },
  { area: "area_administration", permissions: ["member-manage", "team-manage", "account-manage"] }
]
