/**
 * Property groups, per object kind and account.
 *
 * - Reads need `<kind>-index` or `property-manage` (as properties); writes `property-manage`.
 * - A kind's groups are its built-in group (`account_id` null, never stored; 403 on any change)
 *   followed by the account's custom groups, oldest first.
 * - A new group's internal_name is derived from its name (`deriveGroupInternalName`: snake_case of
 *   `name.en`, else `name.ar`, made unique among the kind's groups, built-in included, with a
 *   numeric suffix); an update keeps it.
 * - A group that still holds properties cannot be deleted: 422 on `_id`.
 * - Every write runs in one transaction with its outbox event (`<kind>-property-group-created`,
 *   `-updated`, `-deleted`; payload: `encodePropertyGroup` of the group).
 */
import { DateTime, Effect, Option, Schema } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { ObjectKind } from "../records/object-kind.ts"
import type { Principal } from "../auth/principal.ts"
import { type Forbidden, forbidden, invalid, NotFound, type ValidationFailed } from "../errors.ts"
import { Outbox } from "../events/outbox.ts"
import { BUILTIN_GROUP_NAMES, BUILTIN_GROUPS } from "../records/builtin-properties.ts"
import { deriveGroupInternalName, validateGroupBody } from "../records/definition-validation.ts"
import { eventName } from "../records/object-kind.ts"
import { encodePropertyGroup, type PropertyGroupDefinition } from "../records/property-definition.ts"
import { PropertyGroupRepository } from "../records/property-group-repository.ts"
import { PropertyRepository } from "../records/property-repository.ts"
import { Transactor } from "../transactor.ts"
import { newRecordId, RecordId } from "../wire/record-id.ts"
import { authorize } from "./authenticate.ts"
import { authorizePropertyRead } from "./properties.ts"

/** The 403 message for a change to a built-in group. */
export const BUILTIN_GROUP_READ_ONLY = "Built-in property groups cannot be changed or deleted."

/** The 422 message (on `_id`) for deleting a group that still holds properties. */
export const GROUP_NOT_EMPTY = "The group cannot be deleted while it holds properties."

const isRecordId = Schema.is(RecordId)

const isBuiltinGroup = (kind: ObjectKind, id: string): boolean => BUILTIN_GROUPS[kind]._id === id

const findCustom = (accountId: number, kind: ObjectKind, id: string) =>
  isRecordId(id)
    ? Effect.flatMap(
      PropertyGroupRepository.use((repo) => repo.findById(accountId, kind, id)),
      Option.match({ onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })
    )
    : Effect.fail(new NotFound())

const appendEvent = (
  accountId: number,
  kind: ObjectKind,
  action: "created" | "updated" | "deleted",
  group: PropertyGroupDefinition
) =>
  Outbox.use((outbox) =>
    outbox.append([{ accountId, name: eventName(kind, "property_group", action), payload: encodePropertyGroup(group) }])
  )

/**
 * How many times a create re-derives the internal_name when a concurrent create took it first.
 * Each refusal means a competing create committed that name (PostgreSQL's insert waits for it),
 * and the re-read skips every name committed since: a burst of N same-name creates needs at most
 * N attempts, and in-flight transactions are bounded by the connection pool (10 by default).
 */
const INTERNAL_NAME_ATTEMPTS = 32

/**
 * `GET /api/{kind}/properties/groups`: the kind's groups, the built-in one first, then the
 * account's, oldest first. Needs `<kind>-index` or `property-manage` (else {@link Forbidden}).
 */
export const listPropertyGroups: (
  principal: Principal,
  kind: ObjectKind
) => Effect.Effect<ReadonlyArray<PropertyGroupDefinition>, Forbidden, PropertyGroupRepository> = Effect.fn(
  "listPropertyGroups"
)(function*(principal: Principal, kind: ObjectKind) {
  yield* authorizePropertyRead(principal, kind)
  const custom = yield* (yield* PropertyGroupRepository).list(principal.accountId, kind)
  return [BUILTIN_GROUPS[kind], ...custom] as ReadonlyArray<PropertyGroupDefinition>
})

/**
 * `GET /api/{kind}/properties/groups/{_id}`: one of the kind's groups, built-in or custom. Needs
 * `<kind>-index` or `property-manage` (else {@link Forbidden}). Fails {@link NotFound} for an id
 * that is not one of the kind's groups in the account.
 */
export const getPropertyGroup: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<PropertyGroupDefinition, Forbidden | NotFound, PropertyGroupRepository> = Effect.fn(
  "getPropertyGroup"
)(function*(principal: Principal, kind: ObjectKind, id: string) {
  yield* authorizePropertyRead(principal, kind)
  return isBuiltinGroup(kind, id) ? BUILTIN_GROUPS[kind] : yield* findCustom(principal.accountId, kind, id)
})

/**
 * `POST /api/{kind}/properties/groups` `{ name, desc }`: a custom group of the kind, its
 * internal_name derived from its name (snake_case, made unique in the kind), with its
 * `<kind>-property-group-created` event in the same transaction. Needs `property-manage`. Answers
 * the group. Fails {@link Forbidden} without the permission, {@link ValidationFailed} for an
 * invalid body.
 */
export const createPropertyGroup: (
  principal: Principal,
  kind: ObjectKind,
  body: unknown
) => Effect.Effect<
  PropertyGroupDefinition,
  Forbidden | ValidationFailed,
  Outbox | PropertyGroupRepository | SecureRandom.SecureRandom | Transactor
> = Effect.fn("createPropertyGroup")(function*(
  principal: Principal,
  kind: ObjectKind,
  body: unknown
) {
  yield* authorize(principal, "property-manage")
  const input = yield* validateGroupBody(body)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const groups = yield* PropertyGroupRepository
    const id = yield* newRecordId
    const now = yield* DateTime.now
    // The insert refuses a name taken meanwhile (a concurrent create): read the names again (the
    // competitor has committed by then) and derive past them.
    let failure: ValidationFailed | undefined
    for (let attempt = 0; attempt < INTERNAL_NAME_ATTEMPTS; attempt++) {
      const taken = [BUILTIN_GROUP_NAMES[kind], ...(yield* groups.internalNames(principal.accountId, kind))]
      const group: PropertyGroupDefinition = {
        _id: id,
        name: input.name,
        desc: input.desc,
        internal_name: deriveGroupInternalName(input.name, taken),
        account_id: principal.accountId,
        made_by: principal.userId,
        created_at: now,
        updated_at: now,
        kind,
        builtin: false
      }
      const inserted = yield* Effect.result(groups.insert(group))
      if (inserted._tag === "Success") {
        yield* appendEvent(principal.accountId, kind, "created", group)
        return group
      }
      failure = inserted.failure
    }
    return yield* Effect.fail(failure!)
  }))
})

/**
 * `PUT /api/{kind}/properties/groups/{_id}` `{ name, desc }`: renames a custom group (its
 * internal_name is kept), with its `<kind>-property-group-updated` event in the same transaction.
 * Needs `property-manage`. Answers the group. Fails {@link Forbidden} without the permission or
 * for the built-in group, {@link NotFound} for an id the account has no custom group of,
 * {@link ValidationFailed} for an invalid body.
 */
export const updatePropertyGroup: (
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) => Effect.Effect<
  PropertyGroupDefinition,
  Forbidden | NotFound | ValidationFailed,
  Outbox | PropertyGroupRepository | Transactor
> = Effect.fn("updatePropertyGroup")(function*(
  principal: Principal,
  kind: ObjectKind,
  id: string,
  body: unknown
) {
  yield* authorize(principal, "property-manage")
  if (isBuiltinGroup(kind, id)) return yield* Effect.fail(forbidden(BUILTIN_GROUP_READ_ONLY))
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const current = yield* findCustom(principal.accountId, kind, id)
    const input = yield* validateGroupBody(body)
    const next: PropertyGroupDefinition = { ...current, name: input.name, desc: input.desc, updated_at: yield* DateTime.now }
    if (!(yield* (yield* PropertyGroupRepository).update(next))) return yield* new NotFound()
    yield* appendEvent(principal.accountId, kind, "updated", next)
    return next
  }))
})

/**
 * `DELETE /api/{kind}/properties/groups/{_id}`: removes an empty custom group, with its
 * `<kind>-property-group-deleted` event in the same transaction. Needs `property-manage`. Answers
 * the group as it was. Fails {@link Forbidden} without the permission or for the built-in group,
 * {@link NotFound} for an id the account has no custom group of, {@link ValidationFailed} on `_id`
 * ({@link GROUP_NOT_EMPTY}) while the group holds properties.
 */
export const deletePropertyGroup: (
  principal: Principal,
  kind: ObjectKind,
  id: string
) => Effect.Effect<
  PropertyGroupDefinition,
  Forbidden | NotFound | ValidationFailed,
  Outbox | PropertyGroupRepository | PropertyRepository | Transactor
> = Effect.fn("deletePropertyGroup")(function*(
  principal: Principal,
  kind: ObjectKind,
  id: string
) {
  yield* authorize(principal, "property-manage")
  if (isBuiltinGroup(kind, id)) return yield* Effect.fail(forbidden(BUILTIN_GROUP_READ_ONLY))
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const current = yield* findCustom(principal.accountId, kind, id)
    const held = yield* (yield* PropertyRepository).countInGroup(principal.accountId, kind, current._id)
    if (held > 0) return yield* Effect.fail(invalid("_id", GROUP_NOT_EMPTY))
    if (!(yield* (yield* PropertyGroupRepository).delete(principal.accountId, kind, current._id))) {
      return yield* new NotFound()
    }
    yield* appendEvent(principal.accountId, kind, "deleted", current)
    return current
  }))
})
