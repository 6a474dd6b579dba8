/**
 * Malformed input is a 4xx, never a 500: odd query shapes, out-of-range values,
 * oversized strings, prototype keys, NUL characters and lone surrogates (PostgreSQL text cannot
 * hold them, so the boundary answers 422 on `query` or on the body's field before anything is
 * stored), undecodable paths, odd content types.
 */
import {
  BUILTIN_GROUPS,
  CONTACT_IDS_FILTER,
  type FilterableProperty,
  filterablePropertiesOf,
  KIND_OF_PATH,
  OBJECT_PATHS,
  operatorsFor,
  PROPERTY_TYPES,
  TIMESTAMP_FILTER_PROPERTIES
} from "@wasl/core/Records"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const filters = (value: unknown) => `complex_filters=${encodeURIComponent(JSON.stringify(value))}`

const QUERIES = [
  "complex_filters[0][value][][]=x",
  "complex_filters[0][or][0][or][0][property]=amount",
  "per_page=1e3",
  "page=99999999999999999999",
  "order[]=x",
  "direction[]=asc",
  "search[a]=b",
  filters([{ property: "amount", operator: "between", value: [1] }]),
  filters([{ property: "close_date", operator: "gt", value: "not a date" }]),
  filters([{ property: "amount", operator: "in", value: Array(200).fill(1) }]),
  filters([{ property: "contact_ids", operator: "in", value: ["zz"] }]),
  filters({ a: 1 }),
  "complex_filters=%5B%7B%22property%22%3A%22amount%22%2C%22operator%22%3A%22gt%22%2C%22value%22%3A1e400%7D%5D",
  "search=" + encodeURIComponent("%_\\'\""),
  "search=" + "a".repeat(5000)
]

const BODIES: ReadonlyArray<string> = [
  JSON.stringify({ deal_name: { a: 1 } }),
  JSON.stringify({ deal_name: "x", amount: "1e400" }),
  JSON.stringify({ deal_name: "x", close_date: "2026-13-45" }),
  JSON.stringify({ deal_name: "x", close_date: { $date: { $numberLong: "99999999999999999999" } } }),
  JSON.stringify({ deal_name: "x".repeat(100_000) }),
  "{\"__proto__\":{\"a\":1},\"deal_name\":\"x\"}",
  JSON.stringify({ deal_name: "x", deal_stage: ["closed_won"] }),
  JSON.stringify({ constructor: "x" })
]

describe.each(DATABASES)("malformed input on %s", (database) => {
  let server: TestServer
  let token: string
  let deal: string

  beforeAll(async () => {
    server = await startTestServer(database)
    token = (await server.bootstrap({ email: "malformed@example.test", password: "pw" })).token
    deal = (await server.request("POST", "/api/deals", { token, body: { deal_name: "x" } })).body.data.properties._id
  })
  afterAll(async () => {
    await server?.close()
  })

  it("list queries of odd shapes answer 200 or 422, never 500", async () => {
    for (const query of QUERIES) {
      for (const path of ["/api/deals", "/api/contacts", `/api/deals/${deal}/notes`]) {
        const reply = await server.request("GET", `${path}?${query}`, { token })
        expect([200, 422], `${path}?${query.slice(0, 80)}`).toContain(reply.status)
      }
    }
  })

  it("bodies of odd shapes answer 2xx or 422, never 500", async () => {
    for (const raw of BODIES) {
      for (
        const [method, path] of [
          ["POST", "/api/deals"],
          ["PUT", `/api/deals/${deal}`],
          ["POST", `/api/deals/${deal}/attach-contacts`],
          ["POST", `/api/deals/${deal}/notes`],
          ["POST", "/api/deals/properties"]
        ] as const
      ) {
        const reply = await server.request(method, path, { token, raw })
        expect(reply.status, `${method} ${path} ${raw.slice(0, 80)}`).toBeLessThan(500)
      }
    }
  })

  it("a path parameter that cannot be decoded or is over 100 characters is a 404, not a 405", async () => {
    for (const id of ["%ED%A0%80", "%zz", "%FF", "a".repeat(101), "%61".repeat(101)]) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const reply = await server.request(method, `/api/deals/${id}`, { token, ...(method === "PUT" ? { body: {} } : {}) })
        expect(reply.status, `${method} ${id.slice(0, 20)}`).toBe(404)
        expect(reply.body).toEqual({ message: "Not found." })
        expect(reply.headers.get("allow")).toBeNull()
      }
      const notes = await server.request("GET", `/api/deals/${deal}/notes/${id}`, { token })
      expect(notes.status).toBe(404)
    }
    // At the limit it is still a route: an unknown id of 100 characters.
    expect((await server.request("GET", `/api/deals/${"a".repeat(100)}`, { token })).status).toBe(404)
    expect((await server.request("PATCH", `/api/deals/${"a".repeat(100)}`, { token })).status).toBe(405)
  })

  it("takes any +json content type as JSON; any other type is a 415 with the JSON error body", async () => {
    for (const type of ["application/vnd.api+json", "application/merge-patch+json; charset=utf-8", "APPLICATION/JSON"]) {
      const reply = await server.request("POST", "/api/deals", { token, body: { deal_name: "typed" }, headers: { "content-type": type } })
      expect(reply.status, type).toBe(201)
      expect(reply.body.data.properties.deal_name).toBe("typed")
    }
    for (const [type, raw] of [["text/plain", "deal_name=x"], ["application/xml", "<a/>"], ["text/plain", ""]] as const) {
      const reply = await server.request("POST", "/api/deals", { token, raw, headers: { "content-type": type } })
      expect(reply.status, `${type} ${raw}`).toBe(415)
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/)
      expect(reply.body).toEqual({ message: "The content type is not supported." })
    }
  })

  it("complex_filters nested deeper than 64 levels is a 422, not an unfiltered list", async () => {
    const message = "The complex filters field must not be nested more than 64 levels deep."
    for (const path of ["/api/deals", "/api/contacts"]) {
      const reply = await server.request("GET", `${path}?complex_filters${"[0]".repeat(65)}=x`, { token })
      expect(reply.status, path).toBe(422)
      expect(reply.body).toEqual({ message, errors: { complex_filters: [message] } })
    }
  })

  it("complex_filters nested deeper than 64 levels, as lists or as or-groups, is the list's 422 on every path", async () => {
    const message = "The complex filters field must not be nested more than 64 levels deep."
    const tooDeep = { message, errors: { complex_filters: [message] } }
    const condition = "{\"property\":\"deal_name\",\"operator\":\"eq\",\"value\":\"x\"}"
    /** `levels` lists around one condition, or `levels` or-groups (JSON texts: JSON.stringify would itself overflow). */
    const lists = (levels: number) => "[".repeat(levels) + condition + "]".repeat(levels)
    const ors = (levels: number) => "[" + "{\"or\":[".repeat(levels) + condition + "]}".repeat(levels) + "]"
    // The list: JSON in the query (as long as a URL can be), and bracket notation.
    for (const path of ["/api/deals", "/api/contacts"]) {
      for (const query of [lists(5000), ors(1000), lists(64)]) {
        const reply = await server.request("GET", `${path}?complex_filters=${query}`, { token })
        expect(reply.status, `${path} ${query.slice(0, 20)} (${query.length})`).toBe(422)
        expect(reply.body).toEqual(tooDeep)
      }
      for (const name of ["[0]".repeat(4000), "[0][or]".repeat(1500) + "[0][property]"]) {
        const reply = await server.request("GET", `${path}?complex_filters${name}=x`, { token })
        expect(reply.status, `${path} ${name.slice(0, 20)}`).toBe(422)
        expect(reply.body).toEqual(tooDeep)
      }
      // 64 levels are kept: the list refuses the shape for what it is, not for its depth.
      const kept = await server.request("GET", `${path}?complex_filters=${lists(63)}`, { token })
      expect(kept.status).toBe(422)
      expect(kept.body.errors.complex_filters).toBeUndefined()
    }
    // An export's body: complex_filters as JSON, or as the JSON text the list takes.
    for (const filters of [lists(5000), ors(5000), lists(64)]) {
      for (const raw of [`{"complex_filters":${filters}}`, `{"complex_filters":${JSON.stringify(filters)}}`]) {
        const reply = await server.request("POST", "/api/deals/exports", { token, raw })
        expect(reply.status, `${raw.slice(0, 30)} (${raw.length})`).toBe(422)
        expect(reply.body).toEqual(tooDeep)
      }
    }
    expect((await server.query("SELECT count(*)::int AS n FROM exports"))[0].n).toBe(0)
  })

  it("a JSON body nesting 5,000 levels deep is a 422 on the field nesting too deep, wherever it goes", async () => {
    const deep = "[".repeat(5000) + "]".repeat(5000)
    const paths = [
      ["POST", "/api/deals"],
      ["PUT", `/api/deals/${deal}`],
      ["POST", "/api/deals/batch/create"],
      ["POST", "/api/deals/properties"],
      ["POST", "/api/tokens"],
      ["POST", "/api/account/webhooks"]
    ] as const
    for (const [method, path] of paths) {
      const field = await server.request(method, path, { token, raw: `{"deal_name":"x","inputs":${deep}}` })
      expect(field.status, `${method} ${path}`).toBe(422)
      expect(field.body).toEqual({
        message: "The inputs field must not be nested more than 64 levels deep.",
        errors: { inputs: ["The inputs field must not be nested more than 64 levels deep."] }
      })
      const whole = await server.request(method, path, { token, raw: deep })
      expect(whole.status, `${method} ${path}`).toBe(422)
      expect(whole.body.errors).toEqual({ body: ["The body field must not be nested more than 64 levels deep."] })
    }
    // Brackets in a string are text, escaped quotes included; 64 levels under a field are kept.
    const text = await server.request("POST", "/api/deals", { token, body: { deal_name: "\"[{".repeat(100) } })
    expect(text.status).toBe(201)
    const kept = await server.request("POST", "/api/deals", { token, raw: `{"deal_name":${"[".repeat(64)}${"]".repeat(64)}}` })
    expect(kept.body.errors).toEqual({ deal_name: ["The deal name field must be a string."] })
  })

  it("a lone surrogate or a NUL in any string of the body is a 422 on its field and stores nothing", async () => {
    const memo = await server.request("POST", "/api/deals/properties", {
      token,
      body: { type: "string", name: { en: "Memo" }, internal_name: "memo", group_id: BUILTIN_GROUPS.deal._id }
    })
    expect(memo.status).toBe(201)
    const counts = async () =>
      (await server.query(
        "SELECT (SELECT count(*) FROM deals)::int AS deals, (SELECT count(*) FROM property_groups)::int AS groups, " +
          "(SELECT count(*) FROM properties)::int AS properties, (SELECT count(*) FROM webhooks)::int AS webhooks, " +
          "(SELECT count(*) FROM notes)::int AS notes"
      ))[0]
    const before = await counts()
    const refused = (field: string) => {
      const message = `The ${field.replace(/_/g, " ")} field must be a valid UTF-8 string.`
      return { message, errors: { [field]: [message] } }
    }
    const cases: ReadonlyArray<readonly [string, string, unknown, string]> = [
      ["POST", "/api/deals/properties/groups", { name: { en: "\ud800" } }, "name.en"],
      ["POST", "/api/deals/properties/groups", { name: { en: "Ok" }, desc: { ar: "x\udfff" } }, "desc.ar"],
      ["POST", "/api/deals", { deal_name: "x", memo: "a\udc00" }, "memo"],
      ["POST", "/api/deals", { deal_name: "a\u0000b" }, "deal_name"],
      ["PUT", `/api/deals/${deal}`, { deal_name: "\udbff" }, "deal_name"],
      ["POST", "/api/deals/properties", {
        type: "single_select",
        name: { en: "Tier" },
        internal_name: "tier",
        group_id: BUILTIN_GROUPS.deal._id,
        enum: [{ en: "Gold", internal_name: "gold" }, { en: "Silver\ud800", internal_name: "silver" }]
      }, "enum.1.en"],
      ["POST", "/api/deals/properties", {
        type: "string",
        name: { en: "Other" },
        desc: { en: "\ud800" },
        internal_name: "other",
        group_id: BUILTIN_GROUPS.deal._id
      }, "desc.en"],
      ["POST", `/api/deals/${deal}/notes`, { body: "note \udc00" }, "body"],
      ["POST", "/api/account/webhooks", { URL: "https://example.test/\ud800", events: ["deal-created"] }, "URL"]
    ]
    for (const [method, path, body, field] of cases) {
      const reply = await server.request(method, path, { token, body })
      expect(reply.status, `${method} ${path} ${field}`).toBe(422)
      expect(reply.body).toEqual(refused(field))
    }
    // A lone surrogate in a key: the object holding it is named (the body, at the top).
    const key = await server.request("POST", "/api/deals", { token, raw: "{\"deal_name\":\"x\",\"\\ud800\":1}" })
    expect(key.status).toBe(422)
    expect(key.body).toEqual(refused("body"))
    expect(await counts()).toEqual(before)
    // A surrogate pair is one well-formed character: stored and read back as sent.
    const emoji = await server.request("POST", "/api/deals", { token, body: { deal_name: "deal \ud83d\ude00", memo: "\u{1f600}" } })
    expect(emoji.status).toBe(201)
    expect(emoji.body.data.properties).toMatchObject({ deal_name: "deal \u{1f600}", memo: "\u{1f600}" })
  })

  it("a NUL or a lone surrogate in a complex_filters value given as JSON is a 422 on the value, for every operator and kind", async () => {
    // Custom properties of every type on deals, beside every kind's built-ins and timestamps.
    const custom: Array<FilterableProperty> = []
    for (const type of PROPERTY_TYPES) {
      const internal_name = `text_rule_${type}`
      const select = type === "single_select" || type === "multi_select"
      const created = await server.request("POST", "/api/deals/properties", {
        token,
        body: {
          type,
          name: { en: internal_name },
          internal_name,
          group_id: BUILTIN_GROUPS.deal._id,
          ...(select ? { enum: [{ en: "One", internal_name: "one" }] } : {})
        }
      })
      expect(created.status, type).toBe(201)
      custom.push({ internal_name, type, ...(select ? { options: ["one"] } : {}) })
    }
    const refused = (key: string) => [`The ${key.replace(/_/g, " ")} field must be a valid UTF-8 string.`]
    const before = (await server.query("SELECT count(*)::int AS n FROM exports"))[0].n
    for (const path of OBJECT_PATHS) {
      const kind = KIND_OF_PATH[path]
      const properties: Array<{ readonly internal_name: string; readonly type: FilterableProperty["type"] | "record_ids" }> = [
        ...TIMESTAMP_FILTER_PROPERTIES,
        ...filterablePropertiesOf(kind, []),
        ...(kind === "deal" ? [...custom, { internal_name: CONTACT_IDS_FILTER, type: "record_ids" as const }] : [])
      ]
      for (const { internal_name: property, type } of properties) {
        for (const operator of operatorsFor(type)) {
          if (operator === "is_empty" || operator === "is_not_empty") continue
          for (const bad of ["a\u0000b", "a\ud800"]) {
            const key = "complex_filters.0.value"
            const [value, errors] = operator === "in" || operator === "not_in"
              ? [[bad], { [`${key}.0`]: refused(`${key}.0`) }]
              : operator === "between"
              ? [[bad, bad], { [`${key}.0`]: refused(`${key}.0`), [`${key}.1`]: refused(`${key}.1`) }]
              : [bad, { [key]: refused(key) }]
            const filters = JSON.stringify([{ property, operator, value }])
            const listed = await server.request("GET", `/api/${path}?complex_filters=${encodeURIComponent(filters)}`, { token })
            const what = `${path} ${property} (${type}) ${operator} ${JSON.stringify(bad)}`
            expect(listed.status, what).toBe(422)
            expect(listed.body.errors, what).toEqual(errors)
            // An export takes the same filter as the JSON text the list takes.
            const exported = await server.request("POST", `/api/${path}/exports`, { token, body: { complex_filters: filters } })
            expect(exported.status, what).toBe(422)
            expect(exported.body.errors, what).toEqual(errors)
          }
        }
      }
    }
    expect((await server.query("SELECT count(*)::int AS n FROM exports"))[0].n).toBe(before)
  }, 120_000)

  it("dates outside the years 0001 to 9999 are a 422 like other invalid dates, in values and filters", async () => {
    for (const [internal_name, type] of [["signed_on", "date"], ["signed_at", "datetime"]]) {
      const created = await server.request("POST", "/api/deals/properties", {
        token,
        body: { type, name: { en: internal_name }, internal_name, group_id: BUILTIN_GROUPS.deal._id }
      })
      expect(created.status).toBe(201)
    }
    const year0 = Date.parse("0000-06-01T00:00:00Z")
    const outOfRange = ["0000-01-01", "0000-12-31T23:59:59Z", "0001-01-01T00:30:00+01:00", year0, 253402300800000, {
      $date: { $numberLong: String(year0) }
    }]
    for (const field of ["close_date", "signed_on", "signed_at"]) {
      for (const value of outOfRange) {
        const reply = await server.request("POST", "/api/deals", { token, body: { deal_name: "x", [field]: value } })
        expect(reply.status, `${field} ${JSON.stringify(value)}`).toBe(422)
        expect(reply.body.errors).toEqual({ [field]: [`The ${field.replace(/_/g, " ")} field must be a valid date.`] })
      }
      const update = await server.request("PUT", `/api/deals/${deal}`, { token, body: { [field]: "0000-01-01" } })
      expect(update.status).toBe(422)
      const edge = await server.request("POST", "/api/deals", { token, body: { deal_name: "edge", [field]: "0001-01-01" } })
      expect(edge.status, field).toBe(201)
      const last = await server.request("PUT", `/api/deals/${edge.body.data.properties._id}`, {
        token,
        body: { [field]: "9999-12-31T23:59:59Z" }
      })
      expect(last.status, field).toBe(200)
    }
    for (const property of ["close_date", "signed_on", "signed_at", "created_at"]) {
      for (const value of ["0000-01-01", year0]) {
        const reply = await server.request("GET", `/api/deals?${filters([{ property, operator: "gt", value }])}`, { token })
        expect(reply.status, `${property} ${value}`).toBe(422)
        expect(Object.keys(reply.body.errors)).toEqual(["complex_filters.0.value"])
      }
    }
  })

  it("a refused value under a key named like an Object member (constructor, __proto__) is a 422 on that key", async () => {
    // The fuzz met an empty 500 here: the error list of the key "constructor" was Object's own constructor.
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      for (const [method, path] of [["POST", "/api/deals"], ["PUT", `/api/deals/${deal}`]] as const) {
        const reply = await server.request(method, path, { token, raw: `{"deal_name":"x","${key}":1e400}` })
        expect(reply.status, `${method} ${path} ${key}`).toBe(422)
        expect(Object.keys(reply.body.errors), key).toEqual([key])
        expect(reply.body.message).toBe(reply.body.errors[key][0])
      }
    }
  })

  it("a NUL character in the body or the query is a 422 and stores nothing", async () => {
    const before = (await server.query("SELECT count(*)::int AS n FROM deals"))[0].n
    const body = await server.request("POST", "/api/deals", { token, raw: "{\"deal_name\":\"a\\u0000b\"}" })
    expect(body.status).toBe(422)
    expect(body.body).toEqual({
      message: "The deal name field must be a valid UTF-8 string.",
      errors: { deal_name: ["The deal name field must be a valid UTF-8 string."] }
    })
    const update = await server.request("PUT", `/api/deals/${deal}`, { token, raw: "{\"deal_name\":\"\\u0000\"}" })
    expect(update.status).toBe(422)
    const query = await server.request("GET", "/api/deals?search=a%00b", { token })
    expect(query.status).toBe(422)
    expect(Object.keys(query.body.errors)).toEqual(["query"])
    expect((await server.query("SELECT count(*)::int AS n FROM deals"))[0].n).toBe(before)
    // An escaped backslash followed by "u0000" is literal text, not a NUL.
    const literal = await server.request("POST", "/api/deals", { token, raw: "{\"deal_name\":\"a\\\\u0000\"}" })
    expect(literal.status).toBe(201)
    expect(literal.body.data.properties.deal_name).toBe("a\\u0000")
  })
})
