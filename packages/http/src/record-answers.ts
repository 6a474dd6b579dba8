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
  type RecordPropertiesSchema,
  setOwnKey,
  TicketJson
} from "@wasl/core"
import type { HttpServerResponse } from "effect/http"
import { jsonResponse } from "./json-answers.ts"
import { type ListRequest, paginated } from "./list-request.ts"

/** The fixed keys of a kind's `properties`, in the order its schema writes them, and as a set. */
const fixedKeysOf = (schema: { readonly fields: { readonly properties: RecordPropertiesSchema } }) => {
  const keys = Object.keys(schema.fields.properties.schema.fields)
  return { keys, set: new Set(keys) }
}

const FIXED_KEYS: { readonly [K in ObjectKind]: ReturnType<typeof fixedKeysOf> } = {
  deal: fixedKeysOf(DealJson),
  contact: fixedKeysOf(ContactJson),
  company: fixedKeysOf(CompanyJson),
  ticket: fixedKeysOf(TicketJson),
  invoice: fixedKeysOf(InvoiceJson),
  product: fixedKeysOf(ProductJson)
}

/** `properties` in the schema's key order: the fixed keys, then the others (custom values) as they come. */
const inSchemaOrder = (fixed: ReturnType<typeof fixedKeysOf>, properties: Readonly<Record<string, unknown>>) => {
  const out: Record<string, unknown> = {}
  for (const key of fixed.keys) out[key] = properties[key]
  for (const key of Object.keys(properties)) {
    if (!fixed.set.has(key)) setOwnKey(out, key, properties[key])
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
