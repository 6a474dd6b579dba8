/** One-time passwords: send-otp, verify and read a verification (spec §3.3, §4.2, §7; decisions §7). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MessageJson } from "@wasl/core"
import { Forbidden403, Gone410, InvalidCode422, NotFound404, PaymentRequired402, Unauthenticated401, Validation422 } from "./errors.ts"
import { IntegerIdParam } from "./messaging-api.ts"
import { ServiceUnavailable503WithRetryAfter, TooManyRequests429WithRetryAfter } from "./retry-after.ts"
import { Authentication } from "./security.ts"

const VerificationData = Schema.Struct({
  verification_id: Schema.String,
  status: Schema.String,
  to: Schema.String,
  contact_id: Schema.String,
  expires_at: Schema.String
})

export class OtpGroup extends HttpApiGroup.make("otp")
  .add(
    HttpApiEndpoint.post("sendOtp", "/broadcasts/:id/send-otp", {
      params: { id: IntegerIdParam },
      payload: Schema.Record(Schema.String, Schema.Unknown).annotate({
        description: "contact_id xor to (6–20 digits, optional +); code? (4–15 letters and digits: relay mode)"
      }),
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
  )
  .add(HttpApiEndpoint.post("verify", "/verifications/:id/verify", {
    params: { id: Schema.String },
    payload: Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "code" }),
    success: Schema.Struct({ data: VerificationData }),
    error: [Unauthenticated401, Forbidden403, NotFound404, Gone410, Validation422, InvalidCode422]
  }))
  .add(HttpApiEndpoint.get("showVerification", "/verifications/:id", {
    params: { id: Schema.String },
    success: Schema.Struct({ data: Schema.Struct({ ...VerificationData.fields, attempts_remaining: Schema.Int }) }),
    error: [Unauthenticated401, Forbidden403, NotFound404]
  }))
  .middleware(Authentication)
  .prefix("/api")
{}
