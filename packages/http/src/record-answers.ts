/**
 * The answers of the records endpoints, serialized by the handlers instead of encoded through
 * the endpoints' schemas (the OpenAPI document still shows those). That encoding writes nothing
 * new: a record is already JSON as sent (`recordJson`), and the one effect of encoding it on the
 * bytes is the key order of its `properties` — the kind's fixed keys (`_id`, `account_id`, the
 * built-in properties, `created_at`, `updated_at`) first, then the custom values. But it checks
 * every record against the union of the six kinds' shapes (every row of a list, each linked
 * contact against the union of a full contact and a summary) through Schema's interpreter and
 * copies every object on the way: the largest share of a list's CPU after the sockets. Here the
 * same key order is written directly; tests hold every kind's bytes to the schemas' encoding.
 */
import {
  CompanyJson,
  ContactJson,
  DealJson,
  InvoiceJson,
  type ObjectKind,
  type Page,
  ProductJson,
  type RecordJson,
  TicketJson
} from "@wasl/core"
import type { HttpServerResponse } from "effect/http"
import { jsonResponse } from "./json-answers.ts"
import { type ListRequest, paginated } from "./list-request.ts"

/** The fixed keys of each kind's `properties`, in the order its schema writes them. */
const FIXED_KEYS: { readonly [K in ObjectKind]: ReadonlyArray<string> } = {
  deal: Object.keys(DealJson.fields.properties.schema.fields),
  contact: Object.keys(ContactJson.fields.properties.schema.fields),
  company: Object.keys(CompanyJson.fields.properties.schema.fields),
  ticket: Object.keys(TicketJson.fields.properties.schema.fields),
  invoice: Object.keys(InvoiceJson.fields.properties.schema.fields),
  product: Object.keys(ProductJson.fields.properties.schema.fields)
}

/** `properties` in the schema's key order: the fixed keys, then the others (custom values) as they come. */
const inSchemaOrder = (fixed: ReadonlyArray<string>, properties: Readonly<Record<string, unknown>>) => {
  const out: Record<string, unknown> = {}
  for (const key of fixed) out[key] = properties[key]
  for (const key of Object.keys(properties)) {
    // defineProperty: a custom internal_name such as `__proto__` stays an own key, as it is shown.
    if (!Object.hasOwn(out, key)) Object.defineProperty(out, key, { value: properties[key], enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** A record of the kind as its schema writes it. */
const asWritten = (kind: ObjectKind) => {
  const fixed = FIXED_KEYS[kind]
  return (record: RecordJson) => ({ ...record, properties: inSchemaOrder(fixed, record.properties) })
}

/** The 200 answer of a records list: the page in Laravel's paginator body. */
export const recordListAnswer = (
  request: ListRequest,
  kind: ObjectKind,
  page: Page<RecordJson>
): HttpServerResponse.HttpServerResponse => jsonResponse(paginated(request, { ...page, items: page.items.map(asWritten(kind)) }))

/** `{ data, message }` of a created record (201) or an updated one (200). */
export const recordWrittenAnswer = (
  kind: ObjectKind,
  data: RecordJson,
  message: string,
  status: 200 | 201
): HttpServerResponse.HttpServerResponse => jsonResponse({ data: asWritten(kind)(data), message }, status)

/** `{ data }` of a record read: 200. */
export const recordShownAnswer = (kind: ObjectKind, data: RecordJson): HttpServerResponse.HttpServerResponse =>
  jsonResponse({ data: asWritten(kind)(data) })
