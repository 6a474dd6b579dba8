import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  defaultPreference,
  NOTIFICATION_NAMES,
  NotificationPreference,
  withDefaultPreferences
} from "../../src/Accounts.ts"

/** Stored preferences: at most one row per name (the table's unique key). */
const Stored = Schema.Array(NotificationPreference)
const uniqueByName = (rows: ReadonlyArray<NotificationPreference>) =>
  rows.filter((row, i) => rows.findIndex((other) => other.name === row.name) === i)

describe("withDefaultPreferences", () => {
  it.prop("every name is present exactly once, in the stable order", [Stored], ([raw]) => {
    const result = withDefaultPreferences(uniqueByName(raw))
    assert.deepStrictEqual(result.map((p) => p.name), [...NOTIFICATION_NAMES])
  })

  it.prop("stored preferences win; the others default to every channel on", [Stored], ([raw]) => {
    const stored = uniqueByName(raw)
    for (const preference of withDefaultPreferences(stored)) {
      const own = stored.find((p) => p.name === preference.name)
      if (own !== undefined) {
        assert.strictEqual(preference, own)
      } else {
        assert.deepStrictEqual(preference, { name: preference.name, stored: true, popup: true, browser: true, email: true })
      }
    }
  })

  it.prop("the result encodes as NotificationPreference", [Stored], ([raw]) => {
    Schema.encodeUnknownSync(Schema.Array(NotificationPreference))(withDefaultPreferences(uniqueByName(raw)))
  })

  it("nothing stored gives all defaults", () => {
    assert.deepStrictEqual(withDefaultPreferences([]), NOTIFICATION_NAMES.map(defaultPreference))
    for (const p of withDefaultPreferences([])) {
      assert.isTrue(p.stored && p.popup && p.browser && p.email)
    }
  })
})
