/**
 * The pages Wasl's mails link to, open whether signed in or not: an invitation, a new e-mail's
 * confirmation, an e-mail's verification. Loaded when first opened, so the first load stays small.
 */
import type { ReactNode } from "react"
import { match } from "../router"
import { lazyPage } from "../ui/lazyPage"

const AcceptInvitationPage = lazyPage(() => import("./AcceptInvitationPage").then((m) => m.AcceptInvitationPage))
const EmailLinkPage = lazyPage(() => import("./EmailLinkPage").then((m) => m.EmailLinkPage))

/** The page of a mailed link at `path`, or undefined when the path is none of them. */
export const linkPage = (path: string, search: string): ReactNode | undefined => {
  const invitation = match("/invitations/:token", path)
  if (invitation) return <AcceptInvitationPage token={invitation["token"]!} />
  if (path === "/email/confirm") return <EmailLinkPage key="confirm" purpose="confirm" search={search} />
  if (path === "/email/verify") return <EmailLinkPage key="verify" purpose="verify" search={search} />
  return undefined
}
