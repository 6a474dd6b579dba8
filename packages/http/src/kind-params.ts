/** The path parameters of the endpoints on a kind of record, as values for the endpoints and as their types. */
import { Schema, SchemaGetter } from "effect"
import { KIND_OF_PATH, type ObjectKind, ObjectKindSchema, ObjectPath, PATH_OF_KIND } from "@wasl/core/Records"
import { RecordId } from "@wasl/core/Wire"

/**
 * `:kind`: the path segment of one of the six kinds (`deals`), decoded to the object kind the
 * use-cases take (`deal`); any other segment is no route (404). OpenAPI shows the segments.
 */
export const KindFromPath: Schema.decodeTo<typeof ObjectKindSchema, typeof ObjectPath> = ObjectPath.pipe(
  Schema.decodeTo(ObjectKindSchema, {
    decode: SchemaGetter.transform((path: ObjectPath): ObjectKind => KIND_OF_PATH[path]),
    encode: SchemaGetter.transform((kind: ObjectKind): ObjectPath => PATH_OF_KIND[kind])
  })
)

/** `:kind`: one of the six kinds. */
export const kindParams: { readonly kind: typeof KindFromPath } = { kind: KindFromPath }
/** `:kind/:id`: a kind and the id of one of its records (or properties, or groups). */
export const recordParams: { readonly kind: typeof KindFromPath; readonly id: typeof RecordId } = { kind: KindFromPath, id: RecordId }

/** The path parameters `:kind`, as an endpoint's type carries them. */
export type KindParams = Schema.toCodecStringTree<Schema.Struct<{ kind: typeof KindFromPath }>>
/** The path parameters `:kind/:id`, as an endpoint's type carries them. */
export type RecordParams = Schema.toCodecStringTree<Schema.Struct<{ kind: typeof KindFromPath; id: typeof RecordId }>>
