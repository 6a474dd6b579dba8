/** The path parameters of the endpoints on a kind of record, as values for the endpoints and as their types. */
import type { Schema } from "effect"
import { ObjectPath, RecordId } from "@wasl/core"

/** `:kind`: the path of one of the six kinds; any other value is no route (404). */
export const kindParams: { readonly kind: typeof ObjectPath } = { kind: ObjectPath }
/** `:kind/:id`: a kind and the id of one of its records (or properties, or groups). */
export const recordParams: { readonly kind: typeof ObjectPath; readonly id: typeof RecordId } = { kind: ObjectPath, id: RecordId }

/** The path parameters `:kind`, as an endpoint's type carries them. */
export type KindParams = Schema.toCodecStringTree<Schema.Struct<{ kind: typeof ObjectPath }>>
/** The path parameters `:kind/:id`, as an endpoint's type carries them. */
export type RecordParams = Schema.toCodecStringTree<Schema.Struct<{ kind: typeof ObjectPath; id: typeof RecordId }>>
