/** One-time passwords: send-otp, verify and read a verification. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MessageJson } from "@wasl/core"
import { Forbidden403, Gone410, InvalidCode422, NotFound404, PaymentRequired402, Unauthenticated401, Validation422 } from "./errors.ts"
import { IntegerIdParam } from "./messaging-api.ts"
import { ServiceUnavailable503WithRetryAfter, TooManyRequests429WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

/** A managed OTP verification as the API answers it: its id, status, recipient and expiry. */
export const VerificationData: Schema.Struct<{
  readonly verification_id: Schema.String
  readonly status: Schema.String
  readonly to: Schema.String
  readonly contact_id: Schema.String
  readonly expires_at: Schema.String
}> = Schema.Struct({
  verification_id: Schema.String,
  status: Schema.String,
  to: Schema.String,
  contact_id: Schema.String,
  expires_at: Schema.String
})

/**
 * The body of `POST /api/broadcasts/:id/send-otp`: `contact_id` or `to` (6 to 20 digits with an
 * optional leading +), never both, and `code` (4 to 15 letters and digits) to relay the caller's
 * own code. Validated by the use-case with Laravel's messages.
 */
export const SendOtpBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "contact_id xor to (6–20 digits, optional +); code? (4–15 letters and digits: relay mode)"
})

/** The body of `POST /api/verifications/:id/verify`: `{ code }`. */
export const VerifyCodeBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown)
  .annotate({ description: "code" })

/** `POST /api/broadcasts/:id/send-otp`: sends a one-time password with an authentication template. */
export const SendOtpEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "sendOtp",
  "POST",
  "/broadcasts/:id/send-otp",
  Schema.toCodecStringTree<Schema.Struct<{ id: typeof IntegerIdParam }>>,
  never,
  Schema.toCodecJson<typeof SendOtpBody>,
  never,
  Schema.toCodecJson<
    Schema.Union<
      readonly [
        Schema.Struct<{ readonly data: typeof MessageJson; readonly verification_id: Schema.String; readonly expires_at: Schema.String }>,
        Schema.Struct<{ readonly data: typeof MessageJson }>
      ]
    >
  >,
  Schema.toCodecJson<
    | typeof Unauthenticated401
    | typeof PaymentRequired402
    | typeof Forbidden403
    | typeof NotFound404
    | typeof Validation422
    | typeof TooManyRequests429WithRetryAfter
    | typeof ServiceUnavailable503WithRetryAfter
  >
> = HttpApiEndpoint.post("sendOtp", "/broadcasts/:id/send-otp", {
  params: { id: IntegerIdParam },
  payload: SendOtpBody,
  success: Schema.Union([
    Schema.Struct({ data: MessageJson, verification_id: Schema.String, expires_at: Schema.String }),
    Schema.Struct({ data: MessageJson })
  ]),
  error: [
    Unauthenticated401,
    PaymentRequired402,
    Forbidden403,
    NotFound404,
    Validation422,
    TooManyRequests429WithRetryAfter,
    ServiceUnavailable503WithRetryAfter
  ]
}).annotate(
  OpenApi.Description,
  "API tokens with broadcast-send-otp only. Managed mode (no code) answers verification_id and expires_at; relay mode only the message. The code is never returned."
)

/** `POST /api/verifications/:id/verify`: checks a code against a managed verification. */
export const VerifyCodeEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "verify",
  "POST",
  "/verifications/:id/verify",
  Schema.toCodecStringTree<Schema.Struct<{ id: Schema.String }>>,
  never,
  Schema.toCodecJson<typeof VerifyCodeBody>,
  never,
  Schema.toCodecJson<Schema.Struct<{ readonly data: typeof VerificationData }>>,
  Schema.toCodecJson<
    | typeof Unauthenticated401
    | typeof Forbidden403
    | typeof NotFound404
    | typeof Gone410
    | typeof Validation422
    | typeof InvalidCode422
  >
> = HttpApiEndpoint.post("verify", "/verifications/:id/verify", {
  params: { id: Schema.String },
  payload: VerifyCodeBody,
  success: Schema.Struct({ data: VerificationData }),
  error: [Unauthenticated401, Forbidden403, NotFound404, Gone410, Validation422, InvalidCode422]
}).annotate(
  OpenApi.Description,
  "The right code approves the verification. A wrong one is a 422 with attempts_remaining (the fifth makes it max_attempts_reached); " +
    "a verification no longer live is a 410 with its status. API tokens with broadcast-send-otp only."
)

/** `GET /api/verifications/:id`: a managed verification, with the attempts it has left. */
export const ShowVerificationEndpoint: HttpApiEndpoint.HttpApiEndpoint<
  "showVerification",
  "GET",
  "/verifications/:id",
  Schema.toCodecStringTree<Schema.Struct<{ id: Schema.String }>>,
  never,
  never,
  never,
  Schema.toCodecJson<
    Schema.Struct<{
      readonly data: Schema.Struct<{
        readonly verification_id: Schema.String
        readonly status: Schema.String
        readonly to: Schema.String
        readonly contact_id: Schema.String
        readonly expires_at: Schema.String
        readonly attempts_remaining: Schema.Int
      }>
    }>
  >,
  Schema.toCodecJson<typeof Unauthenticated401 | typeof Forbidden403 | typeof NotFound404>
> = HttpApiEndpoint.get("showVerification", "/verifications/:id", {
  params: { id: Schema.String },
  success: Schema.Struct({ data: Schema.Struct({ ...VerificationData.fields, attempts_remaining: Schema.Int }) }),
  error: [Unauthenticated401, Forbidden403, NotFound404]
}).annotate(
  OpenApi.Description,
  "A managed verification: its status (live, approved, expired, failed, max_attempts_reached), recipient, expiry and attempts left. API tokens with broadcast-send-otp only."
)

/** @ignore */
export const OtpGroupBase: HttpApiGroup.AddPrefix<
  HttpApiGroup.AddMiddleware<
    HttpApiGroup.HttpApiGroup<"otp", typeof SendOtpEndpoint | typeof VerifyCodeEndpoint | typeof ShowVerificationEndpoint>,
    Authentication
  >,
  "/api"
> = HttpApiGroup.make("otp")
  .add(SendOtpEndpoint)
  .add(VerifyCodeEndpoint)
  .add(ShowVerificationEndpoint)
  .middleware(Authentication)
  .prefix("/api")

/**
 * One-time passwords over WhatsApp authentication templates: send a code (managed: Wasl makes,
 * stores and verifies it; relay: the caller's own code), verify it, read a verification. Only
 * API tokens with the ability broadcast-send-otp; each successful send costs one OTP credit.
 */
export class OtpGroup extends OtpGroupBase {}
