/** The storable-text rule: what PostgreSQL text and jsonb refuse, found and named by its dot path. */
import { describe, expect, it } from "vitest"
import { isStorableText } from "@wasl/core/Wire"
import { unstorableField, unstorableJsonErrors } from "../src/storable-text.ts"

describe("storable text", () => {
  it("refuses a NUL and a surrogate without its pair, keeps pairs and other text", () => {
    for (const bad of ["\u0000", "a\u0000b", "\ud800", "x\udfff", "\udc00\ud800", "\ud83d"]) expect(isStorableText(bad)).toBe(false)
    for (const good of ["", "plain", "\u{1f600}", "\ud83d\ude00", "مرحبا", "\ufffd", "\\u0000"]) expect(isStorableText(good)).toBe(true)
  })

  it("names the first unstorable string by its dot path, a bad key by the object holding it", () => {
    expect(unstorableField({ a: "ok", name: { en: "fine", ar: "\ud800" }, z: "\u0000" })).toBe("name.ar")
    expect(unstorableField({ enum: [{ en: "ok" }, { en: "\udc00" }] })).toBe("enum.1.en")
    expect(unstorableField({ outer: { "\ud800": 1 } })).toBe("outer")
    expect(unstorableField({ "\ud800": 1 })).toBe("body")
    expect(unstorableField("\u0000", "query")).toBe("query")
    expect(unstorableField({ n: 1, b: true, z: null, list: ["\u{1f600}"] })).toBeUndefined()
  })

  it("walks a body nested deeper than the call stack", () => {
    const depth = 100_000
    const text = "[".repeat(depth) + "\"\\ud800\"" + "]".repeat(depth)
    expect(unstorableJsonErrors(text)).toEqual({
      ["0.".repeat(depth - 1) + "0"]: [expect.stringMatching(/must be a valid UTF-8 string\.$/)]
    })
  })

  it("skips text that cannot hold one, and text that is not JSON", () => {
    expect(unstorableJsonErrors("{\"a\":\"\\\\ud800\"}")).toBeUndefined()
    expect(unstorableJsonErrors("{\"a\":\"\\ud800\"")).toBeUndefined()
    expect(unstorableJsonErrors("{\"a\":\"\\u0000\"}")).toEqual({ a: ["The a field must be a valid UTF-8 string."] })
  })
})
