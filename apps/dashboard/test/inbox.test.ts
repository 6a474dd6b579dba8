/** The inbox's rules that need no browser: ticks and failure reasons, the reply window, previews. */
import { describe, expect, it } from "vitest"
import { namedType, previewOf } from "../src/inbox/preview.ts"
import { isWindowOpen, msUntilClosed } from "../src/inbox/replyWindow.ts"
import { failureReason, TICK_SYMBOL, tickOf } from "../src/inbox/ticks.ts"

describe("ticks", () => {
  it("gives the business's messages one tick when sent, two when delivered or read, a mark when failed", () => {
    expect(tickOf({ status: "sent", is_sent_by_the_business: true })).toBe("sent")
    expect(tickOf({ status: "delivered", is_sent_by_the_business: true })).toBe("delivered")
    expect(tickOf({ status: "read", is_sent_by_the_business: true })).toBe("read")
    expect(tickOf({ status: "failed", is_sent_by_the_business: true })).toBe("failed")
    expect([TICK_SYMBOL.sent, TICK_SYMBOL.delivered, TICK_SYMBOL.read]).toEqual(["✓", "✓✓", "✓✓"])
  })

  it("gives the customer's messages, and an unknown status, none", () => {
    expect(tickOf({ status: "received", is_sent_by_the_business: false })).toBeUndefined()
    expect(tickOf({ status: "read", is_sent_by_the_business: false })).toBeUndefined()
    expect(tickOf({ status: "queued", is_sent_by_the_business: true })).toBeUndefined()
  })

  it("says Meta's title and details of a failure with its code, once when they are the same", () => {
    expect(failureReason({ code: 131026, title: "Message undeliverable", details: "The recipient is not on WhatsApp" }))
      .toBe("Message undeliverable: The recipient is not on WhatsApp (#131026)")
    expect(failureReason({ code: 131047, title: "Re-engagement message", details: "Re-engagement message" })).toBe("Re-engagement message (#131047)")
    expect(failureReason({ code: 131000, title: "", details: null })).toBe("#131000")
    expect(failureReason(null)).toBeUndefined()
  })
})

describe("the 24-hour window", () => {
  const now = Date.parse("2026-11-21T17:24:05.123Z")

  it("is open until window_expires_at, closed at it, after it and when the server says null", () => {
    expect(isWindowOpen("2026-11-21T18:00:00.000000Z", now)).toBe(true)
    expect(isWindowOpen("2026-11-21T17:24:05.123000Z", now)).toBe(false)
    expect(isWindowOpen("2026-11-20T18:00:00.000000Z", now)).toBe(false)
    expect(isWindowOpen(null, now)).toBe(false)
    expect(isWindowOpen(undefined, now)).toBe(false)
  })

  it("says how long until it closes, 0 once closed", () => {
    expect(msUntilClosed("2026-11-21T17:25:05.123Z", now)).toBe(60_000)
    expect(msUntilClosed("2026-11-20T17:25:05.123Z", now)).toBe(0)
    expect(msUntilClosed(null, now)).toBe(0)
  })
})

describe("a message's preview in the list", () => {
  it("is its text on one line, a masked code as stored", () => {
    expect(previewOf({ type: "template", body: "Your code is ******.\nIt expires in 10 minutes." }))
      .toEqual({ text: "Your code is ******. It expires in 10 minutes." })
  })

  it("is cut at 80 characters", () => {
    const preview = previewOf({ type: "text", body: "a".repeat(100) })
    expect("text" in preview && preview.text).toBe(`${"a".repeat(79)}…`)
  })

  it("names the type of a message without text, and falls back to a plain message", () => {
    expect(previewOf({ type: "image", body: "" })).toEqual({ type: "image" })
    expect(previewOf({ type: "location", body: " " })).toEqual({ type: "location" })
    expect(namedType("ephemeral")).toBe("text")
  })
})
