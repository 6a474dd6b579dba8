/**
 * The answers of a record's create, read and update, encoded by the kind's own record schema
 * compiled once (`jsonAnswer`), rather than by HttpApi through the union of the six kinds'
 * schemas that the endpoints declare (the OpenAPI document still shows that union). The kind is
 * known from the path, and its schema is the member the union picks for its records: the same
 * bytes.
 */
import { OBJECT_KINDS, type ObjectKind, RECORD_JSON } from "@wasl/core"
import type { HttpServerResponse } from "effect/http"
import { DataAnswer, DataMessageAnswer } from "./endpoint-types.ts"
import { jsonAnswer } from "./json-answer.ts"

type PerKind<A> = { readonly [K in ObjectKind]: A }
const perKind = <A>(f: (kind: ObjectKind) => A): PerKind<A> =>
  Object.fromEntries(OBJECT_KINDS.map((kind) => [kind, f(kind)])) as unknown as PerKind<A>

type Answer<A> = PerKind<(answer: A) => HttpServerResponse.HttpServerResponse>

/** `{ data, message }` of a created record: 201. */
export const recordCreatedAnswer: Answer<{ readonly data: unknown; readonly message: string }> = perKind((kind) =>
  jsonAnswer(DataMessageAnswer(RECORD_JSON[kind]), 201)
)
/** `{ data, message }` of an updated record: 200. */
export const recordUpdatedAnswer: Answer<{ readonly data: unknown; readonly message: string }> = perKind((kind) =>
  jsonAnswer(DataMessageAnswer(RECORD_JSON[kind]))
)
/** `{ data }` of a record read: 200. */
export const recordShownAnswer: Answer<{ readonly data: unknown }> = perKind((kind) => jsonAnswer(DataAnswer(RECORD_JSON[kind])))
