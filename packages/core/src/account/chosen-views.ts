/**
 * A member's chosen views: for each of contacts, deals and tickets, the saved view
 * (records/saved-view.ts) the console opens the list on, per account (`contacts_view_id`,
 * `deals_view_id`, `tickets_view_id` on `GET /api/me`). A choice reads as null once its view is
 * deleted or is no longer one the member can see.
 */

/** The kinds a member chooses a view of, each with the key `GET /api/me` and `PUT /api/me` name it by. */
export const VIEW_CHOICE_KEYS = {
  contact: "contacts_view_id",
  deal: "deals_view_id",
  ticket: "tickets_view_id"
} as const

/** A kind a member chooses a view of. */
export type ViewChoiceKind = keyof typeof VIEW_CHOICE_KEYS

/** The kinds a member chooses a view of, as a list. */
export const VIEW_CHOICE_KINDS: ReadonlyArray<ViewChoiceKind> = ["contact", "deal", "ticket"]

/** A member's chosen views: the id of each kind's, or null. */
export type ChosenViews = { readonly [K in ViewChoiceKind]: string | null }

/** No view chosen. */
export const NO_CHOSEN_VIEWS: ChosenViews = { contact: null, deal: null, ticket: null }
