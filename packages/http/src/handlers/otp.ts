import { DateTime, Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { RateLimitPolicy } from "@wasl/core/Auth"
import { sentMessageJson } from "@wasl/core/Messaging"
import { formatExpiresAt, getVerification, sendOtp, verificationJson, verifyCode } from "@wasl/core/Otp"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import { limitRequest } from "../rate-limit.ts"
import { countOtpSend } from "../otp-metrics.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/**
 * The handlers of the `otp` group: send-otp, verify and read a verification. Verifications are
 * limited per account (`RateLimitPolicy.otpVerify`), on top of the caller's own limit, so guessing
 * codes across many verifications is slowed down too.
 */
export const OtpHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "otp">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "otp", (handlers) =>
  Effect.gen(function*() {
    const policy = yield* RateLimitPolicy
    return handlers
    .handle("sendOtp", ({ params, payload }) =>
      Effect.gen(function*() {
        const { message, broadcast, verification } = yield* domain(countOtpSend(sendOtp(yield* CurrentPrincipal, params.id, payload)))
        const data = sentMessageJson(message, broadcast)
        return verification === undefined
          ? { data }
          : { data, verification_id: verification.id, expires_at: formatExpiresAt(verification.expires_at) }
      }))
    .handle("verify", ({ params, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        yield* limitRequest([[`otp-verify:account:${principal.accountId}`, policy.otpVerify]])
        const verification = yield* domain(verifyCode(principal, params.id, payload))
        const { attempts_remaining: _, ...data } = verificationJson(verification, yield* DateTime.now)
        return { data }
      }))
    .handle("showVerification", ({ params }) =>
      Effect.gen(function*() {
        const verification = yield* domain(getVerification(yield* CurrentPrincipal, params.id))
        return { data: verificationJson(verification, yield* DateTime.now) }
      }))
  }))
