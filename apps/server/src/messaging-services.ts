/**
 * The ports messaging needs beyond the repositories: the providers (sandbox outbox file, Cloud API
 * base URL), the OTP cooldown and the code hasher under the server's "otp-code" key.
 * Configuration is read here, at the edge.
 */
import { Effect, Layer, Option } from "effect"
import { join } from "node:path"
import { MessagingLive } from "@wasl/adapters"
import { MessagingConfig } from "./config.ts"
import { serverKey, ServerKeys } from "./server-keys.ts"

export const MessagingServicesLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* MessagingConfig
  return MessagingLive({
    sandboxOutbox: Option.getOrElse(config.sandboxOutbox, () => join(config.dataDir, "sandbox-outbox.jsonl")),
    graphUrl: Option.getOrUndefined(config.graphUrl),
    otpCooldown: config.otpCooldown,
    otpCodeKey: yield* serverKey("otp-code")
  })
})).pipe(Layer.provide(ServerKeys.layer))
