/**
 * The messaging-side ports of the test server: the real providers (sandbox writing to a temporary
 * outbox file; whatsapp_cloud against `graphUrl`, a local fake Cloud API in the suites that use it),
 * the OTP cooldown of the suite (default 60 s like production), the code hasher under a fixed
 * test key, and the media store in memory.
 */
import { MessagingLive } from "@wasl/adapters/Messaging"
import { MediaStoreMemory } from "@wasl/adapters/memory"
import { Duration, Layer } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const TEST_OTP_KEY = new Uint8Array(32).fill(9)

export interface MessagingServiceOptions {
  /** WASL_OTP_COOLDOWN of the suite; default 60 seconds. */
  readonly otpCooldown?: Duration.Input
  /** WASL_WHATSAPP_GRAPH_URL of the suite. */
  readonly graphUrl?: string
}

export const messagingTestServices = (options: MessagingServiceOptions) => {
  const sandboxOutbox = join(mkdtempSync(join(tmpdir(), "wasl-sandbox-")), "outbox.jsonl")
  const layer = Layer.merge(
    MessagingLive({
      sandboxOutbox,
      graphUrl: options.graphUrl,
      otpCooldown: Duration.fromInputUnsafe(options.otpCooldown ?? Duration.seconds(60)),
      otpCodeKey: TEST_OTP_KEY
    }),
    MediaStoreMemory
  )
  return { layer, sandboxOutbox }
}
