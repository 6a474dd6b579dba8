/**
 * Reading Meta's `phone_number_quality_update` callbacks: the WABA of the entry, the display
 * number's digits, the event and the new limit (`max_daily_conversations_per_business` first, the
 * older `current_limit` else); changes of other fields are not its; one without a limit, or not
 * of Meta's shape, is malformed.
 */
import { assert, describe, it } from "@effect/vitest"
import { parseNumberQualityUpdates } from "../../src/WhatsApp.ts"

const body = (changes: ReadonlyArray<unknown>, id = "102290129340398") =>
  JSON.stringify({ object: "whatsapp_business_account", entry: [{ id, time: 1748454394, changes }] })

describe("phone_number_quality_update", () => {
  it("reads the WABA, the display number's digits, the event and the new limit", () => {
    const read = parseNumberQualityUpdates(body([
      { field: "phone_number_quality_update", value: { display_phone_number: "+1 555-078-3881", event: "UPGRADE", old_limit: "TIER_1K", current_limit: "TIER_10K" } },
      {
        field: "phone_number_quality_update",
        value: { display_phone_number: "15550783882", event: "THROUGHPUT_UPGRADE", current_limit: "TIER_2K", max_daily_conversations_per_business: "TIER_UNLIMITED" }
      },
      { field: "messages", value: { messaging_product: "whatsapp" } }
    ]))
    assert.deepStrictEqual(read, {
      updates: [
        { wabaId: "102290129340398", displayDigits: "15550783881", event: "UPGRADE", tier: "TIER_10K" },
        { wabaId: "102290129340398", displayDigits: "15550783882", event: "THROUGHPUT_UPGRADE", tier: "TIER_UNLIMITED" }
      ],
      malformed: 0
    })
  })

  it("counts a change without a limit or a display number, or not of Meta's shape, as malformed", () => {
    const read = parseNumberQualityUpdates(body([
      { field: "phone_number_quality_update", value: { display_phone_number: "15550783881", event: "FLAGGED" } },
      { field: "phone_number_quality_update", value: { display_phone_number: "", event: "UPGRADE", current_limit: "TIER_1K" } },
      { field: "phone_number_quality_update", value: "nonsense" }
    ]))
    assert.deepStrictEqual(read, { updates: [], malformed: 3 })
    assert.deepStrictEqual(parseNumberQualityUpdates("not JSON"), { updates: [], malformed: 0 })
  })
})
