/**
 * The values records hold for one custom property: what a change of a property's type or
 * options is checked against (decisions §5: "A type change that existing values cannot satisfy →
 * 422"; `convertValuesForDefinition` in value-validation.ts is the check).
 *
 * The records store owns the values and implements this port; until it does, no adapter provides
 * it, and `updateProperty` (use-cases/properties.ts) cannot be wired without one. Rewriting the
 * values into the new type's form once the change is accepted is also the records store's job.
 */
import { Context, type Effect } from "effect"
import type { ObjectKind } from "../auth/permission.ts"
import type { RecordId } from "../wire/record-id.ts"
import type { StoredValue } from "./value-validation.ts"

export class PropertyValueReader extends Context.Service<PropertyValueReader, {
  /** The distinct values the account's records of the kind hold for the custom property (no "no value"s). */
  readonly valuesOf: (accountId: number, kind: ObjectKind, propertyId: RecordId) => Effect.Effect<ReadonlyArray<StoredValue>>
}>()("@wasl/core/PropertyValueReader") {}
