/**
 * The answer of `GET /api/{kind}`, serialized once by the handler instead of encoded through the
 * endpoint's schema (`Pagination(RecordView)`). That encoding writes nothing new: the records are
 * already JSON as sent (`recordJson`), and its one effect on the bytes is the key order of each
 * record's `properties` — the kind's fixed keys (`_id`, `account_id`, the built-in properties,
 * `created_at`, `updated_at`) first, then the custom values. But it checks every row against the
 * union of the six record shapes, each linked contact against the union of a full contact and a
 * summary, and copies every object on the way: the largest share of a list's CPU after the sockets.
 * This writes the same bytes (a test holds it to the schema's encoding, kind by kind) without them.
 *
 * @module
 */
import { CompanyJson, ContactJson, DealJson, InvoiceJson, type ObjectKind, type Page, ProductJson, type RecordJson, TicketJson } from "@wasl/core"
import { HttpServerResponse } from "effect/http"
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

/** The 200 answer of a records list: the page in Laravel's paginator body, as JSON. */
export const recordListAnswer = (
  request: ListRequest,
  kind: ObjectKind,
  page: Page<RecordJson>
): HttpServerResponse.HttpServerResponse => {
  const fixed = FIXED_KEYS[kind]
  const items = page.items.map((item) => ({ ...item, properties: inSchemaOrder(fixed, item.properties) }))
  return HttpServerResponse.text(JSON.stringify(paginated(request, { ...page, items })), { contentType: "application/json" })
}
