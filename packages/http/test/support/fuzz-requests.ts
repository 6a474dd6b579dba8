/**
 * The request generator of the HTTP fuzz: every operation of the served OpenAPI document, sent
 * with path parameters, queries, bodies, content types and credentials drawn by fast-check from a
 * seed. Ids come from a pool the fuzz keeps up to date from the answers (what a POST created, what
 * a list showed, what a DELETE removed), so most requests reach real records of the account, some
 * reach records of another account, and the rest carry ids that name nothing.
 *
 * Bodies start from a valid body of the operation (from its request schema where the document
 * gives one; the record bodies from the kind's property definitions as the API lists them; a
 * written example where the document only describes the body in words) and are then mutated:
 * wrong types, missing and extra fields, huge strings, odd unicode, deep nesting, numbers and
 * dates out of range, malformed JSON, other content types.
 */
import fc from "fast-check"
import { FILTER_OPERATORS, isObjectPath, KIND_OF_PATH, PROPERTY_TYPES, REQUIRED_ON_CREATE } from "@wasl/core/Records"
import type { FuzzState, PropertyInfo } from "./fuzz-pool.ts"
import type { DocumentEnums, JsonSchema, Operation } from "./openapi-operations.ts"

/** An alternative of `fc.oneof` with its weight. */
type Weighted<T> = { readonly weight: number; readonly arbitrary: fc.Arbitrary<T> }

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>): Weighted<T> => ({ weight, arbitrary })

// ---------------------------------------------------------------------------------------------
// Leaves: strings, numbers, dates
// ---------------------------------------------------------------------------------------------

/** A number or other JSON literal written out as given (`1e400`), where JSON.stringify would refuse. */
export class RawJson {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/**
 * JSON text of a value that may hold RawJson leaves. The walk keeps its own stack (values nest
 * thousands deep, past what a recursive walk or JSON.stringify's replacer survives); punctuation
 * goes on that stack as RawJson text.
 */
export const toJsonText = (value: unknown): string => {
  const out: Array<string> = []
  const stack: Array<unknown> = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item instanceof RawJson) out.push(item.text)
    else if (item !== null && typeof item === "object") {
      const array = Array.isArray(item)
      const entries = array ? item.map((v) => [undefined, v] as const) : Object.entries(item)
      stack.push(new RawJson(array ? "]" : "}"))
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i]!
        stack.push(v)
        if (key !== undefined) stack.push(new RawJson(`${JSON.stringify(key)}:`))
        if (i > 0) stack.push(new RawJson(","))
      }
      stack.push(new RawJson(array ? "[" : "{"))
    } else out.push(JSON.stringify(item) ?? "null")
  }
  return out.join("")
}

/** Strings a field should survive: ordinary, odd, unicode, injection-like (at most a few thousand characters). */
const shortText: fc.Arbitrary<string> = fc.oneof(
  w(12, fc.string({ maxLength: 40 })),
  w(4, fc.string({ unit: "grapheme", maxLength: 30 })),
  w(3, fc.string({ unit: "binary", maxLength: 30 })),
  w(
    4,
    fc.constantFrom(
      "",
      " ",
      "null",
      "0",
      "-1",
      "true",
      "[]",
      "{}",
      "' OR '1'='1",
      "%_\\",
      "$where",
      "<script>alert(1)</script>",
      "\u202eevil",
      "\ufeffbom",
      "🏳️‍🌈👩‍👩‍👧",
      "\r\n\t",
      "ـ".repeat(300),
      "a".repeat(256),
      "a".repeat(2049)
    )
  ),
  // Text PostgreSQL cannot store: unpaired surrogates, NUL.
  w(2, fc.constantFrom("\ud800", "a\udc00b", "\udbff\udbff", "\u0000", "x\u0000y", "\u0000".repeat(10)))
)

/** Strings for bodies: the short ones, and now and then a huge one. */
const text: fc.Arbitrary<string> = fc.oneof(
  w(30, shortText),
  w(1, fc.integer({ min: 1_000, max: 120_000 }).map((n) => "x".repeat(n)))
)

/** Numbers in and out of every range a field may have. */
const number: fc.Arbitrary<unknown> = fc.oneof(
  w(4, fc.integer()),
  w(3, fc.double()),
  w(2, fc.constantFrom(0, -0, 1, -1, 0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 53 + 2), 1e308, -1e308, 5e-324, 2 ** 63)),
  w(2, fc.constantFrom("1e400", "-1e400", "1" + "0".repeat(400), "0." + "0".repeat(400) + "1", "-0.0", "1E-400").map((t) => new RawJson(t)))
)

const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, "0")

/** A date input in one of its forms, for the year given. */
const dateOfYear = (year: number): fc.Arbitrary<unknown> => {
  const sign = year < 0 ? "-" : year >= 10_000 ? "+" : ""
  const y = `${sign}${pad(year, sign === "" ? 4 : 6)}`
  // setUTCFullYear takes the year as given (Date.UTC would read 0 to 99 as 1900 to 1999).
  const epoch = new Date(0).setUTCFullYear(year, 5, 15)
  return fc.oneof(
    fc.constant(`${y}-06-15`),
    fc.constant(`${y}-06-15T12:30:00.000000Z`),
    fc.constant(`${y}-06-15T12:30:00+05:30`),
    fc.constant(epoch),
    fc.constant({ $date: { $numberLong: String(epoch) } })
  )
}

/** Dates, valid and not: odd calendars, odd forms, and years at and past the ends of the range. */
const date: fc.Arbitrary<unknown> = fc.oneof(
  w(5, fc.integer({ min: 1, max: 9_999 }).chain(dateOfYear)),
  w(
    3,
    fc.constantFrom(
      "2026-02-30",
      "2026-13-45",
      "2026-11-23T25:61:61Z",
      "not a date",
      "",
      "2026-11-23T00:00:00.000000000000Z",
      "1e400",
      "99999999999999999999",
      { $date: { $numberLong: "99999999999999999999" } },
      { $date: { $numberLong: "abc" } },
      { $date: "2026-01-01" },
      { $date: {} },
      8.64e15 + 1,
      -8.64e15 - 1,
      Number.MAX_SAFE_INTEGER
    )
  ),
  // Years outside 0001-9999, which PostgreSQL's date types or the wire format cannot hold.
  w(2, fc.oneof(fc.constantFrom(0, -1, 10_000, 275_760, -271_821), fc.integer({ min: -300_000, max: 300_000 })).chain(dateOfYear)),
  w(1, fc.constantFrom(8.64e15, -8.64e15, "0000-01-01", "+010000-01-01", "-000001-12-31T23:59:59Z"))
)

/** Any JSON value, nested a little. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  w(3, text),
  w(2, number),
  w(1, fc.boolean()),
  w(1, fc.constant(null)),
  w(1, date),
  w(1, fc.jsonValue({ maxDepth: 3 }))
)

/** A value nested `depth` arrays or objects deep. */
const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value }
  return value
}

/** Values of the wrong shape for any field: other types, deep nesting, many keys, prototype keys. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  w(6, anyJson),
  w(1, fc.integer({ min: 10, max: 5_000 }).map((depth) => nested(depth, 1))),
  w(1, fc.integer({ min: 100, max: 5_000 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])))),
  w(1, fc.integer({ min: 100, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => i))),
  w(1, fc.constantFrom(JSON.parse("{\"__proto__\":{\"admin\":true}}"), { constructor: { prototype: 1 } }, [[[]]], {}))
)

// ---------------------------------------------------------------------------------------------
// Valid bodies
// ---------------------------------------------------------------------------------------------

const pick = (ids: ReadonlyArray<string>, otherwise: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  ids.length === 0 ? otherwise : fc.oneof(w(4, fc.constantFrom(...ids)), w(1, otherwise))

const hex24 = fc.stringMatching(/^[0-9a-f]{24}$/)
const email = fc.emailAddress()
const webUrl = fc.webUrl()
const phone = fc.stringMatching(/^\+?[0-9]{6,15}$/)
const internalName = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/)
const optionName = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/)
const urlPath = fc.stringMatching(/^[a-z0-9/]{0,20}$/)
const displayNumber = fc.stringMatching(/^\+[0-9]{8,14}$/)
const providerId = fc.stringMatching(/^[0-9]{5,15}$/)
const recipient = fc.stringMatching(/^\+?[0-9]{6,20}$/)
const relayCode = fc.stringMatching(/^[A-Za-z0-9]{4,15}$/)
const managedCode = fc.stringMatching(/^[0-9]{6}$/)
const printable = fc.stringMatching(/^[ -~]{0,300}$/)
const localized = fc.record({ en: fc.string({ minLength: 1, maxLength: 30 }), ar: fc.string({ minLength: 1, maxLength: 30 }) }, {
  requiredKeys: ["en"]
})
const options = fc.uniqueArray(
  fc.record({ en: fc.string({ minLength: 1, maxLength: 20 }), ar: fc.string({ minLength: 1, maxLength: 20 }), internal_name: optionName }),
  { minLength: 1, maxLength: 4, selector: (o) => o.internal_name }
)

/** A value valid for a JSON Schema node of the document. */
const fromSchema = (schema: JsonSchema): fc.Arbitrary<unknown> => {
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map(fromSchema))
  switch (schema.type) {
    case "object": {
      if (schema.properties === undefined) return fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 3 })
      const fields = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, fromSchema(s)]))
      return fc.record(fields, { requiredKeys: [...(schema.required ?? [])] as Array<string> })
    }
    case "array":
      return fc.array(fromSchema(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5)
      })
    case "string":
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) })
    case "integer":
      return fc.integer({ min: Math.max(schema.minimum ?? -1e6, -1e6), max: Math.min(schema.maximum ?? 1e6, 1e6) })
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
    case "boolean":
      return fc.boolean()
    default:
      return anyJson
  }
}

/** A valid value of a property type (select options from the definition). */
const propertyValue = (property: PropertyInfo): fc.Arbitrary<unknown> => {
  const options = (property.enum ?? []).map((o) => o.internal_name)
  switch (property.type) {
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })
    case "boolean":
      return fc.boolean()
    case "date":
    case "datetime":
      return fc.integer({ min: 1, max: 9_999 }).chain(dateOfYear)
    case "single_select":
      return options.length === 0 ? fc.string() : fc.constantFrom(...options)
    case "multi_select":
      return options.length === 0 ? fc.constant([]) : fc.subarray(options)
    case "email":
      return email
    case "phone":
      return phone
    case "url":
      return webUrl
    default:
      return fc.string({ maxLength: 60 })
  }
}

/** A record body: some of the kind's properties, the name field always among them. */
const recordBody = (state: FuzzState, kind: string): fc.Arbitrary<unknown> => {
  const properties = state.properties.get(kind) ?? []
  if (properties.length === 0) return fc.dictionary(fc.string(), anyJson, { maxKeys: 4 })
  const fields = Object.fromEntries(properties.map((p) => [p.internal_name, propertyValue(p)]))
  const required = isObjectPath(kind) ? REQUIRED_ON_CREATE[KIND_OF_PATH[kind]] : []
  return fc.record(fields, { requiredKeys: [...required] })
}

const TEMPLATES = [
  { name: "login_code", category: "AUTHENTICATION", body: "{{1}} is your code.", buttons: [{ type: "OTP", text: "Copy" }] },
  { name: "order_update", category: "UTILITY", header: { format: "TEXT", text: "Order" }, body: "Shipped.", footer: "Wasl" },
  { name: "promo", category: "MARKETING", body: "Sale", code_expiration_minutes: 10 }
]

/** A records batch body `{ inputs }` of a few inputs (the 100-input bound is the batch tests'). */
const batchOf = (input: fc.Arbitrary<unknown>): fc.Arbitrary<{ inputs: Array<unknown> }> =>
  fc.array(input, { minLength: 1, maxLength: 4 }).map((inputs) => ({ inputs }))

/**
 * A valid body of an operation. The document describes most bodies in words only (`{ body: string }`),
 * so those are written here after its descriptions; the rest come from its schema.
 */
const validBody = (
  state: FuzzState,
  enums: DocumentEnums,
  operation: Operation,
  path: ReadonlyArray<string>
): fc.Arbitrary<unknown> => {
  const kind = path[2] ?? "deals"
  const ids = (collection: string) => pick(state.own.in(collection), hex24)
  const idList = (collection: string) => fc.array(ids(collection), { minLength: 1, maxLength: 4 })
  switch (operation.id) {
    case "records.create":
    case "records.update":
      return recordBody(state, kind)
    case "records.batchCreate":
      return batchOf(recordBody(state, kind).map((properties) => ({ properties })))
    case "records.batchUpdate": {
      // Every input must name a record for the batch to pass: the account's ids only, when it has some.
      const own = state.own.in(`/api/${kind}`)
      const id = own.length === 0 ? hex24 : fc.constantFrom(...own)
      return batchOf(fc.record({ id, properties: recordBody(state, kind) }))
    }
    case "records.batchDelete":
      return batchOf(fc.record({ id: ids(`/api/${kind}`) }))
    case "records.batchUpsert": {
      // Matched by a text property (an email's or a name's value), as upserts are used.
      const keys = (state.properties.get(kind) ?? []).filter((p) => p.type === "email" || p.type === "string")
      if (keys.length === 0) return batchOf(fc.record({ id: fc.string(), properties: recordBody(state, kind) }))
      return fc.constantFrom(...keys).chain((key) =>
        batchOf(fc.record({ id: propertyValue(key), properties: recordBody(state, kind) })).map((body) => ({ id_property: key.internal_name, ...body }))
      )
    }
    case "notes.create":
    case "notes.update":
      return fc.record({ body: fc.string({ minLength: 1, maxLength: 200 }) })
    case "properties.createGroup":
    case "properties.updateGroup":
      return fc.record({ name: localized, desc: localized }, { requiredKeys: ["name"] })
    case "properties.create":
    case "properties.update":
      // `enum` only for the select types; `internal_name` only on create (an update may not change it).
      return fc.tuple(
        fc.constantFrom(...PROPERTY_TYPES),
        fc.record({ name: localized, desc: localized, group_id: ids(`/api/${kind}/properties/groups`) }, { requiredKeys: ["name", "group_id"] }),
        internalName,
        options
      ).map(([type, fields, internal_name, enumOptions]) => ({
        type,
        ...fields,
        ...(operation.id === "properties.create" ? { internal_name } : {}),
        ...(type.endsWith("_select") ? { enum: enumOptions } : {})
      }))
    case "webhooks.create":
    case "webhooks.update":
      return fc.record({
        URL: fc.oneof(
          w(4, urlPath.map((p) => `https://localhost/${p}`)),
          w(1, fc.constantFrom("http://localhost/x", "https://127.0.0.1/x", "https://[::1]/", "https://169.254.169.254/latest", "ftp://x", "https://", "localhost")),
          w(1, webUrl)
        ),
        events: fc.subarray([...enums.events], { minLength: 1, maxLength: 5 })
      })
    case "webhooks.activate":
      return fc.record({ is_active: fc.boolean() })
    case "notifications.preferences":
      return fc.record({
        name: fc.constantFrom(...enums.notifications),
        stored: fc.boolean(),
        popup: fc.boolean(),
        browser: fc.boolean(),
        email: fc.boolean()
      })
    case "messaging.createPlatform":
      return fc.record({
        name: fc.string({ minLength: 1, maxLength: 30 }),
        display_phone_number: displayNumber,
        provider: fc.constantFrom("sandbox", "sandbox", "sandbox", "whatsapp_cloud"),
        phone_id: providerId,
        waba_id: providerId,
        access_token: fc.constant(state.cloudToken)
      }, { requiredKeys: ["name", "display_phone_number", "provider"] })
    case "messaging.createBroadcast":
      return fc.record({
        name: fc.string({ minLength: 1, maxLength: 30 }),
        language: fc.constantFrom("en", "ar", "en_US"),
        platform_id: pick(state.own.in("/api/platforms"), fc.nat().map(String)).map(Number),
        template: fc.constantFrom(...TEMPLATES)
      })
    case "messaging.send":
      return fc.record({ contact_id: ids("/api/contacts") })
    case "otp.sendOtp":
      return fc.oneof(
        fc.record({ contact_id: ids("/api/contacts") }),
        fc.record({ to: recipient, code: relayCode }, { requiredKeys: ["to"] })
      )
    case "otp.verify":
      return fc.record({ code: managedCode })
    case "recordLinks.dealAttachContacts":
    case "recordLinks.ticketAttachContacts":
      return fc.record({ contact_ids: idList("/api/contacts") })
    case "recordLinks.dealAttachTickets":
      return fc.record({ ticket_ids: idList("/api/tickets") })
    case "recordLinks.ticketAttachDeals":
      return fc.record({ deal_ids: idList("/api/deals") })
    case "recordLinks.dealDetachContact":
      return fc.record({ contact_id: ids("/api/contacts") })
    case "recordLinks.dealDetachTicket":
      return fc.record({ ticket_id: ids("/api/tickets") })
    case "recordLinks.ticketDetachContact":
      return fc.oneof(fc.record({ contact_id: ids("/api/contacts") }), fc.record({ deal_id: ids("/api/deals") }))
    case "recordLinks.ticketDetachDeal":
      return fc.record({ deal_id: ids("/api/deals") })
    case "auth.login":
      return fc.record({
        email: fc.oneof(fc.constant(state.email), email),
        password: fc.oneof(fc.constant(state.password), fc.string({ maxLength: 20 }))
      })
    default:
      return operation.body === undefined ? fc.constant(undefined) : fromSchema(operation.body)
  }
}

// ---------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------

type Path = ReadonlyArray<string | number>

/** The paths of a value's nodes, the root first; a mutation picks one (the first few levels and entries). */
const pathsOf = (value: unknown, prefix: Path = []): Array<Path> => {
  if (value === null || typeof value !== "object" || value instanceof RawJson || prefix.length >= 6) return [prefix]
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value)
  return [prefix, ...entries.slice(0, 20).flatMap(([k, v]) => pathsOf(v, [...prefix, k]))]
}

/** A shallow copy of an array or object; a `__proto__` key stays an own key. */
const shallow = (node: object): any => Array.isArray(node) ? [...node] : Object.fromEntries(Object.entries(node))

/** Sets an own key, even `__proto__` (an assignment would set the prototype). */
const setOwn = (node: object, key: string | number, value: unknown): object =>
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true })

/**
 * `value` with the node at `path` replaced by `replace(node)` (or removed when it gives undefined).
 * Only the nodes along the path are copied: the rest is shared, however deep.
 */
const updateAt = (value: unknown, path: Path, replace: (node: unknown) => unknown): unknown => {
  if (path.length === 0) return replace(value)
  const [key, ...rest] = path as [string | number, ...Array<string | number>]
  const copy = shallow(value as object)
  const next = updateAt(copy[key], rest, replace)
  if (next !== undefined) return setOwn(copy, key, next)
  if (Array.isArray(copy)) copy.splice(Number(key), 1)
  else delete copy[key]
  return copy
}

type Mutation = (value: unknown) => fc.Arbitrary<unknown>

/** A mutation of one node of the value, drawn among all its nodes (the root included). */
const atRandomPath = (f: (node: unknown) => fc.Arbitrary<unknown>): Mutation => (value) =>
  fc.constantFrom(...pathsOf(value)).chain((path) => {
    let node: unknown = value
    for (const k of path) node = (node as any)[k]
    return f(node).map((replacement) => updateAt(value, path, () => replacement))
  })

const MUTATIONS: ReadonlyArray<Weighted<Mutation>> = [
  // A field (or the whole body) of another type or shape.
  w(5, fc.constant(atRandomPath(() => wrongValue))),
  // A field taken away.
  w(2, fc.constant((value: unknown) => {
    const paths = pathsOf(value).filter((p) => p.length > 0)
    return paths.length === 0 ? fc.constant(value) : fc.constantFrom(...paths).map((p) => updateAt(value, p, () => undefined))
  })),
  // A field the schema does not name.
  w(2, fc.constant((value: unknown) =>
    fc.tuple(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("__proto__", "constructor", "_id", "account_id", "id", "created_at", "is_validated", "k".repeat(500))), wrongValue)
      .map(([key, extra]) =>
        value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof RawJson)
          ? setOwn(shallow(value), key, extra)
          : value
      )
  )),
  // A field's value buried deep.
  w(1, fc.constant(atRandomPath((node) => fc.integer({ min: 2, max: 2_000 }).map((depth) => nested(depth, node)))))
]

/** The text of a body: the value mutated zero to three times, then now and then broken as text. */
const bodyText = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> =>
  fc.tuple(valid, fc.array(fc.oneof(...MUTATIONS), { maxLength: 3 }), fc.boolean()).chain(([value, mutations, clean]) => {
    const mutated = (clean ? [] : mutations).reduce<fc.Arbitrary<unknown>>(
      (acc, mutation) => acc.chain(mutation),
      fc.constant(value)
    )
    return mutated.chain((v) => {
      const json = toJsonText(v)
      return fc.oneof(
        w(60, fc.constant(json)),
        w(1, fc.nat({ max: Math.max(json.length - 1, 0) }).map((n) => json.slice(0, n))),
        w(1, fc.constantFrom("", "{", "}", "[", "nul", "{\"a\":}", "{\"a\":1,}", "\ufeff{}", "{\"a\":1,\"a\":2}", "'x'", "NaN", "12", "\"x\"", "null", "true").map((s) => s)),
        w(1, fc.constant(json + "garbage")),
        w(1, fc.constant(`{"a":"${"x".repeat(1_100_000)}"}`))
      )
    })
  })

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/** A complex_filters node: a condition, an or-group, or something that is neither. */
const conditionOf = (state: FuzzState, kind: string): fc.Arbitrary<Record<string, unknown>> => {
  const names = (state.properties.get(kind) ?? []).map((p) => p.internal_name)
  return fc.record({
    property: fc.oneof(w(5, names.length === 0 ? fc.string() : fc.constantFrom(...names, "contact_ids")), w(1, anyJson)),
    operator: fc.oneof(w(5, fc.constantFrom(...FILTER_OPERATORS)), w(1, anyJson)),
    value: fc.oneof(
      w(3, anyJson),
      w(2, date),
      w(1, fc.array(anyJson, { maxLength: 4 })),
      w(1, fc.array(number, { minLength: 2, maxLength: 2 })),
      w(1, fc.integer({ min: 95, max: 130 }).map((n) => Array.from({ length: n }, (_, i) => i))),
      w(1, fc.array(hex24, { maxLength: 3 }))
    )
  }, { requiredKeys: [] })
}

/** A filter tree; `depth` is how many or-groups nest (one is all the language allows). */
const filterTree = (state: FuzzState, kind: string, depth: number): fc.Arbitrary<unknown> => {
  const condition = conditionOf(state, kind)
  const node = (level: number): fc.Arbitrary<unknown> =>
    level === 0
      ? condition
      : fc.oneof(condition, fc.array(node(level - 1), { minLength: 1, maxLength: 3 }).map((or) => ({ or })))
  return fc.array(node(depth), { maxLength: 25 })
}

/** The chain of `depth` nested or-groups around one condition (the deepest level reached for sure). */
const deepFilter = (state: FuzzState, kind: string, depth: number): fc.Arbitrary<unknown> =>
  conditionOf(state, kind).map((condition) => {
    let node: unknown = condition
    for (let i = 0; i < depth; i++) node = { or: [node] }
    return [node]
  })

/** Bracket notation of a filter value (`complex_filters[0][or][0][property]=amount`). */
const bracketPairs = (value: unknown, name = "complex_filters"): Array<[string, string]> => {
  if (value === null || typeof value !== "object") return [[name, value === null ? "" : String(value)]]
  if (value instanceof RawJson) return [[name, value.text]]
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
  if (entries.length === 0) return [[`${name}[]`, ""]]
  return entries.flatMap(([k, v]) => bracketPairs(v, `${name}[${k}]`))
}

interface Query {
  readonly pairs: ReadonlyArray<readonly [string, string]>
  /** Whether its complex_filters nest or-groups (never answered 2xx). */
  readonly tooDeep: boolean
}

const scalarParam = (valid: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    w(4, valid),
    w(1, fc.constantFrom("", "0", "-1", "1.5", "1e3", "99999999999999999999", "abc", " 2", "0x10", "NaN", "Infinity")),
    w(1, shortText)
  )

/** The query pairs of the named parameters that are not null, in order. */
const present = (params: Readonly<Record<string, string | null>>): Array<readonly [string, string]> =>
  Object.entries(params).flatMap(([name, value]) => value === null ? [] : [[name, value] as const])

/**
 * The query of a list request: valid ones (so lists are really read), and fuzzed ones. `filtered`:
 * whether the list reads complex_filters (the record lists), so nesting or-groups must be refused.
 */
const listQuery = (state: FuzzState, kind: string, filtered: boolean): fc.Arbitrary<Query> => {
  const names = (state.properties.get(kind) ?? []).map((p) => p.internal_name)
  const valid = fc.record({
    page: fc.option(fc.integer({ min: 1, max: 3 }).map(String), { freq: 1 }),
    per_page: fc.option(fc.integer({ min: 1, max: 100 }).map(String), { freq: 1 }),
    search: fc.option(fc.string({ maxLength: 5 }), { freq: 1 }),
    order: fc.option(fc.constantFrom("created_at", "updated_at", ...names), { freq: 1 }),
    direction: fc.option(fc.constantFrom("asc", "desc"), { freq: 1 }),
    complex_filters: fc.option(
      fc.constantFrom(...names, "created_at").map((property) => toJsonText([{ property, operator: "is_not_empty" }])),
      { freq: 2 }
    )
  }).map((params): Query => ({ pairs: present(params), tooDeep: false }))
  // Mostly trees of up to two or-levels; now and then one chain of 2 to 40 (bracket names of 6 to 82 levels).
  const tree = fc.oneof(
    w(10, fc.nat({ max: 2 }).chain((depth) => filterTree(state, kind, depth))),
    w(1, fc.integer({ min: 2, max: 40 }).chain((depth) => deepFilter(state, kind, depth)))
  )
  const filters = fc.tuple(tree, fc.boolean()).map(([tree, bracket]) => ({ tree, bracket, depth: orDepth(tree) }))
  const fuzzed = fc.record({
    page: fc.option(scalarParam(fc.integer({ min: 1, max: 5 }).map(String))),
    per_page: fc.option(scalarParam(fc.integer({ min: 1, max: 100 }).map(String))),
    search: fc.option(shortText),
    order: fc.option(scalarParam(fc.constantFrom("created_at", "updated_at", ...names))),
    direction: fc.option(scalarParam(fc.constantFrom("asc", "desc", "ASC", "Desc"))),
    filters: fc.option(filters),
    extra: fc.array(
      fc.tuple(
        fc.constantFrom("page[]", "order[]", "direction[x]", "search[a]", "per_page[]", "complex_filters[]", "x", "_", "complex_filters[0][value][][]"),
        fc.string({ maxLength: 10 })
      ),
      { maxLength: 2 }
    )
  }).map(({ extra, filters, ...params }): Query => {
    const pairs = present(params)
    if (filters !== null) {
      pairs.push(...(filters.bracket ? bracketPairs(filters.tree) : [["complex_filters", toJsonText(filters.tree)] as const]))
    }
    pairs.push(...extra)
    return { pairs, tooDeep: filtered && filters !== null && filters.depth > 1 }
  })
  return fc.oneof(w(3, valid), w(4, fuzzed), w(1, fc.constant({ pairs: [], tooDeep: false })))
}

/** How many or-groups nest at the deepest point of a filter tree. */
const orDepth = (value: unknown): number => {
  if (Array.isArray(value)) return Math.max(0, ...value.map(orDepth))
  const or = value !== null && typeof value === "object" ? (value as { or?: unknown }).or : undefined
  // An empty `or` is no group (Laravel's `required` sees no value there).
  if (Array.isArray(or) && or.length > 0) return 1 + orDepth(or)
  return 0
}

/**
 * Node answers a request line over 16 KiB itself, with a 431 and no body, before the app sees it:
 * queries are kept under this many characters (the last pairs left out).
 */
const QUERY_LIMIT = 10_000

/**
 * A query string from pairs, and whether it holds them all (the last are left out past the limit);
 * a lone surrogate, which percent-encoding cannot carry, goes as U+FFFD.
 */
const queryString = (pairs: ReadonlyArray<readonly [string, string]>): { readonly text: string; readonly whole: boolean } => {
  const encoded = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`)
  while (encoded.join("&").length > QUERY_LIMIT) encoded.pop()
  return { text: encoded.join("&"), whole: encoded.length === pairs.length }
}

const encode = (s: string): string => encodeURIComponent(s.toWellFormed())

// ---------------------------------------------------------------------------------------------
// Path parameters
// ---------------------------------------------------------------------------------------------

/** Values of a path parameter that name nothing: garbage, absent ids, very long, broken escapes. */
const garbageParam: fc.Arbitrary<string> = fc.oneof(
  w(3, fc.string({ minLength: 1, maxLength: 30 }).map(encode)),
  w(2, hex24),
  w(2, fc.constantFrom("0", "-1", "1.5", "1e3", "9007199254740993", "99999999999999999999999", "00000000000000000000000g", "null", "undefined", "%20", "...", "a%2Fb", "%C3%A9")),
  w(1, fc.string({ unit: "grapheme", minLength: 1, maxLength: 10 }).map(encode)),
  // Escapes that do not decode (a lone surrogate's UTF-8 among them), and ids far longer than any.
  w(2, fc.constantFrom("%", "%zz", "%E0%A4", "%C0%AF", "%ED%A0%80", "%FF%FE", "abc%", "%%41")),
  w(1, fc.integer({ min: 100, max: 2_000 }).map((n) => "a".repeat(n))),
  w(1, fc.integer({ min: 25, max: 500 }).map((n) => "f".repeat(n)))
)

/** A value for the path parameter whose ids live in `collection`. */
interface Param {
  readonly value: string
  /** Whether it names a record of the other account only (built-in properties and groups both see). */
  readonly foreign: boolean
}

const param = (foreign: boolean) => (value: string): Param => ({ value, foreign })

const idParam = (state: FuzzState, collection: string): fc.Arbitrary<Param> => {
  const own = state.own.in(collection)
  const shared = new Set(own)
  const foreign = state.foreign.in(collection).filter((id) => !shared.has(id))
  const everywhere = state.own.all()
  const foreignAnywhere = state.foreign.all()
  return fc.oneof(
    ...(own.length > 0 ? [w(8, fc.constantFrom(...own).map(param(false)))] : []),
    ...(foreign.length > 0 ? [w(2, fc.constantFrom(...foreign).map(param(true)))] : []),
    ...(foreignAnywhere.length > 0 ? [w(1, fc.constantFrom(...foreignAnywhere).map(param(false)))] : []),
    ...(everywhere.length > 0 ? [w(1, fc.constantFrom(...everywhere).map(param(false)))] : []),
    w(2, garbageParam.map(param(false)))
  )
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** One request of the fuzz, ready to send, with what the oracles need to know of it. */
export interface FuzzRequest {
  /** The operation it was made from (`POST /api/{kind}`), or that with another method. */
  readonly operation: string
  readonly method: string
  /** The path and query, encoded. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  /** How it authenticates: the all-abilities token, none, or credentials that are not valid. */
  readonly credentials: "token" | "none" | "bad"
  /** Whether the path template declares the method (so a 405 would be wrong). */
  readonly declared: boolean
  readonly secured: boolean
  /** Whether its complex_filters nest or-groups (never answered 2xx). */
  readonly tooDeep: boolean
  /** Whether its path names a record of another account (never answered 2xx). */
  readonly foreign: boolean
  /** The operationId. */
  readonly operationId: string
}

const CONTENT_TYPES: ReadonlyArray<Weighted<string | undefined>> = [
  w(30, fc.constant("application/json")),
  w(2, fc.constant("application/json; charset=utf-8")),
  w(1, fc.constant("APPLICATION/JSON")),
  w(2, fc.constant(undefined)),
  w(1, fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "application/xml", "multipart/form-data; boundary=x", "multipart/form-data", "application/octet-stream", "", "json", "application/jsonp", "application/json; charset=latin1")),
  w(1, fc.constantFrom("application/vnd.api+json", "application/merge-patch+json", "application/problem+json"))
]

const BAD_AUTHORIZATION = fc.oneof(
  fc.constantFrom("Bearer", "Bearer ", "Bearer x", "Basic YTpi", "bearer 1|abc", "Bearer 1|" + "a".repeat(40), "Bearer 0|" + "a".repeat(40), "Bearer 99999999999999999999|x", "Bearer |", "Token x", "Bearer " + "a".repeat(2_000)),
  fc.stringMatching(/^[ -~]{0,60}$/).map((s) => `Bearer ${s}`)
)

const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const

/**
 * The methods declared on the route a concrete path reaches. A drawn parameter can turn one
 * template's path into another's (`accounts` for `{kind}` reaches `/api/accounts`), and the router
 * prefers a literal segment to a parameter, position by position; so does this.
 */
const methodsAt = (operations: ReadonlyArray<Operation>, path: ReadonlyArray<string>): ReadonlyArray<string> => {
  const shapeOf = (template: string): string | undefined => {
    const segments = template.split("/")
    if (segments.length !== path.length) return undefined
    let shape = ""
    for (const [i, segment] of segments.entries()) {
      if (/^\{.+\}$/.test(segment)) shape += "1"
      else if (segment === path[i]) shape += "0"
      else return undefined
    }
    return shape
  }
  const reached = operations
    .map((o) => ({ o, shape: shapeOf(o.template) }))
    .filter((m): m is { o: Operation; shape: string } => m.shape !== undefined)
  const best = reached.map((m) => m.shape).sort()[0]
  return reached.filter((m) => m.shape === best).map((m) => m.o.method)
}

/** What one request is made of, drawn for an operation. */
const requestOf = (
  state: FuzzState,
  enums: DocumentEnums,
  operations: ReadonlyArray<Operation>,
  token: string
): fc.Arbitrary<FuzzRequest> =>
  fc.constantFrom(...operations).chain((operation) => {
    // Path parameters are drawn one after the other: an id's collection depends on the kind before it.
    const templateSegments = operation.template.split("/")
    type Drawn = { readonly path: ReadonlyArray<string>; readonly foreign: boolean }
    const segments = templateSegments.reduce<fc.Arbitrary<Drawn>>(
      (acc, segment) =>
        acc.chain((done) => {
          const name = /^\{(.+)\}$/.exec(segment)?.[1]
          if (name === undefined) return fc.constant({ ...done, path: [...done.path, segment] })
          const values = operation.enums[name]
          const value = values !== undefined
            ? fc.oneof(
              w(12, fc.constantFrom(...values)),
              w(1, fc.constantFrom("Deals", "deal", "users", "accounts", "properties", "%64eals")),
              w(1, garbageParam)
            ).map(param(false))
            : idParam(state, done.path.join("/"))
          return value.map((v): Drawn => ({ path: [...done.path, v.value], foreign: done.foreign || v.foreign }))
        }),
      fc.constant({ path: [], foreign: false })
    )
    return segments.chain(({ path, foreign }) => {
      const declaredMethods = methodsAt(operations, path)
      const kind = operation.enums["kind"] !== undefined ? path[2]! : ""
      const hasBody = operation.method !== "GET"
      return fc.record({
        method: fc.oneof(w(30, fc.constant(operation.method)), w(1, fc.constantFrom(...OTHER_METHODS))),
        trailingSlash: fc.oneof(w(12, fc.constant(false)), w(1, fc.constant(true))),
        query: operation.paginated
          ? listQuery(state, kind === "" ? "deals" : kind, operation.template === "/api/{kind}")
          : fc.oneof(w(8, fc.constant({ pairs: [], tooDeep: false })), w(1, fc.array(fc.tuple(fc.string({ maxLength: 10 }), shortText), { maxLength: 3 }).map((pairs) => ({ pairs, tooDeep: false })))),
        body: hasBody
          ? fc.oneof(w(12, bodyText(validBody(state, enums, operation, path))), w(1, fc.constant(undefined)))
          : fc.constant(undefined),
        contentType: fc.oneof(...CONTENT_TYPES),
        credentials: fc.oneof(w(18, fc.constant("token" as const)), w(1, fc.constant("none" as const)), w(1, fc.constant("bad" as const))),
        badAuthorization: BAD_AUTHORIZATION,
        idempotencyKey: fc.oneof(w(8, fc.constant(undefined)), w(2, fc.uuid()), w(1, printable)),
        accept: fc.oneof(w(10, fc.constant("application/json")), w(1, fc.constantFrom("text/html", "*/*", "application/xml")))
      }).map((drawn): FuzzRequest => {
        const method = drawn.method
        const sendsBody = method !== "GET" && drawn.body !== undefined
        const headers: Record<string, string> = { accept: drawn.accept }
        if (drawn.credentials === "token") headers["authorization"] = `Bearer ${token}`
        if (drawn.credentials === "bad") headers["authorization"] = drawn.badAuthorization
        if (sendsBody && drawn.contentType !== undefined) headers["content-type"] = drawn.contentType
        if (drawn.idempotencyKey !== undefined) headers["idempotency-key"] = drawn.idempotencyKey
        const pathText = path.join("/") + (drawn.trailingSlash ? "/" : "")
        const query = queryString(drawn.query.pairs)
        return {
          operation: `${method} ${operation.template}`,
          operationId: operation.id,
          method,
          url: query.text === "" ? pathText : `${pathText}?${query.text}`,
          headers,
          body: sendsBody ? drawn.body : undefined,
          credentials: drawn.credentials,
          declared: declaredMethods.includes(method),
          secured: operation.secured,
          // The list reads the filters only when asked with its own method (a POST there creates),
          // and only those the query kept.
          tooDeep: drawn.query.tooDeep && query.whole && method === operation.method,
          foreign
        }
      })
    })
  })

/** The seed of the suite: WASL_FUZZ_SEED, or a fixed default so a run can be repeated. */
export const fuzzSeed = (): number => {
  const raw = process.env["WASL_FUZZ_SEED"]
  const seed = raw === undefined || raw === "" ? 20261123 : Number(raw)
  if (!Number.isSafeInteger(seed)) throw new Error(`WASL_FUZZ_SEED must be an integer, got ${raw}`)
  return seed
}

/**
 * The `index`-th request of a run: drawn from the seed and the index, over the pools as they are
 * now (so a run is repeatable up to the ids the server makes).
 */
export const nthRequest = (
  state: FuzzState,
  enums: DocumentEnums,
  operations: ReadonlyArray<Operation>,
  token: string,
  seed: number,
  index: number
): FuzzRequest => fc.sample(requestOf(state, enums, operations, token), { seed: (seed ^ Math.imul(index + 1, 0x9e3779b1)) | 0, numRuns: 1 })[0]!

