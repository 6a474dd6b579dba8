/**
 * Custom property definitions, per object kind and account.
 *
 * - Reads (`listProperties`, `getProperty`) need `<kind>-index` or `property-manage`: whoever may
 *   list the kind's records may know its properties, and whoever manages properties may read them.
 *   Writes need `property-manage`.
 * - A kind's properties are its built-ins (builtin-properties.ts, `account_id` null, never
 *   stored) followed by the account's custom ones, oldest first. Built-ins can be read but not
 *   changed or deleted: 403.
 * - An id of another account, of another kind, or not of the record-id form is 404.
 * - Every write runs in one transaction with its outbox event (`<kind>-property-created`,
 *   `-updated`, `-deleted`; payload: the definition in its REST shape, `encodeProperty`), so a
 *   failed write leaves no event and a committed one always has its event.
 * - A change of type or options is checked against the values records hold for the property
 *   (`PropertyValueStore`, `convertValuesForDefinition`): 422 on `type` (or `enum`) when one does
 *   not fit. The records store implements that port; deleting the values of a deleted property and
 *   rewriting them after an accepted type change is its job too.
 */
import { DateTime, Effect, Option, Schema } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../records/object-kind.ts"
import { demand } from "../auth/caller-check.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, forbidden, NotFound, type ValidationFailed } from "../errors.ts"
import { Outbox } from "../events/outbox.ts"
import { BUILTIN_GROUPS, BUILTIN_PROPERTIES } from "../records/builtin-properties.ts"
import { validatePropertyCreate, validatePropertyUpdate } from "../records/definition-validation.ts"
import { eventName } from "../records/object-kind.ts"
import { PropertyGroupRepository } from "../records/property-group-repository.ts"
import { encodeProperty, type EnumOption, isBuiltinId, type PropertyDefinition } from "../records/property-definition.ts"
import { PropertyRepository } from "../records/property-repository.ts"
import { PropertyValueStore, type ValueConversion } from "../records/property-value-store.ts"
import { convertValuesForDefinition } from "../records/value-validation.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId, RecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"

/** The 403 message for a change to a built-in property. */
export const BUILTIN_PROPERTY_READ_ONLY = "Built-in properties cannot be changed or deleted."

const isRecordId = Schema.is(RecordId)

/** Reading a kind's properties or groups needs `<kind>-index` or `property-manage`: {@link Forbidden} otherwise. */
export const authorizePropertyRead = (principal: Principal, kind: ObjectKind): Effect.Effect<void, Forbidden> =>
  demand(principal, { _tag: "Permission", anyOf: [`${kind}-index`, "property-manage"] })

const findBuiltin = (kind: ObjectKind, id: string): PropertyDefinition | undefined =>
  isBuiltinId(id) ? BUILTIN_PROPERTIES[kind].find((p) => p._id === id) : undefined

/** The stored custom property, or NotFound (built-in ids are handled by the caller). */
const findCustom = (accountId: number, kind: ObjectKind, id: string) =>
  isRecordId(id)
    ? Effect.flatMap(
      PropertyRepository.use((repo) => repo.findById(accountId, kind, id)),
      Option.match({ onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })
    )
    : Effect.fail(new NotFound())

/** The `_id`s a property of the kind may be put in: the built-in group and the account's groups. */
const groupIdsOf = (accountId: number, kind: ObjectKind) =>
  Effect.map(
    PropertyGroupRepository.use((repo) => repo.list(accountId, kind)),
    (groups): ReadonlyArray<string> => [BUILTIN_GROUPS[kind]._id, ...groups.map((g) => g._id)]
  )

const appendEvent = (accountId: number, kind: ObjectKind, action: "created" | "updated" | "deleted", definition: PropertyDefinition) =>
  Outbox.use((outbox) =>
    outbox.append([{ accountId, name: eventName(kind, "property", action), payload: encodeProperty(definition) }])
  )

const withOptions = <A extends object>(base: A, options: ReadonlyArray<EnumOption> | null) =>
  options === null ? base : { ...base, enum: options }

const sameOptions = (a: ReadonlyArray<EnumOption> | undefined, b: ReadonlyArray<EnumOption> | undefined): boolean =>
  JSON.stringify((a ?? []).map((o) => o.internal_name)) === JSON.stringify((b ?? []).map((o) => o.internal_name))

/**
 * `GET /api/{kind}/properties`: the kind's properties, its built-ins first, then the account's
 * custom ones, oldest first. Needs `<kind>-index` or `property-manage` (else {@link Forbidden}).
 */
export const listProperties: (
  principal: Principal,
  kind: ObjectKind
) => Effect.Effect<
  ReadonlyArray<PropertyDefinition>,
  Forbidden,
  PropertyRepository
> = Effect.fn("listProperties")(function*(principal: Principal, kind: ObjectKind) {
  yield* authorizePropertyRead(principal, kind)
  const custom = yield* (yield* PropertyRepository).list(principal.accountId, kind)
  return [...BUILTIN_PROPERTIES[kind], ...custom] as ReadonlyArray<PropertyDefinition>
})

/**
 * `GET /api/{kind}/properties/{_id}`: one of the kind's properties, built-in or custom. Needs
 * `<kind>-index` or `property-manage` (else {@link Forbidden}). Fails {@link NotFound} for an id
 * that is not one of the kind's properties in the account.
 */
export const getProperty: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<
  PropertyDefinition,
  Forbidden | NotFound,
  PropertyRepository
> = Effect.fn("getProperty")(function*(principal: Principal, kind: ObjectKind, id: string) {
  yield* authorizePropertyRead(principal, kind)
  return findBuiltin(kind, id) ?? (yield* findCustom(principal.accountId, kind, id))
})

/**
 * `POST /api/{kind}/properties`: a custom property of the kind (`type`, `name`, `desc`,
 * `internal_name` unique in the kind, `group_id`, `enum` options of a select), with its
 * `<kind>-property-created` event in the same transaction. Needs `property-manage`. Answers the
 * definition. Fails {@link Forbidden} without the permission, {@link ValidationFailed} for an
 * invalid body.
 */
export const createProperty: (
  principal: Principal,
  kind: ObjectKind,
  body: unknown
) => Effect.Effect<
  PropertyDefinition,
  Forbidden | ValidationFailed,
  Outbox | PropertyGroupRepository | PropertyRepository | SecureRandom.SecureRandom | Transactor
> = Effect.fn("createProperty")(function*(principal: Principal, kind: ObjectKind, body: unknown) {
  yield* authorize(principal, "property-manage")
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const properties = yield* PropertyRepository
    const takenInternalNames = yield* properties.internalNames(principal.accountId, kind)
    const groupIds = yield* groupIdsOf(principal.accountId, kind)
    const input = yield* validatePropertyCreate(body, { kind, takenInternalNames, groupIds })
    const id = yield* newRecordId
    const now = yield* DateTime.now
    const definition: PropertyDefinition = withOptions({
      _id: id,
      type: input.type,
      name: input.name,
      desc: input.desc,
      internal_name: input.internal_name,
      group_id: input.group_id,
      account_id: principal.accountId,
      made_by: principal.userId,
      created_at: now,
      updated_at: now,
      kind,
      builtin: false,
      readOnly: false,
      required: false
    }, input.enum)
    yield* properties.insert(definition)
    yield* appendEvent(principal.accountId, kind, "created", definition)
    return definition
  }))
})

/**
 * `PUT /api/{kind}/properties/{_id}`: changes a custom property (its internal_name is kept), with
 * its `<kind>-property-updated` event in the same transaction. A change of type or options is
 * checked against the values records hold, which are converted when it is accepted. Needs
 * `property-manage`. Answers the definition. Fails {@link Forbidden} without the permission or for
 * a built-in property, {@link NotFound} for an id the account has no custom property of,
 * {@link ValidationFailed} for an invalid body or values that do not fit the new type (on `type`
 * or `enum`).
 */
export const updateProperty: (
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) => Effect.Effect<
  PropertyDefinition,
  Forbidden | NotFound | ValidationFailed,
  Outbox | PropertyGroupRepository | PropertyRepository | PropertyValueStore | Transactor
> = Effect.fn("updateProperty")(function*(
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) {
  yield* authorize(principal, "property-manage")
  if (findBuiltin(kind, id) !== undefined) return yield* Effect.fail(forbidden(BUILTIN_PROPERTY_READ_ONLY))
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const properties = yield* PropertyRepository
    const current = yield* findCustom(principal.accountId, kind, id)
    const groupIds = yield* groupIdsOf(principal.accountId, kind)
    const input = yield* validatePropertyUpdate(body, current, { groupIds })
    const { enum: _previousOptions, ...kept } = current
    const next: PropertyDefinition = withOptions({
      ...kept,
      type: input.type,
      name: input.name,
      desc: input.desc,
      group_id: input.group_id,
      updated_at: yield* DateTime.now
    }, input.enum)
    const store = yield* PropertyValueStore
    let conversions: ReadonlyArray<ValueConversion> = []
    if (current.type !== next.type || !sameOptions(current.enum, next.enum)) {
      const values = yield* store.valuesOf(principal.accountId, kind, current._id)
      const converted = values.length > 0 ? yield* convertValuesForDefinition(current, next, values) : []
      conversions = values.map((from, i) => ({ from, to: converted[i] ?? null }))
    }
    if (!(yield* properties.update(next))) return yield* new NotFound()
    if (current.type !== next.type || conversions.length > 0) yield* store.convert(principal.accountId, next, conversions)
    yield* appendEvent(principal.accountId, kind, "updated", next)
    return next
  }))
})

/**
 * `DELETE /api/{kind}/properties/{_id}`: removes a custom property and the values records hold for
 * it, with its `<kind>-property-deleted` event in the same transaction. Needs `property-manage`.
 * Answers the definition as it was. Fails {@link Forbidden} without the permission or for a
 * built-in property, {@link NotFound} for an id the account has no custom property of.
 */
export const deleteProperty: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<
  PropertyDefinition,
  Forbidden | NotFound,
  Outbox | PropertyRepository | PropertyValueStore | Transactor
> = Effect.fn("deleteProperty")(function*(principal: Principal, kind: ObjectKind, id: string) {
  yield* authorize(principal, "property-manage")
  if (findBuiltin(kind, id) !== undefined) return yield* Effect.fail(forbidden(BUILTIN_PROPERTY_READ_ONLY))
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const current = yield* findCustom(principal.accountId, kind, id)
    if (!(yield* (yield* PropertyRepository).delete(principal.accountId, kind, current._id))) {
      return yield* new NotFound()
    }
    yield* (yield* PropertyValueStore).drop(principal.accountId, current)
    yield* appendEvent(principal.accountId, kind, "deleted", current)
    return current
  }))
})

/** The services the property use-cases need besides the repositories (for layer wiring). */
export type PropertyUseCaseServices =
  | PropertyRepository
  | PropertyGroupRepository
  | PropertyValueStore
  | Outbox
  | Transactor
  | SecureRandom.SecureRandom
