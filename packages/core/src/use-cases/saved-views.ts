/**
 * Saved views of the lists (`/api/{kind}/views`), and the list they open (`GET /api/{kind}?view=`).
 *
 * - Permissions: every endpoint needs the kind's list permission, `<kind>-index`, since a view is
 *   a way to list: reading views, making one (private or shared), and changing or deleting one's
 *   own. Changing or deleting another member's shared view needs `property-manage` as well (the
 *   permission of whoever shapes the account's records for everyone), else 403.
 * - A private view is its owner's alone: to any other member it does not exist (404).
 * - A view's list parameters are validated as the list validates its query (saved-view-body.ts).
 *   A view keeps them as given: if a property it filters on is deleted later, listing with it
 *   answers the list's 422 on `complex_filters` until the view is changed.
 */
import { DateTime, Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, forbidden, type NotFound, ValidationFailed } from "../errors.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { parseRecordListQuery } from "../records/list-query.ts"
import type { ObjectKind } from "../records/object-kind.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import { canSeeView, type SavedView, viewListQuery } from "../records/saved-view.ts"
import { validateSavedViewBody } from "../records/saved-view-body.ts"
import { SavedViewRepository } from "../records/saved-view-repository.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { customOf, orNotFound } from "./record-lookup.ts"

/** The services the saved-view use-cases need. */
export type SavedViewServices = SavedViewRepository | PropertyRepository | SecureRandom.SecureRandom

/** The list query's key naming the view a list applies. */
export const VIEW_QUERY_KEY = "view"

/** The view of the kind the member sees, or none (another member's private one, another account's, or no such view). */
export const findVisibleView = (
  accountId: number,
  userId: number,
  kind: ObjectKind,
  id: string
): Effect.Effect<Option.Option<SavedView>, never, SavedViewRepository> =>
  Effect.map(
    SavedViewRepository.use((repo) => repo.find(accountId, kind, id)),
    Option.filter((view) => canSeeView(view, userId))
  )

const visibleOrNotFound = (principal: Principal, kind: ObjectKind, id: string) =>
  Effect.flatMap(findVisibleView(principal.accountId, principal.userId, kind, id), orNotFound)

/** A view the principal may change: their own, or a shared one when they hold `property-manage`. */
const changeable = (principal: Principal, kind: ObjectKind, id: string) =>
  Effect.gen(function*() {
    const view = yield* visibleOrNotFound(principal, kind, id)
    if (view.user_id !== principal.userId) {
      yield* Effect.mapError(authorize(principal, "property-manage"), () => forbidden())
    }
    return view
  })

/** `GET /api/{kind}/views`: the views of the kind the caller sees, oldest first. Needs `<kind>-index`. */
export const listViews: (
  principal: Principal,
  kind: ObjectKind
) => Effect.Effect<ReadonlyArray<SavedView>, Forbidden, SavedViewRepository> = Effect.fn("listViews")(
  function*(principal: Principal, kind: ObjectKind) {
    yield* authorize(principal, `${kind}-index`)
    return yield* SavedViewRepository.use((repo) => repo.listVisible(principal.accountId, kind, principal.userId))
  }
)

/** `GET /api/{kind}/views/{_id}`: one view the caller sees ({@link NotFound} otherwise). Needs `<kind>-index`. */
export const getView: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<SavedView, Forbidden | NotFound, SavedViewRepository> = Effect.fn("getView")(
  function*(principal: Principal, kind: ObjectKind, id: string) {
    yield* authorize(principal, `${kind}-index`)
    return yield* visibleOrNotFound(principal, kind, id)
  }
)

/**
 * `POST /api/{kind}/views`: saves a view owned by the caller. Needs `<kind>-index`. Fails
 * {@link ValidationFailed} with the list query's messages for its list parameters.
 */
export const createView: (
  principal: Principal,
  kind: ObjectKind,
  body: unknown
) => Effect.Effect<SavedView, Forbidden | ValidationFailed, SavedViewServices> = Effect.fn("createView")(
  function*(principal: Principal, kind: ObjectKind, body: unknown) {
    yield* authorize(principal, `${kind}-index`)
    const input = yield* validateSavedViewBody(kind, body, yield* customOf(principal.accountId, kind), undefined)
    const now = yield* DateTime.now
    const view: SavedView = {
      _id: yield* newRecordId,
      kind,
      account_id: principal.accountId,
      user_id: principal.userId,
      ...input,
      created_at: now,
      updated_at: now
    }
    yield* SavedViewRepository.use((repo) => repo.save(view))
    return view
  }
)

/**
 * `PUT /api/{kind}/views/{_id}`: changes the keys the body gives (the others kept). Needs
 * `<kind>-index`, and `property-manage` for another member's shared view ({@link Forbidden}).
 */
export const updateView: (
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) => Effect.Effect<SavedView, Forbidden | NotFound | ValidationFailed, SavedViewServices> = Effect.fn("updateView")(
  function*(principal: Principal, kind: ObjectKind, id: string, body: unknown) {
    yield* authorize(principal, `${kind}-index`)
    const current = yield* changeable(principal, kind, id)
    const input = yield* validateSavedViewBody(kind, body, yield* customOf(principal.accountId, kind), current)
    const view: SavedView = { ...current, ...input, updated_at: yield* DateTime.now }
    yield* SavedViewRepository.use((repo) => repo.save(view))
    return view
  }
)

/**
 * `DELETE /api/{kind}/views/{_id}`: deletes the view; the members who chose it have no view of the
 * kind chosen any more. Permissions as {@link updateView}.
 */
export const deleteView: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<void, Forbidden | NotFound, SavedViewRepository> = Effect.fn("deleteView")(
  function*(principal: Principal, kind: ObjectKind, id: string) {
    yield* authorize(principal, `${kind}-index`)
    yield* changeable(principal, kind, id)
    yield* SavedViewRepository.use((repo) => repo.delete(principal.accountId, kind, id))
  }
)

/**
 * A list query with the view it names (`view=<_id>`) applied: the view's parameters, then the
 * query's own keys over them (a key the query carries, even empty, wins). A view the caller does
 * not see is a 422 on `view`, reported with the query's other bad keys.
 */
export const applyView = (
  principal: Principal,
  kind: ObjectKind,
  query: ListQueryInput,
  custom: ReadonlyArray<PropertyDefinition>
): Effect.Effect<ListQueryInput, ValidationFailed, SavedViewRepository> =>
  Effect.gen(function*() {
    if (!Object.hasOwn(query, VIEW_QUERY_KEY)) return query
    const { [VIEW_QUERY_KEY]: id, ...own } = query
    if (id === null || id === undefined) return own
    const view = typeof id === "string"
      ? yield* findVisibleView(principal.accountId, principal.userId, kind, id)
      : Option.none()
    if (Option.isSome(view)) return { ...viewListQuery(view.value), ...own }
    const errors: Record<string, ReadonlyArray<string>> = { [VIEW_QUERY_KEY]: [LaravelMessage.selectedInvalid(VIEW_QUERY_KEY)] }
    yield* Effect.catchTag(parseRecordListQuery(kind, own, custom), "ValidationFailed", (refused) =>
      Effect.sync(() => Object.assign(errors, refused.errors)))
    return yield* new ValidationFailed({ errors })
  })
