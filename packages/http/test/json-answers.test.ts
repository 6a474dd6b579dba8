/** An answer written straight from its schema is the text of Schema's encoding, or nothing is written. */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { CurrentUser } from "@wasl/core/Accounts"
import { WireTimestamp } from "@wasl/core/Wire"
import { jsonAnswerOf, jsonWriterOf } from "../src/json-answers.ts"

/** Both texts of `value`: the writer's, and Schema's encoding's. */
const texts = <S extends Schema.Codec<unknown, unknown, never, never>>(schema: S, value: S["Type"]) => {
  const write = jsonWriterOf(schema)
  if (write === undefined) throw new Error("the writer does not cover the schema")
  return { written: JSON.stringify(write(value)), encoded: JSON.stringify(Schema.encodeSync(schema)(value)) }
}

const Tagged = Schema.Struct({
  kind: Schema.Literals(["a", "b"]),
  at: Schema.NullOr(WireTimestamp),
  when: Schema.optionalKey(WireTimestamp),
  tags: Schema.Array(Schema.String),
  count: Schema.Int,
  flag: Schema.Boolean,
  nested: Schema.Struct({ stamps: Schema.Array(WireTimestamp), note: Schema.NullOr(Schema.String) })
})

describe("jsonWriterOf", () => {
  it.prop("writes GET /api/me's answer as Schema encodes it, byte for byte", [CurrentUser], ([user]) => {
    const { encoded, written } = texts(CurrentUser, user)
    expect(written).toBe(encoded)
  }, { arbitrary: { runs: 200 } })

  it.prop("writes fixed and optional keys, nullable and listed timestamps, literals, in the schema's key order", [Tagged], ([value]) => {
    const { encoded, written } = texts(Tagged, value)
    expect(written).toBe(encoded)
  })

  it("leaves out an optional key that is absent, as the encoding does", () => {
    const { encoded, written } = texts(Tagged, {
      kind: "a",
      at: null,
      tags: [],
      count: 1,
      flag: false,
      nested: { stamps: [], note: null }
    })
    expect(written).toBe(encoded)
    expect(JSON.parse(written)).not.toHaveProperty("when")
  })

  it("answers nothing for a shape it does not cover, so the caller keeps Schema's encoding", () => {
    expect(jsonWriterOf(Schema.Record(Schema.String, Schema.String))).toBeUndefined()
    expect(jsonWriterOf(Schema.Union([Schema.Struct({ a: Schema.String }), Schema.Struct({ b: Schema.String })]))).toBeUndefined()
    expect(jsonWriterOf(Schema.DateTimeUtc)).toBeUndefined()
    expect(jsonWriterOf(Schema.Struct({ big: Schema.BigInt }))).toBeUndefined()
    expect(jsonWriterOf(Schema.Tuple([Schema.String, Schema.Number]))).toBeUndefined()
  })
})

describe("jsonAnswerOf", () => {
  it("answers 200 application/json with the encoding's text, through Schema for a shape the writer does not cover", async () => {
    const Keyed = Schema.Struct({ at: WireTimestamp, extra: Schema.Record(Schema.String, Schema.Number) })
    const value = { at: Schema.decodeSync(WireTimestamp)("2026-11-27T10:00:00.123456Z"), extra: { a: 1 } }
    expect(jsonWriterOf(Keyed)).toBeUndefined()
    const response = jsonAnswerOf(Keyed)(value, 201)
    expect(response.status).toBe(201)
    expect(HttpServerResponse.toWeb(response).headers.get("content-type")).toBe("application/json")
    expect(await HttpServerResponse.toWeb(response).text()).toBe(JSON.stringify(Schema.encodeSync(Keyed)(value)))
  })
})
