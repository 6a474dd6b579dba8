/**
 * The account's saved views of its lists, and each member's chosen view of contacts, deals and
 * tickets.
 *
 * Every method takes the account and never sees a view of another account. Which views a member
 * may see (shared ones and their own) the core decides (`canSeeView`), except in `listVisible` and
 * `chosen`, which apply that rule themselves so a store can filter as it reads.
 */
import { Context, type Effect, type Option } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { ChosenViews, ViewChoiceKind } from "../account/chosen-views.ts"
import type { SavedView } from "./saved-view.ts"

/** What the SavedViewRepository port offers (implement this to write an adapter). */
export interface SavedViewRepositoryShape {
  /** The views of the kind the member sees (shared ones and their own), oldest first (`created_at`, then `_id`). */
  readonly listVisible: (accountId: number, kind: ObjectKind, userId: number) => Effect.Effect<ReadonlyArray<SavedView>>
  /** The view of the kind with that id, whoever owns it. */
  readonly find: (accountId: number, kind: ObjectKind, id: string) => Effect.Effect<Option.Option<SavedView>>
  /**
   * Stores the view: a new one, or in place of the stored one with its `_id` (its owner and
   * `created_at` then kept).
   */
  readonly save: (view: SavedView) => Effect.Effect<void>
  /** Deletes the view and every member's choice of it; false when there was none. */
  readonly delete: (accountId: number, kind: ObjectKind, id: string) => Effect.Effect<boolean>
  /**
   * The member's chosen view of each kind: null where none is chosen, or the chosen one is gone
   * or is not one the member sees (another member's view made private).
   */
  readonly chosen: (accountId: number, userId: number) => Effect.Effect<ChosenViews>
  /**
   * Sets the member's chosen view of the kind (null: none). A view that is not stored (deleted in
   * the meantime) leaves no choice.
   */
  readonly choose: (accountId: number, userId: number, kind: ViewChoiceKind, viewId: string | null) => Effect.Effect<void>
}

const SavedViewRepositoryBase: Context.ServiceClass<
  SavedViewRepository,
  "@wasl/core/SavedViewRepository",
  SavedViewRepositoryShape
> = Context.Service<SavedViewRepository, SavedViewRepositoryShape>()("@wasl/core/SavedViewRepository")

/** The account's saved views and its members' chosen ones (a foreign id is not found). */
export class SavedViewRepository extends SavedViewRepositoryBase {}
