/**
 * The answers of the records endpoints, serialized by the handlers instead of encoded through
 * the endpoints' schemas (the OpenAPI document still shows those). That encoding writes nothing
 * new: a record is already JSON as sent (`recordJson`), its `properties` built in the order the
 * schema writes them (the kind's fixed keys, then the custom values). But it checks every record
 * against the union of the six kinds' shapes (every row of a list, each linked contact against
 * the union of a full contact and a summary) through Schema's interpreter and copies every object
 * on the way: the largest share of a list's CPU after the sockets. Tests hold every kind's bytes
 * to the schemas' encoding.
 */
import type { Page, RecordJson } from "@wasl/core/Records"
import type { HttpServerResponse } from "effect/http"
import { jsonResponse } from "./json-answers.ts"
import { type ListRequest, paginated } from "./list-request.ts"

/** The 200 answer of a records list: the page in Laravel's paginator body. */
export const recordListAnswer = (request: ListRequest, page: Page<RecordJson>): HttpServerResponse.HttpServerResponse =>
  jsonResponse(paginated(request, page))

/** `{ data, message }` of a created record (201) or an updated one (200). */
export const recordWrittenAnswer = (
  data: RecordJson,
  message: string,
  status: 200 | 201
): HttpServerResponse.HttpServerResponse => jsonResponse({ data, message }, status)

/** `{ data }` of a record read: 200. */
export const recordShownAnswer = (data: RecordJson): HttpServerResponse.HttpServerResponse => jsonResponse({ data })
