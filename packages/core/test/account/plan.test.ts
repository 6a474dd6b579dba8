import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { Plan, webhookLimit } from "../../src/Accounts.ts"

const Limit = Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 })))

describe("webhookLimit", () => {
  it.prop("business allows 5, whatever the custom limit", [Limit], ([limit]) => {
    assert.strictEqual(webhookLimit("business", limit), 5)
  })

  it.prop("custom carries its own limit; null means none", [Limit], ([limit]) => {
    assert.strictEqual(webhookLimit("custom", limit), limit ?? 0)
  })

  it.prop("free and starter allow none", [Schema.Literals(["free", "starter"]), Limit], ([plan, limit]) => {
    assert.strictEqual(webhookLimit(plan, limit), 0)
  })

  it.prop("is never negative for a non-negative custom limit", [Plan, Limit], ([plan, limit]) => {
    assert.isTrue(webhookLimit(plan, limit) >= 0)
  })

  it("custom 0 means none", () => {
    assert.strictEqual(webhookLimit("custom", 0), 0)
  })
})
