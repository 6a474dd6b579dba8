/**
 * The values records hold for one custom property, as a change of that property needs them:
 * - a change of type or options is checked against them (a change the existing values cannot
 *   satisfy is refused with a 422; `convertValuesForDefinition` in value-validation.ts),
 *   and once accepted, each value is rewritten into the new definition's form (and re-indexed for
 *   filters and ordering);
 * - a deleted property's values leave the records.
 * The records store owns the values; both run inside the property use-case's transaction.
 */
import { Context, type Effect } from "effect"
import type { ObjectKind } from "./object-kind.ts"
import type { RecordId } from "../wire/record-id.ts"
import type { PropertyDefinition } from "./property-definition.ts"
import type { StoredValue } from "./value-validation.ts"

/** A distinct stored value and what it becomes (null: the value is cleared). */
export interface ValueConversion {
  /** A value records hold now. */
  readonly from: StoredValue
  /** What it becomes; null clears it. */
  readonly to: StoredValue | null
}

/** What the PropertyValueStore port offers (implement this to write an adapter). */
export interface PropertyValueStoreShape {
  /** The distinct values the account's records of the kind hold for the custom property (no "no value"s). */
  readonly valuesOf: (accountId: number, kind: ObjectKind, propertyId: RecordId) => Effect.Effect<ReadonlyArray<StoredValue>>
  /** Rewrites the property's values as `conversions` say, then re-indexes them under `property`'s (new) type. */
  readonly convert: (
    accountId: number,
    property: PropertyDefinition,
    conversions: ReadonlyArray<ValueConversion>
  ) => Effect.Effect<void>
  /** Removes the property's values from every record of the account. */
  readonly drop: (accountId: number, property: PropertyDefinition) => Effect.Effect<void>
}

const PropertyValueStoreBase: Context.ServiceClass<
  PropertyValueStore,
  "@wasl/core/PropertyValueStore",
  PropertyValueStoreShape
> = Context.Service<PropertyValueStore, PropertyValueStoreShape>()("@wasl/core/PropertyValueStore")

/**
 * The values records hold for one custom property: read them, convert them when the property's
 * type or options change, drop them when it is deleted.
 */
export class PropertyValueStore extends PropertyValueStoreBase {}
