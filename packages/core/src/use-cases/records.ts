/**
 * Records CRUD of the six object kinds (decisions §3, spec §6.2–6.3).
 *
 * - Permissions: `<kind>-create`, `<kind>-show`, `<kind>-update`, `<kind>-delete` (decisions §2).
 * - Bodies are validated against the kind's built-ins and the account's custom properties of the
 *   kind (value-validation.ts): 422 per key.
 * - An id of another account, of no record, or not of the record-id form is 404. An update or a
 *   delete of a missing record is 404 before its body is looked at.
 * - Every write runs in one transaction with its outbox event (`<kind>-created`, `-updated`,
 *   `-deleted`; payload: the record's REST shape, `recordJson`; the deleted event carries the record
 *   as it was), so a failed write leaves no event (ARCHITECTURE rule 7). Deleting a record removes
 *   its links and notes; only the record's event fires.
 *
 * Each use-case returns the record's REST shape (for a delete: as it was); the HTTP layer wraps it
 * (`{ data, message }`, `{ data: [], message }` for a delete).
 */
import { Effect } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../auth/permission.ts"
import type { Principal } from "../auth/principal.ts"
import { NotFound } from "../errors.ts"
import type { Outbox } from "../events/outbox.ts"
import { parseRecordListQuery } from "../records/list-query.ts"
import type { Page } from "../records/pagination.ts"
import type { PropertyRepository } from "../records/property-repository.ts"
import type { QueryInput } from "../records/query-string.ts"
import { RecordRepository } from "../records/record-repository.ts"
import type { RecordJson } from "../records/record-shape.ts"
import { validateRecordCreate, validateRecordUpdate } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { appendEvent, customOf, findRecord, orNotFound, shapeOf } from "./record-lookup.ts"

/** `POST /api/{kind}`: validates the body, stores the record and its created event. */
export const createRecord = Effect.fn("createRecord")(function*(principal: Principal, kind: ObjectKind, body: unknown) {
  yield* authorize(principal, `${kind}-create`)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const custom = yield* customOf(principal.accountId, kind)
    const values = yield* validateRecordCreate(kind, body, custom)
    const id = yield* newRecordId
    const stored = yield* (yield* RecordRepository).insert({ accountId: principal.accountId, kind, id, custom, values })
    const json = shapeOf(kind, stored, custom)
    yield* appendEvent(principal.accountId, kind, "record", "created", json)
    return json
  }))
})

/** `GET /api/{kind}/{_id}`: the record; NotFound for an id the account has no record of. */
export const getRecord = Effect.fn("getRecord")(function*(principal: Principal, kind: ObjectKind, id: string) {
  yield* authorize(principal, `${kind}-show`)
  const custom = yield* customOf(principal.accountId, kind)
  return shapeOf(kind, yield* findRecord(principal.accountId, kind, id, custom), custom)
})

/** `PUT /api/{kind}/{_id}` (partial): validates the body, applies it, with the updated event. */
export const updateRecord = Effect.fn("updateRecord")(function*(
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) {
  yield* authorize(principal, `${kind}-update`)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const custom = yield* customOf(principal.accountId, kind)
    yield* findRecord(principal.accountId, kind, id, custom)
    const patch = yield* validateRecordUpdate(kind, body, custom)
    const updated = yield* orNotFound(
      yield* (yield* RecordRepository).update({ accountId: principal.accountId, kind, id, custom, patch })
    )
    const json = shapeOf(kind, updated, custom)
    yield* appendEvent(principal.accountId, kind, "record", "updated", json)
    return json
  }))
})

/** `DELETE /api/{kind}/{_id}`: removes the record (its links and notes), with its deleted event. */
export const deleteRecord = Effect.fn("deleteRecord")(function*(principal: Principal, kind: ObjectKind, id: string) {
  yield* authorize(principal, `${kind}-delete`)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const custom = yield* customOf(principal.accountId, kind)
    const current = yield* findRecord(principal.accountId, kind, id, custom)
    if (!(yield* (yield* RecordRepository).delete({ accountId: principal.accountId, kind, id }))) {
      return yield* new NotFound()
    }
    const json = shapeOf(kind, current, custom)
    yield* appendEvent(principal.accountId, kind, "record", "deleted", json)
    return json
  }))
})

/** `GET /api/{kind}`: validates the query (one 422 with every bad key) and reads the page. */
export const listRecords = Effect.fn("listRecords")(function*(principal: Principal, kind: ObjectKind, query: QueryInput) {
  yield* authorize(principal, `${kind}-index`)
  const custom = yield* customOf(principal.accountId, kind)
  const params = yield* parseRecordListQuery(kind, query, custom)
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
  | PropertyRepository
  | Outbox
  | Transactor
  | SecureRandom.SecureRandom
