/**
 * The CSV of an export: cells as the API shows values, the formula guard, RFC 4180 quoting with a
 * byte order mark, and the file written in batches.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { cellOf, csvBatch, UTF8_BOM } from "../../src/Exports.ts"
import { guardFormula } from "../../src/Wire.ts"

// ignoreBOM keeps the mark in the text (a decoder drops it by default).
const text = (bytes: ReadonlyArray<Uint8Array>) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(concat(bytes))
const concat = (parts: ReadonlyArray<Uint8Array>) => new Uint8Array(parts.flatMap((part) => [...part]))

describe("export cells", () => {
  it("prefixes a ' to text a spreadsheet would run as a formula: = + - @, a leading tab or carriage return", () => {
    for (const formula of ["=1+1", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx", "=HYPERLINK(\"http://x\")"]) {
      assert.strictEqual(guardFormula(formula), `'${formula}`)
    }
    for (const plain of ["Acme", " =1", "a=b", "", "'quoted"]) assert.strictEqual(guardFormula(plain), plain)
  })

  it("writes values as the API shows them: numbers (negative ones unguarded), booleans, lists joined with ;, nothing for null", () => {
    assert.strictEqual(cellOf(-5), "-5")
    assert.strictEqual(cellOf(2.5), "2.5")
    assert.strictEqual(cellOf(true), "true")
    assert.strictEqual(cellOf(false), "false")
    assert.strictEqual(cellOf(null), "")
    assert.strictEqual(cellOf(undefined), "")
    assert.strictEqual(cellOf("2026-11-21T17:24:05.123000Z"), "2026-11-21T17:24:05.123000Z")
    assert.strictEqual(cellOf(["red", "blue"]), "red;blue")
    assert.strictEqual(cellOf(["=cmd", "x"]), "'=cmd;x")
    assert.strictEqual(cellOf({ _id: "a", firstname: "Amal" }), "{\"_id\":\"a\",\"firstname\":\"Amal\"}")
  })
})

describe("export file", () => {
  it.effect("is a BOM, then RFC 4180 records ending in CRLF: fields with a comma, quote or line break are quoted", () =>
    Effect.gen(function*() {
      const rows = [["1", "Acme, Inc."], ["2", "say \"hi\""], ["3", "two\nlines"], ["4", ""]]
      const bytes = [yield* csvBatch(rows, ["_id", "name"])]
      const all = concat(bytes)
      assert.deepStrictEqual([...all.subarray(0, 3)], [...UTF8_BOM])
      assert.strictEqual(
        text(bytes),
        "\uFEFF_id,name\r\n1,\"Acme, Inc.\"\r\n2,\"say \"\"hi\"\"\"\r\n3,\"two\nlines\"\r\n4,\r\n"
      )
    }))

  it.effect("an export of no records is the BOM and the header", () =>
    Effect.gen(function*() {
      assert.strictEqual(text([yield* csvBatch([], ["_id"])]), "\uFEFF_id\r\n")
    }))

  it.effect("written in batches, only the first with the mark and the header, is the file written at once", () =>
    Effect.gen(function*() {
      const rows = [["1", "a,b"], ["2", "=x"], ["3", "two\nlines"], ["4", "\"q\""], ["5", ""]]
      const whole = yield* csvBatch(rows, ["_id", "name"])
      const batches = [yield* csvBatch(rows.slice(0, 2), ["_id", "name"]), yield* csvBatch(rows.slice(2, 3), null), yield* csvBatch(rows.slice(3), null)]
      assert.deepStrictEqual(concat(batches), whole)
      assert.strictEqual((yield* csvBatch([], null)).length, 0)
    }))
})
