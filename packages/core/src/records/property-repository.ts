/**
 * The account's custom property definitions, per object kind.
 *
 * Built-ins are not stored: they are the constants of builtin-properties.ts, merged in by the
 * use-cases (use-cases/properties.ts). Every method takes the account and the kind, and never sees
 * a definition of another account or kind: a foreign id is simply not found.
 *
 * Stored definitions have `builtin`, `readOnly` and `required` false and a non-null `account_id`.
 * `list` returns them oldest first (`created_at`, then `_id`).
 */
import { Context, type Effect, type Option } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { ValidationFailed } from "../errors.ts"
import type { RecordId } from "../wire/record-id.ts"
import type { PropertyDefinition } from "./property-definition.ts"

/** What the PropertyRepository port offers (implement this to write an adapter). */
export interface PropertyRepositoryShape {
  /** The account's custom properties of the kind, oldest first. */
  readonly list: (accountId: number, kind: ObjectKind) => Effect.Effect<ReadonlyArray<PropertyDefinition>>
  /** The account's custom property of the kind with that id, or none. */
  readonly findById: (
    accountId: number,
    kind: ObjectKind,
    id: RecordId
  ) => Effect.Effect<Option.Option<PropertyDefinition>>
  /**
   * Stores a new definition (its `account_id` and `kind` say where). Fails on `internal_name`
   * ("has already been taken") when the account already has a property of that kind with that
   * internal_name (unique `(account_id, kind, internal_name)`).
   */
  readonly insert: (definition: PropertyDefinition) => Effect.Effect<void, ValidationFailed>
  /**
   * Replaces `type`, `name`, `desc`, `group_id`, `enum` and `updated_at` of the stored definition
   * with the same account, kind and `_id` (internal_name, made_by and created_at are kept). False
   * when there is none.
   */
  readonly update: (definition: PropertyDefinition) => Effect.Effect<boolean>
  /** False when there is no such definition. */
  readonly delete: (accountId: number, kind: ObjectKind, id: RecordId) => Effect.Effect<boolean>
  /** How many of the account's properties of the kind are in the group. */
  readonly countInGroup: (accountId: number, kind: ObjectKind, groupId: RecordId) => Effect.Effect<number>
  /** The internal_names of the account's custom properties of the kind. */
  readonly internalNames: (accountId: number, kind: ObjectKind) => Effect.Effect<ReadonlyArray<string>>
}

const PropertyRepositoryBase: Context.ServiceClass<
  PropertyRepository,
  "@wasl/core/PropertyRepository",
  PropertyRepositoryShape
> = Context.Service<PropertyRepository, PropertyRepositoryShape>()("@wasl/core/PropertyRepository")

/**
 * The account's custom property definitions, per object kind (built-ins are constants, never
 * stored). Every method is per account and kind: a foreign id is not found.
 */
export class PropertyRepository extends PropertyRepositoryBase {}
