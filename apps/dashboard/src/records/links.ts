/**
 * Which records link to which, and the endpoint and body of each attach and detach: contacts and
 * tickets to deals, contacts and deals to tickets.
 */
import type { Kind } from "../api/client"
import type { paths } from "../api/schema"

type LinkPath = Extract<keyof paths, `/api/${"deals" | "tickets"}/{id}/${string}`>

export interface LinkSpec {
  readonly target: Kind
  readonly attach: LinkPath
  readonly attachBody: (id: string) => Record<string, unknown>
  readonly detach: LinkPath
  readonly detachBody: (id: string) => Record<string, unknown>
}

export const LINKS: Partial<Record<Kind, ReadonlyArray<LinkSpec>>> = {
  deals: [
    {
      target: "contacts",
      attach: "/api/deals/{id}/attach-contacts",
      attachBody: (id) => ({ contact_ids: [id] }),
      detach: "/api/deals/{id}/detach-contact",
      detachBody: (id) => ({ contact_id: id })
    },
    {
      target: "tickets",
      attach: "/api/deals/{id}/attach-tickets",
      attachBody: (id) => ({ ticket_ids: [id] }),
      detach: "/api/deals/{id}/detach-ticket",
      detachBody: (id) => ({ ticket_id: id })
    }
  ],
  tickets: [
    {
      target: "contacts",
      attach: "/api/tickets/{id}/attach-contacts",
      attachBody: (id) => ({ contact_ids: [id] }),
      detach: "/api/tickets/{id}/detach-contact",
      detachBody: (id) => ({ contact_id: id })
    },
    {
      target: "deals",
      attach: "/api/tickets/{id}/attach-deals",
      attachBody: (id) => ({ deal_ids: [id] }),
      detach: "/api/tickets/{id}/detach-deal",
      detachBody: (id) => ({ deal_id: id })
    }
  ]
}
