/** The menu's entries, each with the permission it needs: a member sees only what they may open. */
import type { MessageKey } from "../i18n/messages"
import { KINDS } from "../records/kinds"
import { kindPermission, type Permission } from "../session/permissions"

export interface MenuEntry {
  readonly to: string
  readonly label: MessageKey
  /** What the member must hold to see it; none for the member's own pages. */
  readonly needs?: Permission
}

export const MENU: ReadonlyArray<MenuEntry> = [
  { to: "/inbox", label: "inbox", needs: "contact-show" },
  ...KINDS.map((kind): MenuEntry => ({ to: `/${kind}`, label: `kind_${kind}`, needs: kindPermission(kind, "index") })),
  { to: "/templates", label: "templates", needs: "broadcast-index" },
  { to: "/campaigns", label: "campaigns", needs: "broadcast-index" },
  { to: "/numbers", label: "sendingNumbers", needs: "broadcast-index" },
  { to: "/webhooks", label: "webhooks", needs: "webhook-index" },
  { to: "/notifications", label: "notifications" },
  { to: "/tokens", label: "tokens", needs: "token-manage" },
  { to: "/members", label: "members", needs: "member-manage" },
  { to: "/teams", label: "teams", needs: "team-manage" },
  { to: "/account", label: "accountSettings", needs: "account-manage" },
  { to: "/accounts", label: "accounts" },
  { to: "/profile", label: "profile" }
]

/** Where signing in lands: the deals, or else the first entry the member may open (their profile at least). */
export const startPage = (may: (permission: Permission | undefined) => boolean): string =>
  (MENU.find((entry) => entry.to === "/deals" && may(entry.needs)) ?? MENU.find((entry) => may(entry.needs)))?.to ?? "/profile"
