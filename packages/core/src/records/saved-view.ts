/**
 * Saved views of a kind's list: a name, the list's search, order, direction and
 * `complex_filters`, the columns shown, and whether the whole account sees it (`shared`) or only
 * its owner.
 *
 * A view holds the list's parameters as a list request would send them, validated when saved
 * (saved-view-body.ts): `GET /api/{kind}?view=<_id>` lists with them, the request's own keys
 * taking precedence. The filters are kept in the JSON form a list's `complex_filters=` takes.
 *
 * A member may choose one view for each of contacts, deals and tickets, the list the console opens
 * on (account/chosen-views.ts).
 */
import type { DateTime } from "effect"
import { formatWireTimestamp } from "../wire/timestamp.ts"
import type { ListQueryInput } from "./list-query-input.ts"
import type { OrderDirection } from "./list-query.ts"
import type { ObjectKind } from "./object-kind.ts"

/** A saved view of an account's list of one kind. */
export interface SavedView {
  /** A record id. */
  readonly _id: string
  /** The kind whose list it shows. */
  readonly kind: ObjectKind
  /** The account. */
  readonly account_id: number
  /** The member who made it, its owner. */
  readonly user_id: number
  /** Its name, as the member gave it. */
  readonly name: string
  /** The list's search; null: none. */
  readonly search: string | null
  /** The property the list is ordered by (a synonym resolved); null: the list's default. */
  readonly order: string | null
  /** The order's direction; null: the list's default. */
  readonly direction: OrderDirection | null
  /** The filter in its JSON form (`encodeComplexFilters`); empty: none. */
  readonly complex_filters: ReadonlyArray<unknown>
  /** The properties shown as columns, in order; empty: the console's default columns. */
  readonly columns: ReadonlyArray<string>
  /** Seen by every member of the account; else by its owner only. */
  readonly shared: boolean
  /** When it was made. */
  readonly created_at: DateTime.Utc
  /** When it last changed. */
  readonly updated_at: DateTime.Utc
}

/** Whether the member `userId` sees the view: a shared one, or their own. */
export const canSeeView = (view: SavedView, userId: number): boolean => view.shared || view.user_id === userId

/** The list parameters a view stands for, as a list request would carry them (its unset keys absent). */
export const viewListQuery = (view: SavedView): ListQueryInput => ({
  ...(view.search === null ? {} : { search: view.search }),
  ...(view.order === null ? {} : { order: view.order }),
  ...(view.direction === null ? {} : { direction: view.direction }),
  ...(view.complex_filters.length === 0 ? {} : { complex_filters: JSON.stringify(view.complex_filters) })
})

/** The wire form of a view, as the views endpoints answer it: the view without its kind (the path names it), timestamps as wire text. */
export type SavedViewJson = Omit<SavedView, "kind" | "created_at" | "updated_at"> & {
  /** When it was made (a wire timestamp). */
  readonly created_at: string
  /** When it last changed (a wire timestamp). */
  readonly updated_at: string
}

/** A view's wire form. */
export const savedViewJson = (view: SavedView): SavedViewJson => ({
  _id: view._id,
  account_id: view.account_id,
  user_id: view.user_id,
  name: view.name,
  search: view.search,
  order: view.order,
  direction: view.direction,
  complex_filters: view.complex_filters,
  columns: view.columns,
  shared: view.shared,
  created_at: formatWireTimestamp(view.created_at),
  updated_at: formatWireTimestamp(view.updated_at)
})
