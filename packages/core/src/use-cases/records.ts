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
import { Effect, Option, Schema } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../auth/permission.ts"
import type { Principal } from "../auth/principal.ts"
import { NotFound } from "../errors.ts"
import { Outbox } from "../events/outbox.ts"
import { eventName } from "../records/object-kind.ts"
import type { PropertyDefinition } from "../records/property-definition.ts"
import { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository, type RecordWithDerived } from "../records/record-repository.ts"
import { type RecordJson, recordJson } from "../records/record-shape.ts"
import { validateRecordCreate, validateRecordUpdate } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId, RecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"

const isRecordId = Schema.is(RecordId)

const customOf = (accountId: number, kind: ObjectKind) =>
  PropertyRepository.use((repo) => repo.list(accountId, kind))

const shapeOf = (kind: ObjectKind, found: RecordWithDerived, custom: ReadonlyArray<PropertyDefinition>): RecordJson =>
  recordJson(kind, found.record, custom, found.derived)

const orNotFound = <A>(option: Option.Option<A>) =>
  Option.match(option, { onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })

/** The stored record of the account and kind, or NotFound (a malformed id included). */
const findRecord = (accountId: number, kind: ObjectKind, id: string, custom: ReadonlyArray<PropertyDefinition>) =>
  isRecordId(id)
    ? Effect.flatMap(RecordRepository.use((repo) => repo.get({ accountId, kind, id, custom })), orNotFound)
    : Effect.fail(new NotFound())

const appendEvent = (accountId: number, kind: ObjectKind, action: "created" | "updated" | "deleted", payload: RecordJson) =>
  Outbox.use((outbox) => outbox.append([{ accountId, name: eventName(kind, "record", action), payload }]))

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
    yield* appendEvent(principal.accountId, kind, "created", json)
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
    yield* appendEvent(principal.accountId, kind, "updated", json)
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
    yield* appendEvent(principal.accountId, kind, "deleted", json)
    return json
  }))
})

/** The services the record use-cases need (for layer wiring). */
export type RecordUseCaseServices =
  | RecordRepository
  | PropertyRepository
  | Outbox
  | Transactor
  | SecureRandom.SecureRandom
