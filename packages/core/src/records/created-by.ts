/** Who made a record: its `created_by`, the user whose request, batch, import or send created it. */
import type { ObjectKind } from "./object-kind.ts"
import { findBuiltinProperty } from "./builtin-properties.ts"
import type { StoredValues } from "./value-validation.ts"

/**
 * The values with `created_by` set to the user who made the record, on the kinds that have the
 * property (a read-only built-in, so a body never carries it); unchanged otherwise, and for a
 * record no user made (null: a contact made for a received message).
 */
export const withCreator = (kind: ObjectKind, values: StoredValues, createdBy: number | null): StoredValues =>
  createdBy === null || findBuiltinProperty(kind, "created_by") === undefined ? values : { ...values, created_by: createdBy }
