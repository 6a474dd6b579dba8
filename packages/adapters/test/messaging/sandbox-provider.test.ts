/**
 * The sandbox provider: accepts every number except those whose digits begin with
 * 999, and appends each provider request — the plaintext code included — as one JSON line to the
 * outbox file. Given the WhatsApp inbox, it walks each accepted message through sent, delivered and
 * read with the status callbacks Meta would send.
 */
import { describe, expect, it } from "@effect/vitest"
import type { ProviderRequest } from "@wasl/core/Messaging"
import { DateTime, Effect } from "effect"
import { SecureRandom } from "effect/crypto"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeSandboxProvider } from "../../src/Messaging.ts"
import { sandboxTextBody } from "../../src/messaging/sandbox-webhook-bodies.ts"

const request = (to: string, code?: string): ProviderRequest => ({
  platform: { provider: "sandbox", phoneId: null, displayPhoneNumber: "+966110000000", accessToken: null },
  to,
  template: { name: "login_code", language: "en", category: "AUTHENTICATION" },
  ...(code === undefined ? {} : { code })
})

describe("sandbox provider", () => {
  it.effect("accepts numbers, rejects 999..., and writes every request (code included) as a JSON line", () =>
    Effect.gen(function*() {
      const outbox = join(mkdtempSync(join(tmpdir(), "wasl-sandbox-test-")), "nested", "outbox.jsonl")
      const { send } = yield* makeSandboxProvider(outbox)
      const accepted = yield* send(request("966500000001", "123456"))
      expect(accepted).toEqual({ _tag: "Accepted", messageId: expect.stringMatching(/^wamid\.sandbox\.[0-9a-f]{24}$/) })
      const rejected = yield* send(request("999123456", "654321"))
      expect(rejected._tag).toBe("Rejected")
      expect((yield* send(request("199912345")))._tag).toBe("Accepted")
      const lines = readFileSync(outbox, "utf8").trim().split("\n").map((l) => JSON.parse(l))
      expect(lines).toHaveLength(3)
      expect(lines[0]).toMatchObject({
        outcome: "accepted",
        to: "966500000001",
        code: "123456",
        template: { name: "login_code", language: "en" },
        message_id: accepted._tag === "Accepted" ? accepted.messageId : ""
      })
      expect(lines[1]).toMatchObject({ outcome: "rejected", to: "999123456", code: "654321", message_id: null })
    }).pipe(Effect.provide(SecureRandom.layerWebCrypto)))

  it.effect("sends texts, writes read receipts, and walks accepted messages through sent, delivered, read", () =>
    Effect.gen(function*() {
      const outbox = join(mkdtempSync(join(tmpdir(), "wasl-sandbox-test-")), "outbox.jsonl")
      const inbox: Array<{ body: any; at: DateTime.Utc }> = []
      const provider = yield* makeSandboxProvider(outbox, (body, at) => Effect.sync(() => void inbox.push({ body: JSON.parse(body), at })))
      const platform = request("1").platform
      const text = yield* provider.sendText(platform, "966500000001", "Hello there")
      expect(text).toEqual({ _tag: "Accepted", messageId: expect.stringMatching(/^wamid\./) })
      const id = text._tag === "Accepted" ? text.messageId : ""
      expect(inbox.map((c) => c.body.entry[0].changes[0].value.statuses[0].status)).toEqual(["sent", "delivered", "read"])
      for (const { body } of inbox) {
        expect(body.object).toBe("whatsapp_business_account")
        const change = body.entry[0].changes[0]
        expect(change.field).toBe("messages")
        expect(change.value.metadata).toEqual({ display_phone_number: "966110000000", phone_number_id: "966110000000" })
        expect(change.value.statuses[0]).toMatchObject({ id, recipient_id: "966500000001", timestamp: expect.stringMatching(/^[0-9]+$/) })
      }
      expect((yield* provider.sendText(platform, "999000111", "x"))._tag).toBe("Rejected")
      expect(inbox).toHaveLength(3)
      expect(yield* provider.markRead(platform, "wamid.IN1")).toEqual({ _tag: "Marked" })
      expect((yield* provider.fetchMedia(platform, "123", 1000))._tag).toBe("Rejected")
      const lines = readFileSync(outbox, "utf8").trim().split("\n").map((l) => JSON.parse(l))
      expect(lines).toEqual([
        expect.objectContaining({ outcome: "accepted", message_id: id, to: "966500000001", text: "Hello there" }),
        expect.objectContaining({ outcome: "rejected", to: "999000111", text: "x" }),
        expect.objectContaining({ read: "wamid.IN1" })
      ])
      // A template send's tracking string comes back with each of its statuses, as Meta's does.
      yield* provider.send({ ...request("966500000002"), tracking: "wasl-campaign:a:b" })
      const statusOf = (c: { body: any }) => c.body.entry[0].changes[0].value.statuses[0]
      expect(inbox.slice(3).map((c) => statusOf(c).biz_opaque_callback_data)).toEqual(Array(3).fill("wasl-campaign:a:b"))
      expect(inbox.slice(0, 3).some((c) => "biz_opaque_callback_data" in statusOf(c))).toBe(false)
    }).pipe(Effect.provide(SecureRandom.layerWebCrypto)))

  it("writes a received text as Meta's messages callback: the contact's profile and wa_id, the number's digits as its id", () => {
    const at = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
    const body = JSON.parse(sandboxTextBody(
      { digits: "966110000000" },
      { id: "wamid.sandbox.in1", from: "966500000001", profileName: "Sara", text: "Is my order ready?" },
      at
    ))
    expect(body).toEqual({
      object: "whatsapp_business_account",
      entry: [{
        id: "966110000000",
        changes: [{
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "966110000000", phone_number_id: "966110000000" },
            contacts: [{ profile: { name: "Sara" }, wa_id: "966500000001" }],
            messages: [{
              from: "966500000001",
              id: "wamid.sandbox.in1",
              timestamp: String(Math.floor(DateTime.toEpochMillis(at) / 1000)),
              type: "text",
              text: { body: "Is my order ready?" }
            }]
          }
        }]
      }]
    })
  })
})
