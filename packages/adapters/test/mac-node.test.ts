/** The node:crypto Mac signs like Web Crypto's, synchronously, and is the Node deployment's Mac. */
import { assert, describe, it } from "@effect/vitest"
import { hmacSha256 } from "@wasl/core/Auth"
import { DeliveryPolicy } from "@wasl/core/Deliveries"
import { DEFAULT_OTP_COOLDOWN } from "@wasl/core/Messaging"
import { Effect, Layer, Schema } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { nodeServices } from "../src/deployment/node-services.ts"
import { MacNode } from "../src/mac-node.ts"

const NodeMac = MacNode.pipe(Layer.provide(SecureRandom.layerWebCrypto))

describe("MacNode", () => {
  it.effect.prop("signs like Web Crypto", [Schema.NonEmptyString, Schema.String], ([secret, message]) =>
    Effect.gen(function*() {
      const key = new TextEncoder().encode(secret)
      const node = yield* Effect.provide(hmacSha256(key), NodeMac)
      const web = yield* hmacSha256(key)
      assert.deepStrictEqual(yield* node(message), yield* web(message))
    }))

  it.effect("signs synchronously (Web Crypto's sign is a thread-pool job and cannot)", () =>
    Effect.gen(function*() {
      const hmac = yield* Effect.provide(hmacSha256(new TextEncoder().encode("0123456789abcdef0123456789abcdef")), NodeMac)
      const tag = Effect.runSync(hmac("1732200000:{}"))
      assert.strictEqual(Buffer.from(tag).toString("hex"), "21e106770861a9adaa86328c975b4481eb51b456a66a5edbe80f93232169d49a")
    }))

  it.effect("verifies its own tags and no other", () =>
    Effect.gen(function*() {
      const mac = yield* Mac.Mac
      const key = yield* Mac.key(Mac.hmacSha256, new TextEncoder().encode("secret"))
      const data = new TextEncoder().encode("message")
      const tag = yield* mac.sign(key, data)
      assert.isTrue(yield* mac.verify(key, tag, data))
      assert.isFalse(yield* mac.verify(key, tag, new TextEncoder().encode("messagE")))
    }).pipe(Effect.provide(NodeMac)))
})

describe("nodeServices", () => {
  it.effect("provides MacNode, so webhook signatures are made on node:crypto", () =>
    Effect.gen(function*() {
      const services = yield* Layer.build(
        nodeServices({ dataDir: mkdtempSync(join(tmpdir(), "wasl-mac-")) }, new Uint8Array(32).fill(1), DeliveryPolicy.defaultValue(), DEFAULT_OTP_COOLDOWN)
      )
      const hmac = yield* Effect.provide(hmacSha256(new TextEncoder().encode("0123456789abcdef0123456789abcdef")), services)
      // Synchronous: Web Crypto's sign would make runSync fail.
      assert.strictEqual(
        Buffer.from(Effect.runSync(hmac("1732200000:{}"))).toString("hex"),
        "21e106770861a9adaa86328c975b4481eb51b456a66a5edbe80f93232169d49a"
      )
    }).pipe(Effect.scoped))
})
