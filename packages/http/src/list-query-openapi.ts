/**
 * The query parameters of the list operations, as the OpenAPI document declares them. A list
 * reads its query itself (PHP-style brackets, Laravel's messages: core's `parsePageParams` and
 * `parseRecordListQuery`), so the parameters are added to the document by an operation transform
 * rather than declared as the endpoint's query schema, which would parse and refuse requests
 * before the list does.
 */
import {
  DEFAULT_DIRECTION,
  DEFAULT_ORDER,
  DEFAULT_PAGE,
  DEFAULT_PER_PAGE,
  FILTER_OPERATORS,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_LIST_LENGTH,
  MAX_PER_PAGE,
  MAX_QUERY_NESTING,
  ORDER_DIRECTIONS
} from "@wasl/core/Records"

/** An OpenAPI query parameter object, as the list operations declare them. */
export type QueryParameter = {
  readonly name: string
  readonly in: "query"
  readonly required: false
  readonly description: string
  readonly schema: Record<string, unknown>
  readonly style?: "deepObject"
  readonly explode?: boolean
  readonly example?: unknown
}

/** One optional query parameter of an operation, for its OpenAPI description. */
export const query = (name: string, description: string, schema: Record<string, unknown>, extra: Partial<QueryParameter> = {}): QueryParameter => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
  ...extra
})

/** `page` and `per_page`: every paginated list takes them. */
export const PAGE_PARAMETERS: ReadonlyArray<QueryParameter> = [
  query("page", "The page to answer, from 1.", { type: "integer", minimum: 1, default: DEFAULT_PAGE }),
  query("per_page", `The page size, from 1 to ${MAX_PER_PAGE}.`, {
    type: "integer",
    minimum: 1,
    maximum: MAX_PER_PAGE,
    default: DEFAULT_PER_PAGE
  })
]

const FilterValue = {
  description: "The operand: a scalar, `[low, high]` for between, a list for in and not_in, none for is_empty and is_not_empty.",
  anyOf: [
    { type: "string" },
    { type: "number" },
    { type: "boolean" },
    { type: "array", maxItems: MAX_FILTER_LIST_LENGTH, items: { anyOf: [{ type: "string" }, { type: "number" }] } }
  ]
}

const FilterCondition = {
  type: "object",
  description: "One condition on a property.",
  required: ["property", "operator"],
  properties: {
    property: {
      type: "string",
      description: "The internal_name of a built-in or custom property of the kind (deals also take contact_ids with in)."
    },
    operator: { type: "string", enum: [...FILTER_OPERATORS] },
    value: FilterValue
  }
}

const FilterOrGroup = {
  type: "object",
  description: "Conditions of which at least one must hold (one level: no or inside an or).",
  required: ["or"],
  properties: { or: { type: "array", minItems: 1, items: FilterCondition } }
}

/** The inbox's parameters: the page, `unread` and `search`. */
export const CONVERSATION_LIST_PARAMETERS: ReadonlyArray<QueryParameter> = [
  ...PAGE_PARAMETERS,
  query("unread", "Only conversations with unread messages from the contact.", { type: "boolean", default: false }),
  query("search", "A case-insensitive substring of the contact's full name or WhatsApp number (digits alone match too).", {
    type: "string"
  })
]

/** `GET /api/{kind}/{_id}/history`'s parameters: the page and the property. */
export const HISTORY_PARAMETERS: ReadonlyArray<QueryParameter> = [
  ...PAGE_PARAMETERS,
  query("property", "Only this property's changes (its internal_name).", { type: "string" })
]

/** `GET /api/{kind}`'s own parameters beside the page: search, order, direction, complex_filters and view. */
export const RECORD_LIST_PARAMETERS: ReadonlyArray<QueryParameter> = [
  ...PAGE_PARAMETERS,
  query(
    "search",
    "A case-insensitive substring of the kind's name property: deal_name, ticket_name, the company's or product's name, " +
      "invoice_number; for contacts fullname, email, phone or whatsapp_number.",
    { type: "string" }
  ),
  query(
    "order",
    "What to order by: the internal_name of a built-in or custom property of the kind, created_at or updated_at. " +
      "Records without a value come last either way; ties are broken by _id, so pages never repeat or skip a record.",
    { type: "string", default: DEFAULT_ORDER }
  ),
  query("direction", "The order's direction.", { type: "string", enum: [...ORDER_DIRECTIONS], default: DEFAULT_DIRECTION }),
  query(
    "complex_filters",
    `Conditions that must all hold (at most ${MAX_FILTER_CONDITIONS}, those inside or-groups included). ` +
      "In bracket notation (complex_filters[0][property]=amount&complex_filters[0][operator]=gt&complex_filters[0][value]=100, " +
      "values coerced to the property's type) or as one URL-encoded JSON array (complex_filters=[{...}]). " +
      "Operators: eq, neq (strings case-insensitive); gt, gte, lt, lte (numbers, dates); between [low, high]; " +
      `in, not_in (a list of at most ${MAX_FILTER_LIST_LENGTH}); contains, not_contains, starts_with, ends_with ` +
      "(case-insensitive); is_empty, is_not_empty (no value). Anything malformed is a 422 naming its key, " +
      `as complex_filters.1.operator; nested more than ${MAX_QUERY_NESTING} levels deep, in either form, a 422 on complex_filters.`,
    { type: "array", maxItems: MAX_FILTER_CONDITIONS, items: { anyOf: [FilterCondition, FilterOrGroup] } },
    {
      style: "deepObject",
      explode: true,
      example: [
        { property: "amount", operator: "between", value: [100, 500] },
        { or: [{ property: "deal_name", operator: "contains", value: "renewal" }, { property: "close_date", operator: "is_empty" }] }
      ]
    }
  ),
  query(
    "view",
    "The _id of a saved view of the kind the caller sees (GET /api/{kind}/views): the list takes the view's search, order, " +
      "direction and complex_filters, and any of those the query gives itself (even empty) over them. Any other value is a 422 on view.",
    { type: "string", pattern: "^[0-9a-f]{24}$" }
  )
]

/**
 * An operation transform (`OpenApi.Transform` of an endpoint) that declares the given query
 * parameters after the operation's own (its path parameters).
 */
export const withQueryParameters = (
  parameters: ReadonlyArray<QueryParameter>
): (operation: Record<string, any>) => Record<string, any> =>
(operation: Record<string, any>): Record<string, any> => ({
  ...operation,
  parameters: [...(operation["parameters"] ?? []), ...parameters]
})
