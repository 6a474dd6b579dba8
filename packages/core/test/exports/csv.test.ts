/**
 * The CSV of an export: cells as the API shows values, the formula guard, RFC 4180 quoting with a
 * byte order mark, and the file stored in pieces.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { cellOf, csvFile, guardFormula, UTF8_BOM, writeInPieces } from "../../src/index.ts"

// ignoreBOM keeps the mark in the text (a decoder drops it by default).
const text = (bytes: ReadonlyArray<Uint8Array>) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(concat(bytes))
const concat = (parts: ReadonlyArray<Uint8Array>) => {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    all.set(part, at)
    at += part.length
  }
  return all
}

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
      const rows = Stream.make(["1", "Acme, Inc."], ["2", "say \"hi\""], ["3", "two\nlines"], ["4", ""])
      const bytes = yield* Stream.runCollect(csvFile(["_id", "name"], rows))
      const all = concat(bytes)
      assert.deepStrictEqual([...all.subarray(0, 3)], [...UTF8_BOM])
      assert.strictEqual(
        text(bytes),
        "\uFEFF_id,name\r\n1,\"Acme, Inc.\"\r\n2,\"say \"\"hi\"\"\"\r\n3,\"two\nlines\"\r\n4,\r\n"
      )
    }))

  it.effect("an export of no records is the BOM and the header", () =>
    Effect.gen(function*() {
      assert.strictEqual(text(yield* Stream.runCollect(csvFile(["_id"], Stream.empty))), "\uFEFF_id\r\n")
    }))

  it.effect("is stored in pieces of at least the size asked, in order, the last one smaller, adding up to the file", () =>
    Effect.gen(function*() {
      const parts = Array.from({ length: 10 }, (_, i) => new Uint8Array(30).fill(i))
      const pieces: Array<{ seq: number; bytes: Uint8Array }> = []
      const written = yield* writeInPieces(Stream.fromIterable(parts), 100, (bytes, seq) =>
        Effect.sync(() => {
          pieces.push({ seq, bytes })
        }))
      assert.deepStrictEqual(written, { pieces: 3, bytes: 300 })
      assert.deepStrictEqual(pieces.map((p) => [p.seq, p.bytes.length]), [[0, 120], [1, 120], [2, 60]])
      assert.deepStrictEqual(concat(pieces.map((p) => p.bytes)), concat(parts))
    }))
})
