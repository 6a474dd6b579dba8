/**
 * Records CRUD of the six object kinds.
 *
 * - Permissions: `<kind>-create`, `<kind>-show`, `<kind>-update`, `<kind>-delete`, `<kind>-index`.
 * - Bodies are validated against the kind's built-ins and the account's custom properties of the
 *   kind (value-validation.ts): 422 per key.
 * - An id of another account, of no record, or not of the record-id form is 404. An update or a
 *   delete of a missing record is 404 before its body is looked at.
 * - Every write runs in one transaction with its outbox event (`<kind>-created`, `-updated`,
 *   `-deleted`; payload: the record's REST shape, `recordJson`; the deleted event carries the record
 *   as it was), so a failed write leaves no event. Deleting a record removes
 *   its links and notes; only the record's event fires.
 *
 * Each use-case returns the record's REST shape (for a delete: as it was); the HTTP layer wraps it
 * (`{ data, message }`, `{ data: [], message }` for a delete).
 */
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../records/object-kind.ts"
import type { Principal } from "../auth/principal.ts"
import type { Forbidden, NotFound, ValidationFailed } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import { parseRecordListQuery } from "../records/list-query.ts"
import type { Page } from "../records/pagination.ts"
import type { PipelineRepository } from "../records/pipeline-repository.ts"
import type { HistoryActor, PropertyHistoryRepository } from "../records/property-history-repository.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { ListQueryInput } from "../records/list-query-input.ts"
import { RecordRepository } from "../records/record-repository.ts"
import type { SavedViewRepository } from "../records/saved-view-repository.ts"
import type { RecordJson } from "../records/record-shape.ts"
import { validateRecordCreate, validateRecordUpdate } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import { authorize } from "./authenticate.ts"
import { customOf, findRecord, shapeOf } from "./record-lookup.ts"
import type { TrashRepository } from "../records/trash-repository.ts"
import { removeRecord, storeNewRecord, storeRecordPatch } from "./record-writes.ts"
import { applyView } from "./saved-views.ts"

/** Who writes a record through one API call: the caller. */
const apiActor = (principal: Principal): HistoryActor => ({ userId: principal.userId, source: "api" })

/**
 * `POST /api/{kind}`: creates a record of the kind from `body` (the JSON object of the request),
 * validated against the kind's built-in properties and the account's custom ones, and queues its
 * `<kind>-created` event in the same transaction. Needs `<kind>-create`.
 *
 * Answers the record's REST shape: its `properties` (`_id`, `account_id`, the property values,
 * derived ones included, and the timestamps), with a contact's `channels` and a deal's `contacts`.
 * Fails {@link Forbidden} without the permission, {@link ValidationFailed} with Laravel's messages
 * keyed by property (one entry per bad key) for an invalid body.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { authenticateToken, createRecord } from "@wasl/core"
 *
 * const addContact = (bearer: string) =>
 *   Effect.gen(function*() {
 *     const principal = yield* authenticateToken(bearer)
 *     const contact = yield* createRecord(principal, "contact", { firstname: "Jane", email: "jane@acme.test" })
 *     return contact.properties._id
 *   })
 * ```
 */
export const createRecord: (
  principal: Principal,
  kind: ObjectKind,
  body: unknown
) => Effect.Effect<
  RecordJson,
  Forbidden | ValidationFailed,
  | Outbox
  | PipelineRepository
  | PropertyHistoryRepository
  | PropertyRepository
  | RecordRepository
  | SecureRandom.SecureRandom
  | Transactor
> = Effect.fn("createRecord")(function*(principal: Principal, kind: ObjectKind, body: unknown) {
  yield* authorize(principal, `${kind}-create`)
  // Definitions and validation before the transaction: at READ COMMITTED a read inside it would
  // see no more than one before it (the transaction has written nothing yet), and out of it the
  // definitions can come from the adapters' cache.
  const custom = yield* customOf(principal.accountId, kind)
  const values = yield* validateRecordCreate(kind, body, custom)
  return yield* (yield* Transactor).transaction(storeNewRecord(principal.accountId, kind, custom, values, apiActor(principal)))
})

/**
 * `GET /api/{kind}/{_id}`: the record's REST shape. Needs `<kind>-show` (else {@link Forbidden}).
 * Fails {@link NotFound} for an id the account has no record of (another account's, or not of
 * the record-id form).
 */
export const getRecord: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<
  RecordJson,
  Forbidden | NotFound,
  PropertyRepository | RecordRepository
> = Effect.fn("getRecord")(function*(principal: Principal, kind: ObjectKind, id: string) {
  yield* authorize(principal, `${kind}-show`)
  const custom = yield* customOf(principal.accountId, kind)
  return shapeOf(kind, yield* findRecord(principal.accountId, kind, id, custom), custom)
})

/**
 * `PUT /api/{kind}/{_id}`: a partial update (keys absent from `body` are kept), validated like a
 * create, with the `<kind>-updated` event in the same transaction. Needs `<kind>-update`. Answers
 * the updated record's REST shape. Fails {@link Forbidden} without the permission,
 * {@link NotFound} for a record the account does not have (whatever the body),
 * {@link ValidationFailed} for an invalid body.
 */
export const updateRecord: (
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) => Effect.Effect<
  RecordJson,
  Forbidden | NotFound | ValidationFailed,
  | Outbox
  | PipelineRepository
  | PropertyHistoryRepository
  | PropertyRepository
  | RecordRepository
  | SecureRandom.SecureRandom
  | Transactor
> = Effect.fn("updateRecord")(function*(
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) {
  yield* authorize(principal, `${kind}-update`)
  // As in createRecord, the definitions and the validation come before the transaction. A record
  // that is not there answers 404 before a body's 422: looked up only when the body is refused
  // (else the update itself finds no row).
  const custom = yield* customOf(principal.accountId, kind)
  const patch = yield* validateRecordUpdate(kind, body, custom).pipe(
    Effect.catchTag("ValidationFailed", (refused) =>
      Effect.andThen(findRecord(principal.accountId, kind, id, custom), Effect.fail(refused)))
  )
  return yield* (yield* Transactor).transaction(storeRecordPatch(principal.accountId, kind, custom, id, patch, apiActor(principal)))
})

/**
 * `DELETE /api/{kind}/{_id}`: removes the record with its links and notes, and queues its
 * `<kind>-deleted` event (carrying the record as it was) in the same transaction. Needs
 * `<kind>-delete`. Answers the record's REST shape as it was. Fails {@link Forbidden} without the
 * permission, {@link NotFound} for a record the account does not have.
 */
export const deleteRecord: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<
  RecordJson,
  Forbidden | NotFound,
  Outbox | PropertyRepository | RecordRepository | Transactor | TrashRepository
> = Effect.fn("deleteRecord")(function*(principal: Principal, kind: ObjectKind, id: string) {
  yield* authorize(principal, `${kind}-delete`)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const custom = yield* customOf(principal.accountId, kind)
    const current = yield* findRecord(principal.accountId, kind, id, custom)
    return yield* removeRecord(principal.accountId, kind, custom, id, current, principal.userId)
  }))
})

/**
 * `GET /api/{kind}`: one page of the account's records of the kind. `query` holds the list's
 * parameters as the edge parsed them (bracket notation nested, e.g. `complex_filters[0][property]`
 * as `{ complex_filters: [{ property }] }`): `page`,
 * `per_page` (default 15, at most 100), `search` (in the kind's name property), `order` (a property
 * or a timestamp, default `created_at`), `direction` (`asc` or `desc`, default `desc`) and
 * `complex_filters`; `view`, a saved view's `_id`, lists with that view's parameters under the
 * query's own (saved-views.ts). Needs `<kind>-index`.
 *
 * Answers the page's records in their REST shape, the total over all pages, and the page and
 * per-page used. Fails {@link Forbidden} without the permission, {@link ValidationFailed} with an
 * entry for every bad key of the query at once.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { listRecords, type Principal } from "@wasl/core"
 *
 * // Deals above 100, largest first, 50 a page.
 * const bigDeals = (principal: Principal) =>
 *   listRecords(principal, "deal", {
 *     per_page: "50",
 *     order: "amount",
 *     direction: "desc",
 *     complex_filters: [{ property: "amount", operator: "gt", value: "100" }]
 *   }).pipe(Effect.map((page) => `${page.items.length} of ${page.total}`))
 * ```
 */
export const listRecords: (
  principal: Principal,
  kind: ObjectKind,
  query: ListQueryInput
) => Effect.Effect<
  Page<RecordJson>,
  Forbidden | ValidationFailed,
  PropertyRepository | RecordRepository | SavedViewRepository
> = Effect.fn(
  "listRecords"
)(function*(principal: Principal, kind: ObjectKind, query: ListQueryInput) {
  yield* authorize(principal, `${kind}-index`)
  const custom = yield* customOf(principal.accountId, kind)
  const params = yield* parseRecordListQuery(kind, yield* applyView(principal, kind, query, custom), custom)
  const result = yield* RecordRepository.use((repo) => repo.list({ accountId: principal.accountId, kind, custom, ...params }))
  return {
    items: result.rows.map((row) => shapeOf(kind, row, custom)),
    total: result.total,
    page: params.page,
    perPage: params.perPage
  } satisfies Page<RecordJson>
})

/** The services the record use-cases need (for layer wiring). */
export type RecordUseCaseServices =
  | RecordRepository
  | PipelineRepository
  | PropertyHistoryRepository
  | PropertyRepository
  | SavedViewRepository
  | Outbox
  | Transactor
  | SecureRandom.SecureRandom
