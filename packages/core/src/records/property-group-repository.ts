/**
 * The account's custom property groups, per object kind.
 *
 * Built-in groups are not stored (builtin-properties.ts `BUILTIN_GROUPS`; the use-cases merge
 * them in). Every method takes the account and the kind, and never sees a group of another account
 * or kind. `list` returns
 * the groups oldest first (`created_at`, then `_id`). How many properties a group holds is
 * `PropertyRepository.countInGroup`.
 */
import { Context, type Effect, type Option } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { ValidationFailed } from "../errors.ts"
import type { RecordId } from "../wire/record-id.ts"
import type { PropertyGroupDefinition } from "./property-definition.ts"

/** What the PropertyGroupRepository port offers (implement this to write an adapter). */
export interface PropertyGroupRepositoryShape {
  /** The account's custom groups of the kind, oldest first. */
  readonly list: (accountId: number, kind: ObjectKind) => Effect.Effect<ReadonlyArray<PropertyGroupDefinition>>
  /** The account's custom group of the kind with that id, or none. */
  readonly findById: (
    accountId: number,
    kind: ObjectKind,
    id: RecordId
  ) => Effect.Effect<Option.Option<PropertyGroupDefinition>>
  /**
   * Stores a new group. Fails on `internal_name` ("has already been taken") when the account
   * already has a group of that kind with that internal_name.
   */
  readonly insert: (group: PropertyGroupDefinition) => Effect.Effect<void, ValidationFailed>
  /** Replaces `name`, `desc` and `updated_at` (internal_name is kept). False when there is none. */
  readonly update: (group: PropertyGroupDefinition) => Effect.Effect<boolean>
  /** False when there is no such group. */
  readonly delete: (accountId: number, kind: ObjectKind, id: RecordId) => Effect.Effect<boolean>
  /** The internal_names of the account's custom groups of the kind. */
  readonly internalNames: (accountId: number, kind: ObjectKind) => Effect.Effect<ReadonlyArray<string>>
}

const PropertyGroupRepositoryBase: Context.ServiceClass<
  PropertyGroupRepository,
  "@wasl/core/PropertyGroupRepository",
  PropertyGroupRepositoryShape
> = Context.Service<PropertyGroupRepository, PropertyGroupRepositoryShape>()("@wasl/core/PropertyGroupRepository")

/**
 * The account's custom property groups, per object kind (each kind's built-in group is a
 * constant, never stored). Every method is per account and kind: a foreign id is not found.
 */
export class PropertyGroupRepository extends PropertyGroupRepositoryBase {}
