/**
 * The sandbox provider: accepts every number except those whose digits begin with
 * 999, and appends each provider request — the plaintext code included — as one JSON line to the
 * outbox file.
 */
import { describe, expect, it } from "@effect/vitest"
import type { ProviderRequest } from "@wasl/core"
import { Effect } from "effect"
import { SecureRandom } from "effect/crypto"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeSandboxProvider } from "../../src/index.ts"

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
      const send = yield* makeSandboxProvider(outbox)
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
})
