/** One duration syntax for every setting: the short form and Effect's long form, nothing else. */
import { Duration, Option } from "effect"
import { assert, describe, it } from "vitest"
import { parseDurationText } from "../src/Deployment.ts"

const millis = (text: string) => Option.map(parseDurationText(text), Duration.toMillis)

describe("parseDurationText", () => {
  it("reads 500ms, 2s, 5m, 1h, 1d and fractions", () => {
    assert.deepStrictEqual(millis("500ms"), Option.some(500))
    assert.deepStrictEqual(millis("2s"), Option.some(2000))
    assert.deepStrictEqual(millis("5m"), Option.some(300_000))
    assert.deepStrictEqual(millis("1h"), Option.some(3_600_000))
    assert.deepStrictEqual(millis("1d"), Option.some(86_400_000))
    assert.deepStrictEqual(millis("1.5s"), Option.some(1500))
    assert.deepStrictEqual(millis(" 0s "), Option.some(0))
  })

  it("reads the long form too: 60 seconds, 1 minute, 2 hours, 1 week", () => {
    assert.deepStrictEqual(millis("60 seconds"), Option.some(60_000))
    assert.deepStrictEqual(millis("1 minute"), Option.some(60_000))
    assert.deepStrictEqual(millis("2 hours"), Option.some(7_200_000))
    assert.deepStrictEqual(millis("1 week"), Option.some(604_800_000))
  })

  it("refuses a bare number, an unknown unit, a negative or an endless duration", () => {
    for (const text of ["", "30", "soon", "5x", "5 M", "-1s", "-5 seconds", "Infinity", "1s2", "s"]) {
      assert.isTrue(Option.isNone(parseDurationText(text)), text)
    }
  })
})
