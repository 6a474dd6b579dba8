/**
 * The account's custom property groups (spec §2.6, decisions §5), per object kind.
 *
 * Built-in groups are not stored (builtin-properties.ts `BUILTIN_GROUPS`; the use-cases merge
 * them in). Every method takes the account and the kind (ARCHITECTURE rule 8). `list` returns
 * the groups oldest first (`created_at`, then `_id`). How many properties a group holds is
 * `PropertyRepository.countInGroup`.
 */
import { Context, type Effect, type Option } from "effect"
import type { ObjectKind } from "../auth/permission.ts"
import type { ValidationFailed } from "../errors.ts"
import type { RecordId } from "../wire/record-id.ts"
import type { PropertyGroupDefinition } from "./property-definition.ts"

export class PropertyGroupRepository extends Context.Service<PropertyGroupRepository, {
  readonly list: (accountId: number, kind: ObjectKind) => Effect.Effect<ReadonlyArray<PropertyGroupDefinition>>
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
}>()("@wasl/core/PropertyGroupRepository") {}
