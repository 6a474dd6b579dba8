/** One-time passwords: send-otp, verify and read a verification. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SentMessageJson } from "@wasl/core/Messaging"
import {
  type CommonErrors,
  Forbidden403,
  Gone410,
  InvalidCode422,
  NotFound404,
  PaymentRequired402,
  Unauthenticated401,
  Validation422
} from "./errors.ts"
import { type AuthenticatedGroup, DataAnswer, type PathParams, type WaslEndpoint } from "./endpoint-types.ts"
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

/** A managed OTP verification with the attempts it has left, as `GET /api/verifications/:id` answers it. */
export const VerificationDetails: Schema.Struct<{
  readonly verification_id: Schema.String
  readonly status: Schema.String
  readonly to: Schema.String
  readonly contact_id: Schema.String
  readonly expires_at: Schema.String
  readonly attempts_remaining: Schema.Int
}> = Schema.Struct({ ...VerificationData.fields, attempts_remaining: Schema.Int })

/**
 * The answer of `POST /api/broadcasts/:id/send-otp`: the message sent, with the verification's id
 * and expiry in managed mode, alone in relay mode.
 */
export const SendOtpAnswer: Schema.Union<
  readonly [
    Schema.Struct<{ readonly data: typeof SentMessageJson; readonly verification_id: Schema.String; readonly expires_at: Schema.String }>,
    DataAnswer<typeof SentMessageJson>
  ]
> = Schema.Union([
  Schema.Struct({ data: SentMessageJson, verification_id: Schema.String, expires_at: Schema.String }),
  DataAnswer(SentMessageJson)
])

/** `POST /api/broadcasts/:id/send-otp`: sends a one-time password with an authentication template. */
export const SendOtpEndpoint: WaslEndpoint<"sendOtp", "POST", "/broadcasts/:id/send-otp", {
  params: PathParams<{ id: typeof IntegerIdParam }>; payload: typeof SendOtpBody; success: typeof SendOtpAnswer
  error: CommonErrors | typeof PaymentRequired402 | typeof TooManyRequests429WithRetryAfter | typeof ServiceUnavailable503WithRetryAfter
}> = HttpApiEndpoint.post("sendOtp", "/broadcasts/:id/send-otp", {
  params: { id: IntegerIdParam },
  payload: SendOtpBody,
  success: SendOtpAnswer,
  error: [
    Unauthenticated401,
    PaymentRequired402,
    Forbidden403,
    NotFound404,
    Validation422,
    TooManyRequests429WithRetryAfter,
    ServiceUnavailable503WithRetryAfter
  ]
}).annotate(OpenApi.Summary, "Send a one-time password").annotate(
  OpenApi.Description,
  "API tokens with broadcast-send-otp only. Managed mode (no code) answers verification_id and expires_at; relay mode only the message. The code is never returned."
)

/** `POST /api/verifications/:id/verify`: checks a code against a managed verification. */
export const VerifyCodeEndpoint: WaslEndpoint<"verify", "POST", "/verifications/:id/verify", {
  params: PathParams<{ id: Schema.String }>; payload: typeof VerifyCodeBody; success: DataAnswer<typeof VerificationData>
  error: CommonErrors | typeof Gone410 | typeof InvalidCode422 | typeof TooManyRequests429WithRetryAfter
}> = HttpApiEndpoint.post("verify", "/verifications/:id/verify", {
  params: { id: Schema.String },
  payload: VerifyCodeBody,
  success: DataAnswer(VerificationData),
  error: [Unauthenticated401, Forbidden403, NotFound404, Gone410, Validation422, InvalidCode422, TooManyRequests429WithRetryAfter]
}).annotate(OpenApi.Summary, "Verify a one-time password").annotate(
  OpenApi.Description,
  "The right code approves the verification. A wrong one is a 422 with attempts_remaining (the fifth makes it max_attempts_reached); " +
    "a verification no longer live is a 410 with its status. Verifications are limited per account (429 when over). " +
    "API tokens with broadcast-send-otp only."
)

/** `GET /api/verifications/:id`: a managed verification, with the attempts it has left. */
export const ShowVerificationEndpoint: WaslEndpoint<"showVerification", "GET", "/verifications/:id", {
  params: PathParams<{ id: Schema.String }>; success: DataAnswer<typeof VerificationDetails>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof NotFound404
}> = HttpApiEndpoint.get("showVerification", "/verifications/:id", {
  params: { id: Schema.String },
  success: DataAnswer(VerificationDetails),
  error: [Unauthenticated401, Forbidden403, NotFound404]
}).annotate(OpenApi.Summary, "Show an OTP verification").annotate(
  OpenApi.Description,
  "A managed verification: its status (live, approved, expired, failed, max_attempts_reached), recipient, expiry and attempts left. API tokens with broadcast-send-otp only."
)

const OtpGroupBase: AuthenticatedGroup<
  "otp",
  typeof SendOtpEndpoint | typeof VerifyCodeEndpoint | typeof ShowVerificationEndpoint
> = HttpApiGroup.make("otp")
  .add(SendOtpEndpoint)
  .add(VerifyCodeEndpoint)
  .add(ShowVerificationEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "One-time passwords over WhatsApp authentication templates: send a code (Wasl makes and checks it, or relays yours), verify it, read a verification. API tokens with the ability broadcast-send-otp only."
  )

/**
 * One-time passwords over WhatsApp authentication templates: send a code (managed: Wasl makes,
 * stores and verifies it; relay: the caller's own code), verify it, read a verification. Only
 * API tokens with the ability broadcast-send-otp; each successful send costs one OTP credit.
 */
export class OtpGroup extends OtpGroupBase {}
