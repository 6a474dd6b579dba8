import { assert, describe, it } from "@effect/vitest"
import { setOwnKey } from "../../src/Wire.ts"

describe("setOwnKey", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "deal_name"])(
    "sets %s as an own enumerable key, shown by JSON.stringify",
    (key) => {
      const target: Record<string, unknown> = { first: 1 }
      setOwnKey(target, key, "v")
      assert.deepStrictEqual(Object.getOwnPropertyDescriptor(target, key), {
        value: "v",
        enumerable: true,
        writable: true,
        configurable: true
      })
      assert.strictEqual(Object.getPrototypeOf(target), Object.prototype)
      assert.deepStrictEqual(Object.keys(target), ["first", key])
      assert.strictEqual(JSON.stringify(target), `{"first":1,${JSON.stringify(key)}:"v"}`)
    }
  )

  it("replaces an own key's value where it stands", () => {
    const target: Record<string, unknown> = { a: 1, constructor: 2, b: 3 }
    setOwnKey(target, "constructor", 4)
    setOwnKey(target, "a", 5)
    assert.strictEqual(JSON.stringify(target), `{"a":5,"constructor":4,"b":3}`)
  })
})
