/**
 * What the records benchmark seeds and asks: the vocabulary of the seeded deals, the custom
 * properties `score` and `region`, and the list queries (scenarios) over the big account, each as
 * the list parameters `RecordRepositoryPg` takes, as the statement it runs for them, and as the query string of
 * `GET /api/deals` that asks the same over HTTP. The benchmark (bench/records.ts) and its HTTP
 * baseline (bench/records-baseline.ts) share them, so both send the same statements.
 */
import {
  type ComplexFilters,
  type Condition,
  DEAL_STAGE_OPTIONS,
  DEFAULT_DIRECTION,
  DEFAULT_ORDER,
  DEFAULT_PAGE,
  DEFAULT_PER_PAGE,
  encodeComplexFilters,
  type RecordListParams
} from "@wasl/core/Records"
import { type CustomProperty, listStatement, type ListStatementParams, recordMapping } from "@wasl/adapters/Postgres"
import type { SqlClient } from "effect/sql"

export const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ra",
  "su",
  "te",
  "no",
  "vi",
  "da",
  "pe",
  "zu",
  "ho",
  "ba",
  "ri",
  "mo",
  "la",
  "ne",
  "to",
  "gi",
  "fa"
]
/** The built-in deal stages (the options of `deal_stage`), in their order. */
export const STAGES: ReadonlyArray<string> = DEAL_STAGE_OPTIONS.map((o) => o.internal_name)
export const REGIONS = ["North", "South", "East", "West", "Central", "Gulf", "Levant", "Maghreb", "Europe", "Asia", "Americas", "Africa"]

/** A word of three syllables from a number (8,000 of them); the seed builds names the same way in SQL. */
export const wordOf = (h: number): string =>
  SYLLABLES[h % 20]! + SYLLABLES[Math.floor(h / 20) % 20]! + SYLLABLES[Math.floor(h / 400) % 20]!

/** An account's two custom deal properties. */
export interface Custom {
  readonly score: CustomProperty
  readonly region: CustomProperty
  readonly list: ReadonlyArray<CustomProperty>
}

export interface Scenario {
  readonly name: string
  /** Whether p95 ≤ 50 ms is a target (else shown for information); the HTTP phase runs the targets. */
  readonly target: boolean
  /** How many different requests the scenario cycles through (search words, filter values, pages). */
  readonly variants: number
  /** The i-th run's list request (i modulo `variants`). */
  readonly input: (i: number) => DealListRequest
}

/** A list of the big account's deals, as a query string asks it: what it leaves out is the default. */
export type DealListRequest = { readonly accountId: number } & Partial<RecordListParams>

/** The parameters of `request` as the core's list query gives them: its defaults filled in. */
export const paramsOf = (request: DealListRequest): ListStatementParams => ({
  accountId: request.accountId,
  filters: request.filters ?? [],
  search: request.search,
  order: request.order ?? DEFAULT_ORDER,
  direction: request.direction ?? DEFAULT_DIRECTION,
  page: request.page ?? DEFAULT_PAGE,
  perPage: request.perPage ?? DEFAULT_PER_PAGE
})

const cond = (property: string, type: Condition["type"], operator: Condition["operator"], value: unknown): Condition =>
  ({ _tag: "Condition", property, type, operator, value }) as Condition

export const scenarios = (accountId: number): ReadonlyArray<Scenario> => {
  const base = { accountId }
  /** Search terms: 20 of the 8,000 words (each in ≈ 250 deal names of 1,000,000). */
  const terms = Array.from({ length: 20 }, (_, i) => wordOf((i * 3989 + 17) % 8000))
  const filter = (i: number): ComplexFilters => [
    cond("amount", "number", "gt", 50_000 + (i % 5) * 10_000),
    cond("deal_stage", "single_select", "eq", STAGES[i % 7]!)
  ]
  return [
    { name: "default page (created_at desc) + total", target: true, variants: 1, input: () => ({ ...base }) },
    {
      name: "search deal_name (a word) + total",
      target: true,
      variants: terms.length,
      input: (i) => ({ ...base, search: terms[i % terms.length]! })
    },
    { name: "filter amount > x AND deal_stage = y", target: true, variants: 35, input: (i) => ({ ...base, filters: filter(i) }) },
    {
      name: "order by custom score (pages 1-3, asc/desc)",
      target: true,
      variants: 6,
      input: (i) => ({ ...base, order: "score", direction: i % 2 === 0 ? "desc" : "asc", page: 1 + (i % 3) })
    },
    // For information: the cost of an exact count over many rows, and of a deep page.
    {
      name: "(info) filter deal_stage = y (1/7 of the rows)",
      target: false,
      variants: 7,
      input: (i) => ({ ...base, filters: [cond("deal_stage", "single_select", "eq", STAGES[i % 7]!)] })
    },
    {
      name: "(info) filter custom region = y (1/15 of the rows)",
      target: false,
      variants: 12,
      input: (i) => ({ ...base, filters: [cond("region", "single_select", "eq", REGIONS[i % 12]!)] })
    },
    {
      name: "(info) order by amount asc, page 100",
      target: false,
      variants: 1,
      input: () => ({ ...base, order: "amount", direction: "asc", page: 100 })
    }
  ]
}

/** The statement `RecordRepositoryPg`'s list runs for `request`, compiled: its SQL text and parameters. */
export const compileListQuery = (sql: SqlClient.SqlClient, custom: Custom, request: DealListRequest) =>
  listStatement(sql, recordMapping("deal", custom.list), paramsOf(request)).compile()

/** `GET /api/deals?…` asking what `input` asks (complex_filters as JSON). */
export const listPath = (input: DealListRequest): string => {
  const query = new URLSearchParams()
  if (input.search !== undefined) query.set("search", input.search)
  if (input.order !== undefined) query.set("order", input.order)
  if (input.direction !== undefined) query.set("direction", input.direction)
  if (input.page !== undefined) query.set("page", String(input.page))
  if (input.perPage !== undefined) query.set("per_page", String(input.perPage))
  if (input.filters !== undefined && input.filters.length > 0) {
    query.set("complex_filters", JSON.stringify(encodeComplexFilters(input.filters)))
  }
  const text = query.toString()
  return text === "" ? "/api/deals" : `/api/deals?${text}`
}
