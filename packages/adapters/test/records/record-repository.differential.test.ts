/**
 * The differential property test of the record adapters: one random sequence of operations —
 * inserts, updates (clearing values too), deletes, links and unlinks of contacts, deals, tickets
 * and invoices with built-in and custom values of every type, a custom property retyped (values
 * converted as the property use-case converts them), dropped and made again — and random list
 * queries (search, filters with or-groups, order by any property either way, pages) run against
 * the memory adapter and against PostgreSQL (PGlite): every result must be the same, records in
 * the same order with the same values, derived data and totals.
 *
 * One PGlite database serves every run (each run makes fresh accounts on both sides); the memory
 * store is new for each run. Time is a TestClock set per operation to one of a few instants, so
 * timestamps tie.
 */
import { assert, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import {
  type ComplexFilters,
  convertValuesForDefinition,
  type FilterScalar,
  type FilterValueType,
  type PropertyDefinition,
  type PropertyType,
  PropertyValueStore,
  RecordRepository,
  type RecordLinkName,
  type RecordListParams,
  type RecordWithDerived,
  type StoredValue
} from "@wasl/core/Records"
import { type Context, DateTime, Effect, Exit, Layer } from "effect"
import fc from "fast-check"
import { TestDatabase } from "../../src/db/test-database.ts"
import { repositoriesInMemory, repositoriesOn } from "../repository-layers.ts"
import { atTime, comparable, customProperty, listInput } from "../../src/testing/record-contract-support.ts"
import {
  conditionArb,
  DATES,
  DATETIMES,
  filterTextArb,
  nodeArb,
  NUMBERS,
  type TestProperty,
  valueArb
} from "./record-arbitraries.ts"

type Services = RecordRepository | PropertyValueStore | AccountRepository

// -----------------------------------------------------------------------------------------------
// The properties
// -----------------------------------------------------------------------------------------------

type Kind = "contact" | "deal" | "ticket" | "invoice"
const KINDS: ReadonlyArray<Kind> = ["contact", "deal", "ticket", "invoice"]

interface Prop extends TestProperty {
  /** Written by inserts and updates (false: derived). */
  readonly writable: boolean
}

const w = (name: string, type: PropertyType, options?: ReadonlyArray<string>): Prop =>
  options === undefined ? { name, type, writable: true } : { name, type, options, writable: true }
const derived = (name: string, type: FilterValueType): Prop => ({ name, type, writable: false })

const HEAT = ["hot", "cold", "Warm"]
const TAGS = ["red", "green", "Blue"]

/** Custom definitions (fixed ids: every run has its own accounts). */
const custom = (id: string, kind: Kind, name: string, type: PropertyType, options: ReadonlyArray<string> = []) => ({
  ...customProperty(0, kind, name, type, options),
  _id: id
}) as PropertyDefinition

const CUSTOM: { readonly [K in Kind]: ReadonlyArray<PropertyDefinition> } = {
  contact: [
    custom("c000000000000000000000a1", "contact", "c_tags", "multi_select", TAGS),
    custom("c000000000000000000000a2", "contact", "c_score", "number")
  ],
  deal: [
    custom("c000000000000000000000b1", "deal", "c_text", "string"),
    custom("c000000000000000000000b2", "deal", "c_num", "number"),
    custom("c000000000000000000000b3", "deal", "c_bool", "boolean"),
    custom("c000000000000000000000b4", "deal", "c_date", "date"),
    custom("c000000000000000000000b5", "deal", "c_dt", "datetime"),
    custom("c000000000000000000000b6", "deal", "c_sel", "single_select", HEAT),
    custom("c000000000000000000000b7", "deal", "c_multi", "multi_select", TAGS),
    custom("c000000000000000000000b8", "deal", "c_email", "email")
  ],
  ticket: [],
  invoice: [custom("c000000000000000000000d1", "invoice", "c_note", "textarea")]
}

const customProps = (kind: Kind): ReadonlyArray<Prop> =>
  CUSTOM[kind].map((d) => w(d.internal_name, d.type, d.enum?.map((o) => o.internal_name)))

const BUILTIN: { readonly [K in Kind]: ReadonlyArray<Prop> } = {
  contact: [
    w("firstname", "string"),
    w("lastname", "string"),
    w("middlename", "string"),
    derived("fullname", "string"),
    w("email", "email"),
    w("phone", "phone"),
    w("whatsapp_number", "phone"),
    w("birthdate", "datetime"),
    w("annual_revenue", "number"),
    derived("deal_ids", "multi_select")
  ],
  deal: [
    w("deal_name", "string"),
    w("amount", "number"),
    w("deal_stage", "single_select", ["appointment_scheduled", "qualified_to_buy", "closed_won"]),
    w("close_date", "datetime"),
    w("forecast_amount", "number"),
    w("next_steps", "textarea")
  ],
  ticket: [
    w("ticket_name", "string"),
    w("desc", "textarea"),
    w("category", "single_select", ["general_inquiry", "billing_issue"]),
    derived("contacts_count", "number"),
    derived("deals_count", "number")
  ],
  invoice: [
    w("invoice_number", "string"),
    w("amount", "number"),
    w("status", "single_select", ["draft", "sent", "paid"]),
    w("due_date", "date")
  ]
}

const WRITABLE = (kind: Kind) => [...BUILTIN[kind], ...customProps(kind)].filter((p) => p.writable)
const TIMESTAMPS: ReadonlyArray<Prop> = [derived("created_at", "datetime"), derived("updated_at", "datetime")]
const FILTERABLE = (kind: Kind): ReadonlyArray<Prop> => [
  ...BUILTIN[kind],
  ...customProps(kind),
  ...TIMESTAMPS,
  ...(kind === "deal" ? [derived("contact_ids", "record_ids")] : [])
]
const ORDERABLE = (kind: Kind): ReadonlyArray<string> => [
  ...BUILTIN[kind].map((p) => p.name),
  ...customProps(kind).map((p) => p.name),
  "created_at",
  "updated_at",
  ...(kind === "deal" ? [FLEX_NAME] : [])
]

/** The deal property that is retyped, dropped and made again. */
const FLEX_NAME = "c_flex"
const FLEX_OPTIONS = ["low", "high", "12", "true"]
const FLEX_TYPES: ReadonlyArray<PropertyType> = ["string", "number", "boolean", "date", "datetime", "single_select", "multi_select"]

// -----------------------------------------------------------------------------------------------
// Ids and instants
// -----------------------------------------------------------------------------------------------

/** A fixed pool of ids per kind, in no particular order (a tiny LCG: the same in every run). */
const POOL_SIZE = 10
let seed = 20_260_101
const hexOf = () => {
  let out = ""
  for (let i = 0; i < 24; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    out += (seed >>> 16 & 15).toString(16)
  }
  return out
}
const POOL: { readonly [K in Kind]: ReadonlyArray<string> } = {
  contact: Array.from({ length: POOL_SIZE }, hexOf),
  deal: Array.from({ length: POOL_SIZE }, hexOf),
  ticket: Array.from({ length: POOL_SIZE }, hexOf),
  invoice: Array.from({ length: POOL_SIZE }, hexOf)
}

const INSTANTS = ["2026-02-01T10:00:00.000Z", "2026-02-01T10:00:00.001Z", "2026-02-02T00:00:00.000Z"]

// -----------------------------------------------------------------------------------------------
// Values
// -----------------------------------------------------------------------------------------------

/** A flex value for each type; the one of the property's type when written is used. */
const flexValueArb: fc.Arbitrary<Readonly<Record<PropertyType, StoredValue>>> = fc.record({
  string: fc.constantFrom("12", "0", "true", "low", "High", "2026-01-05", "a b"),
  textarea: fc.constant("x"),
  number: fc.constantFrom(0, 12, 1.5),
  boolean: fc.boolean(),
  date: fc.constantFrom(...DATES),
  datetime: fc.constantFrom(...DATETIMES),
  single_select: fc.constantFrom(...FLEX_OPTIONS),
  multi_select: fc.uniqueArray(fc.constantFrom(...FLEX_OPTIONS), { minLength: 1, maxLength: 2 }),
  email: fc.constant("a@b.co"),
  phone: fc.constant("+15550001111"),
  url: fc.constant("https://example.com")
})

/** Some writable properties of the kind with a value or (`null`) none. */
const valuesArb = (kind: Kind, clearing: boolean) =>
  fc.record(
    Object.fromEntries(WRITABLE(kind).map((p) => [p.name, clearing ? fc.option(valueArb(p), { nil: null }) : valueArb(p)])),
    { requiredKeys: [] }
  ) as fc.Arbitrary<Record<string, StoredValue | null>>

// -----------------------------------------------------------------------------------------------
// Queries (the shapes the core's parser produces)
// -----------------------------------------------------------------------------------------------

const scalarArb = (kind: Kind, p: TestProperty): fc.Arbitrary<FilterScalar> => {
  switch (p.type) {
    case "number":
      return fc.constantFrom(...NUMBERS, 3)
    case "boolean":
      return fc.boolean()
    case "datetime":
      return fc.constantFrom(...DATETIMES, ...INSTANTS).map((s) => DateTime.makeUnsafe(s))
    case "date":
      return fc.constantFrom(...DATES).map((s) => DateTime.makeUnsafe(`${s}T00:00:00Z`))
    case "single_select":
    case "multi_select":
      return p.options === undefined ? fc.constantFrom(...POOL[kind === "contact" ? "deal" : "contact"]) : fc.constantFrom(...p.options)
    case "record_ids":
      return fc.constantFrom(...POOL.contact)
    default:
      return filterTextArb
  }
}

const conditionOn = (kind: Kind) => conditionArb(FILTERABLE(kind), (p) => scalarArb(kind, p))

/** Deals and contacts most, so that lists have records to order. */
const kindArb: fc.Arbitrary<Kind> = fc.oneof(
  { weight: 4, arbitrary: fc.constant("deal" as const) },
  { weight: 3, arbitrary: fc.constant("contact" as const) },
  { weight: 2, arbitrary: fc.constant("ticket" as const) },
  { weight: 1, arbitrary: fc.constant("invoice" as const) }
)

const queryArb = kindArb.chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    filters: fc.oneof(
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 1, arbitrary: fc.array(nodeArb(conditionOn(kind)), { minLength: 1, maxLength: 2 }) }
    ),
    /** Deals: a presence condition on the flex property, under its type when the list runs. */
    flexPresence: fc.constantFrom(undefined, "is_empty" as const, "is_not_empty" as const),
    search: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: filterTextArb }
    ),
    order: fc.constantFrom(...ORDERABLE(kind)),
    direction: fc.constantFrom("asc" as const, "desc" as const),
    page: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 3 }) }),
    perPage: fc.integer({ min: 1, max: 10 })
  })
)

// -----------------------------------------------------------------------------------------------
// Operations
// -----------------------------------------------------------------------------------------------

const LINKS: ReadonlyArray<readonly [RecordLinkName, Kind, Kind]> = [
  ["deal_contact", "deal", "contact"],
  ["ticket_contact", "ticket", "contact"],
  ["ticket_deal", "ticket", "deal"]
]

const at = fc.integer({ min: 0, max: INSTANTS.length - 1 })
/** Which record: an index into the pool (existing or not). */
const pick = fc.integer({ min: 0, max: POOL_SIZE - 1 })

const insertArb = kindArb.chain((kind) =>
  fc.record({ op: fc.constant("insert" as const), kind: fc.constant(kind), slot: pick, values: valuesArb(kind, false), flex: flexValueArb, at })
)

const operationArb = fc.oneof(
  { weight: 6, arbitrary: insertArb },
  {
    weight: 3,
    arbitrary: kindArb.chain((kind) =>
      fc.record({ op: fc.constant("update" as const), kind: fc.constant(kind), slot: pick, patch: valuesArb(kind, true), flex: fc.oneof(fc.constant(undefined), fc.constant(null), flexValueArb), at })
    )
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("delete" as const), kind: fc.constantFrom(...KINDS), slot: pick }) },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constantFrom("link" as const, "unlink" as const), link: fc.constantFrom(...LINKS), from: pick, to: pick, at })
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("retype" as const), type: fc.constantFrom(...FLEX_TYPES) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("drop" as const) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("list" as const), query: queryArb }) }
)

type Operation = typeof operationArb extends fc.Arbitrary<infer A> ? A : never

// -----------------------------------------------------------------------------------------------
// Running one scenario on both sides
// -----------------------------------------------------------------------------------------------

interface Side {
  readonly context: Context.Context<Services>
  readonly accountId: number
}

/** A result without the side's account id (the two databases number accounts differently). */
const normalize = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v) => key === "account_id" ? "account" : v) ?? "null")

const shape = (found: RecordWithDerived) => normalize(comparable(found))

/** The flex property now: its definition (none once dropped) and how many times it was made. */
interface Flex {
  readonly definition: PropertyDefinition | undefined
  readonly generation: number
}

const flexDefinition = (generation: number, type: PropertyType): PropertyDefinition =>
  custom(`c0000000000000000000f${generation.toString(16).padStart(3, "0")}`, "deal", FLEX_NAME, type, FLEX_OPTIONS)

const orderingArb = kindArb.chain((kind) =>
  fc.record({ kind: fc.constant(kind), order: fc.constantFrom(...ORDERABLE(kind)), direction: fc.constantFrom("asc" as const, "desc" as const) })
)

const scenarioArb = fc.record({
  /** Records first, so that the operations after them have something to change and list. */
  seed: fc.array(insertArb, { minLength: 4, maxLength: 16, size: "max" }),
  operations: fc.array(operationArb, { minLength: 10, maxLength: 40, size: "max" }),
  /** Whole lists in these orders at the end. */
  orderings: fc.array(orderingArb, { minLength: 2, maxLength: 4 })
})

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer A> ? A : never

const runScenario = (pg: Context.Context<Services>, memory: Context.Context<Services>, scenario: Scenario) =>
  Effect.gen(function*() {
    const newAccount = Effect.flatMap(AccountRepository, (accounts) =>
      Effect.map(accounts.create({ name: "Differential", plan: "business", webhookLimit: null, otpCredits: 0 }), (a) => a.id))
    const sides: ReadonlyArray<Side> = [
      { context: pg, accountId: yield* Effect.provide(newAccount, pg) },
      { context: memory, accountId: yield* Effect.provide(newAccount, memory) }
    ]
    /** Runs `f` on both sides; the two results, PostgreSQL's first. */
    const both = <A>(f: (accountId: number) => Effect.Effect<A, never, Services>) =>
      Effect.forEach(sides, (side) => Effect.provide(f(side.accountId), side.context))
    const agree = <A>(label: string, f: (accountId: number) => Effect.Effect<A, never, Services>, view: (a: A) => unknown = normalize) =>
      Effect.map(both(f), ([onPg, inMemory]) => {
        assert.deepStrictEqual(view(inMemory!), view(onPg!), label)
        return onPg!
      })

    const live: { [K in Kind]: Set<string> } = { contact: new Set(), deal: new Set(), ticket: new Set(), invoice: new Set() }
    let flex: Flex = { definition: flexDefinition(0, "string"), generation: 0 }
    const customOf = (kind: Kind) =>
      kind === "deal" && flex.definition !== undefined ? [...CUSTOM.deal, flex.definition] : CUSTOM[kind]
    const withFlex = (kind: Kind, values: Record<string, StoredValue | null>, value: Record<PropertyType, StoredValue> | null | undefined) =>
      kind !== "deal" || flex.definition === undefined || value === undefined
        ? values
        : { ...values, [FLEX_NAME]: value === null ? null : value[flex.definition.type] }
    /** A list of the kind on each side, with the definitions of now. */
    const listOf = (kind: Kind, params: Partial<RecordListParams>) => {
      const input = (accountId: number) => listInput(accountId, kind, customOf(kind), params)
      const page = (accountId: number) => RecordRepository.use((repo) => repo.list(input(accountId)))
      return (label: string) => agree(label, page, (p) => ({ total: p.total, rows: p.rows.map(shape) }))
    }

    const operations: ReadonlyArray<Operation> = [...scenario.seed, ...scenario.operations]
    for (const [i, operation] of operations.entries()) {
      const label = `operation ${i}: ${JSON.stringify(operation)}`
      switch (operation.op) {
        case "insert": {
          const id = POOL[operation.kind][operation.slot]!
          if (live[operation.kind].has(id)) break
          live[operation.kind].add(id)
          const values = withFlex(operation.kind, operation.values, operation.flex) as Record<string, StoredValue>
          yield* agree(label, (accountId) =>
            atTime(
              INSTANTS[operation.at]!,
              RecordRepository.use((repo) => repo.insert({ accountId, kind: operation.kind, id, custom: customOf(operation.kind), values }))
            ), shape)
          break
        }
        case "update": {
          const id = POOL[operation.kind][operation.slot]!
          const patch = withFlex(operation.kind, operation.patch, operation.flex)
          yield* agree(label, (accountId) =>
            atTime(
              INSTANTS[operation.at]!,
              RecordRepository.use((repo) => repo.update({ accountId, kind: operation.kind, id, custom: customOf(operation.kind), patch }))
            ), (found) => found._tag === "None" ? null : shape(found.value))
          break
        }
        case "delete": {
          const id = POOL[operation.kind][operation.slot]!
          live[operation.kind].delete(id)
          yield* agree(label, (accountId) => RecordRepository.use((repo) => repo.delete({ accountId, kind: operation.kind, id })))
          break
        }
        case "link":
        case "unlink": {
          const [link, fromKind, toKind] = operation.link
          const input = { link, from: POOL[fromKind][operation.from]!, to: POOL[toKind][operation.to]! }
          yield* agree(label, (accountId) =>
            atTime(
              INSTANTS[operation.at]!,
              RecordRepository.use((repo) =>
                operation.op === "link" ? repo.link({ accountId, ...input }) : repo.unlink({ accountId, ...input })
              )
            ))
          break
        }
        case "retype": {
          const current = flex.definition
          if (current === undefined || current.type === operation.type) break
          const next = flexDefinition(flex.generation, operation.type)
          const values = yield* agree(
            label,
            (accountId) => PropertyValueStore.use((store) => store.valuesOf(accountId, "deal", current._id)),
            (vs) => vs.map((v) => JSON.stringify(v)).sort()
          )
          // As the property use-case: convert every distinct value, or refuse the change.
          const converted = yield* Effect.exit(convertValuesForDefinition(current, next, values))
          if (Exit.isFailure(converted)) break
          const conversions = values.map((from, k) => ({ from, to: converted.value[k] ?? null }))
          yield* agree(label, (accountId) => PropertyValueStore.use((store) => store.convert(accountId, next, conversions)))
          flex = { ...flex, definition: next }
          break
        }
        case "drop": {
          const current = flex.definition
          if (current === undefined) {
            flex = { definition: flexDefinition(flex.generation + 1, "string"), generation: flex.generation + 1 }
            break
          }
          yield* agree(label, (accountId) => PropertyValueStore.use((store) => store.drop(accountId, current)))
          flex = { ...flex, definition: undefined }
          break
        }
        case "list": {
          const q = operation.query
          const flexFilter: ComplexFilters = q.kind === "deal" && flex.definition !== undefined && q.flexPresence !== undefined
            ? [{ _tag: "Condition", property: FLEX_NAME, type: flex.definition.type, operator: q.flexPresence }]
            : []
          if (q.order === FLEX_NAME && flex.definition === undefined) break
          yield* listOf(q.kind, {
            filters: [...q.filters, ...flexFilter],
            search: q.search,
            order: q.order,
            direction: q.direction,
            page: q.page,
            perPage: q.perPage
          })(label)
          break
        }
      }
    }

    // Whole lists in a few orders, everything both ways by creation, and which ids exist.
    for (const { kind, order, direction } of scenario.orderings) {
      if (order === FLEX_NAME && flex.definition === undefined) continue
      yield* listOf(kind, { order, direction })(`all ${kind} by ${order} ${direction}`)
    }
    for (const kind of KINDS) {
      for (const direction of ["asc", "desc"] as const) yield* listOf(kind, { direction })(`all ${kind} ${direction}`)
      yield* agree(`existing ${kind}`, (accountId) => RecordRepository.use((repo) => repo.existing(accountId, kind, POOL[kind])))
    }
  })


layer(repositoriesOn(TestDatabase.pglite), { excludeTestServices: true, timeout: "300 seconds" })("records in memory and on PGlite", (it) => {
  it.effect("the same operations give the same records, in the same order, with the same totals", () =>
    Effect.gen(function*() {
      const pg = yield* Effect.context<Services>()
      const check = (scenario: Scenario) =>
        Effect.runPromise(Effect.scoped(Effect.flatMap(Layer.build(repositoriesInMemory), (memory) => runScenario(pg, memory, scenario))))
      yield* Effect.promise(() => fc.assert(fc.asyncProperty(scenarioArb, check), { numRuns: 40 }))
    }), 300_000)
})
