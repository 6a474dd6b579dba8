/**
 * A template's variables, as pure functions over random templates: numbering is accepted exactly
 * when it runs from 1 with none missing; the filled text is the template with each value in its
 * places; a missing or extra value is reported under its own key and nothing is filled; a
 * property's value comes from the contact.
 */
import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { fillParameters, fillVariables, variableCount, variableProblem, variablesOf } from "../../src/Messaging.ts"

/** Literal text with no braces (the variables are placed between such segments). */
const literal = fc.string({ maxLength: 12 }).map((s) => s.replace(/[{}]/g, ""))

/** A template text over variables 1…n: segments around a random order of them, each at least once. */
const template = fc.integer({ min: 0, max: 8 }).chain((n) =>
  fc.tuple(
    fc.constant(n),
    fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i + 1), { minLength: n, maxLength: n }),
    fc.array(fc.integer({ min: 1, max: Math.max(1, n) }), { maxLength: n === 0 ? 0 : 3 }),
    fc.array(literal, { minLength: 12, maxLength: 12 })
  ).map(([count, order, repeats, segments]) => {
    const variables = [...order, ...repeats]
    const text = variables.map((v, i) => `${segments[i]}{{${v}}}`).join("") + segments[variables.length]
    return { count, variables, segments, text }
  })
)

const values = (n: number) => fc.array(fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim() !== "" && !/[{}]/.test(s)), { minLength: n, maxLength: n })

describe("template variables", () => {
  it("accepts numbering from 1 with none missing, and refuses a gap", () => {
    fc.assert(fc.property(template, ({ count, text }) => {
      assert.strictEqual(variableProblem(text, 1024), undefined)
      assert.strictEqual(variableCount(text), count)
    }))
    fc.assert(fc.property(template, fc.integer({ min: 2, max: 20 }), ({ count, text }, skip) => {
      const gapped = `${text} {{${count + skip}}}`
      assert.isDefined(variableProblem(gapped, 1024))
    }))
    assert.isDefined(variableProblem("{{1}} {{2}}", 1))
    assert.strictEqual(variableProblem("Order {{1}}", 1), undefined)
  })

  it("fills each variable's places with its value, and only those", () => {
    fc.assert(fc.property(template.chain((t) => fc.tuple(fc.constant(t), values(t.count))), ([t, given]) => {
      const filled = fillVariables(t.text, given)
      const expected = t.variables.map((v, i) => `${t.segments[i]}${given[v - 1]}`).join("") + t.segments[t.variables.length]
      assert.strictEqual(filled, expected)
      assert.deepStrictEqual(variablesOf(filled), [])
    }))
  })

  it("reports every missing or extra value under its key, and fills nothing then", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 8 }), (want, given) => {
      const errors: Record<string, Array<string>> = {}
      const sources = Array.from({ length: given }, (_, i) => `v${i}`)
      const filled = fillParameters({ body: want, header: 0 }, { body: sources, header: [] }, {}, () => true, errors)
      const keys = Object.keys(errors)
      if (want === given) {
        assert.deepStrictEqual(filled, { body: sources, header: [] })
        assert.deepStrictEqual(keys, [])
      } else {
        assert.isUndefined(filled)
        const lo = Math.min(want, given)
        const hi = Math.max(want, given)
        assert.deepStrictEqual(keys, Array.from({ length: hi - lo }, (_, i) => `parameters.body.${lo + i}`))
      }
    }))
  })

  it("takes a property's value from the contact, written out as text", () => {
    const errors: Record<string, Array<string>> = {}
    const filled = fillParameters(
      { body: 3, header: 1 },
      { body: [{ property: "firstname" }, { property: "age" }, { property: "tags" }], header: ["A-1"] },
      { firstname: "Sara", age: 31, tags: ["vip", "gold"] },
      () => true,
      errors
    )
    assert.deepStrictEqual(errors, {})
    assert.deepStrictEqual(filled, { body: ["Sara", "31", "vip, gold"], header: ["A-1"] })
    const unknown: Record<string, Array<string>> = {}
    fillParameters({ body: 1, header: 0 }, { body: [{ property: "x" }], header: [] }, {}, (name) => name !== "x", unknown)
    assert.deepStrictEqual(unknown, { "parameters.body.0.property": ["The selected parameters.body.0.property is invalid."] })
  })
})
