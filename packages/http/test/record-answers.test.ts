/**
 * The records answers, serialized once by the handler: byte for byte what encoding them through
 * the endpoints' schemas writes, for every kind. The records are written as the core builds them,
 * so these fail when the core's key order leaves the schema's.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Schema } from "effect"
import type { HttpServerResponse } from "effect/http"
import {
  BUILTIN_GROUPS,
  contactSummary,
  OBJECT_KINDS,
  type ObjectKind,
  type PropertyDefinition,
  recordJson,
  type StoredRecord
} from "@wasl/core/Records"
import { RecordId } from "@wasl/core/Wire"
import { Pagination, paginated } from "../src/list-request.ts"
import { recordListAnswer, recordShownAnswer, recordWrittenAnswer } from "../src/record-answers.ts"
import { RecordView } from "../src/records-api.ts"

const ACCOUNT = 42
const CREATED = DateTime.makeUnsafe("2026-11-21T17:24:05.123Z")
const UPDATED = DateTime.makeUnsafe("2026-11-22T08:00:00.000Z")

const custom = (kind: ObjectKind, internal_name: string, type: PropertyDefinition["type"]): PropertyDefinition => ({
  _id: RecordId.make("65a1b2c3d4e5f60718293a00"),
  type,
  name: { en: internal_name },
  desc: null,
  internal_name,
  group_id: BUILTIN_GROUPS[kind]._id,
  account_id: ACCOUNT,
  made_by: 1,
  created_at: CREATED,
  updated_at: CREATED,
  kind,
  builtin: false,
  readOnly: false,
  required: false
})

const record = (_id: string, values: Record<string, unknown>): StoredRecord => ({
  _id,
  account_id: ACCOUNT,
  values: values as StoredRecord["values"],
  created_at: CREATED,
  updated_at: UPDATED
})

const ANN = record("65a1b2c3d4e5f60718293a4c", { firstname: "Ann", lastname: "Lee" })

/**
 * Two records of the kind: one with built-in and custom values (three custom ones, defined out of
 * alphabetical order, one named like a member of every object), one bare.
 */
const page = (kind: ObjectKind) => {
  const definitions = [custom(kind, "zeta", "number"), custom(kind, "constructor", "string"), custom(kind, "alpha", "multi_select")]
  const full = record("65a1b2c3d4e5f60718293a4b", {
    zeta: 7,
    constructor: "built",
    alpha: ["a", "b"],
    deal_name: "Big",
    amount: 1200,
    close_date: "2026-12-31",
    firstname: "Bo",
    lastname: "Ng",
    name: "Acme",
    ticket_name: "Broken"
  })
  const derived = kind === "deal"
    ? { contacts: [contactSummary(ANN)] }
    : kind === "contact"
    ? { dealIds: ["65a1b2c3d4e5f60718293a4b"], channels: [{ _id: "65a1b2c3d4e5f60718293a50", platform_third_party_id: "p", contact_third_party_id: "c", created_at: CREATED }] }
    : kind === "ticket"
    ? { contactsCount: 1, dealsCount: 0 }
    : {}
  return {
    items: [recordJson(kind, full, definitions, derived), recordJson(kind, record("65a1b2c3d4e5f60718293a4d", {}), definitions)],
    total: 40,
    page: 2,
    perPage: 2
  }
}

const request = {
  query: [["per_page", "2"], ["page", "2"]] as const,
  input: { per_page: "2", page: "2" },
  path: "https://crm.test/api/things"
}

/** The list endpoint's success schema (`ListRecordsEndpoint`), as the handler would have it encode. */
const encodeList = Schema.encodeUnknownSync(Pagination(RecordView))
/** The create and update endpoints' success schema, and the show endpoint's. */
const encodeWritten = Schema.encodeUnknownSync(Schema.Struct({ data: RecordView, message: Schema.String }))
const encodeShown = Schema.encodeUnknownSync(Schema.Struct({ data: RecordView }))

const jsonText = (answer: HttpServerResponse.HttpServerResponse) => {
  assert.strictEqual(answer.body._tag, "Uint8Array")
  if (answer.body._tag !== "Uint8Array") return ""
  assert.strictEqual(answer.body.contentType, "application/json")
  return new TextDecoder().decode(answer.body.body)
}

describe("the records answers", () => {
  it.each(OBJECT_KINDS)("a list writes the bytes the endpoint's schema encodes: %s", (kind) => {
    const answer = recordListAnswer(request, page(kind))
    assert.strictEqual(answer.status, 200)
    assert.strictEqual(jsonText(answer), JSON.stringify(encodeList(paginated(request, page(kind)))))
  })

  it.each(OBJECT_KINDS)("a written or shown record writes the bytes its endpoint's schema encodes: %s", (kind) => {
    const data = page(kind).items[0]!
    const written = recordWrittenAnswer(data, "Created", 201)
    assert.strictEqual(written.status, 201)
    assert.strictEqual(jsonText(written), JSON.stringify(encodeWritten({ data, message: "Created" })))
    assert.strictEqual(jsonText(recordShownAnswer(data)), JSON.stringify(encodeShown({ data })))
  })
})
