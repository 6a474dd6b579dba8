/**
 * The contract of two-factor authentication: the caller's enrolment, confirmation and turning
 * off (in the `me` group), and the login's second step (in the `auth` group).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "effect/http-api"
import { CurrentUser } from "@wasl/core/Accounts"
import { type DataAnswer, DataAnswer as dataAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { Forbidden403, Unauthenticated401, Validation422 } from "./errors.ts"
import { TooManyRequests429WithRetryAfter } from "./retry-after.ts"

/** The name of the cookie that carries a login's pending second step (HttpOnly, for `/api/auth/two-factor` only, 5 minutes). */
export const TWO_FACTOR_COOKIE = "wasl_two_factor"

// A code or recovery code as typed: short, so a long body costs no hashing.
const Code: Schema.String = Schema.String.check(Schema.isMaxLength(64))

/** What `POST /api/me/two-factor` answers: the new secret in Base32 and its `otpauth://` URI. */
export const TwoFactorEnrolmentView: Schema.Struct<{ readonly secret: Schema.String; readonly otpauth_uri: Schema.String }> =
  Schema.Struct({
    secret: Schema.String.annotate({ description: "The TOTP secret in Base32 (SHA-1, 6 digits, 30 s), for typing into an app." }),
    otpauth_uri: Schema.String.annotate({ description: "The otpauth://totp/ URI for a QR code: issuer Wasl, the user's e-mail as label." })
  }).annotate({ identifier: "TwoFactorEnrolment" })

/** What `POST /api/me/two-factor/confirm` answers: the recovery codes, shown this once. */
export const RecoveryCodesView: Schema.Struct<{ readonly recovery_codes: Schema.$Array<Schema.String> }> = Schema.Struct({
  recovery_codes: Schema.Array(Schema.String).annotate({
    description: "8 single-use codes that complete a login without the app; only their hashes are kept."
  })
}).annotate({ identifier: "RecoveryCodes" })

/** The body of `POST /api/me/two-factor/confirm`: a code of the app for the new secret. */
export const ConfirmTwoFactorPayload: Schema.Struct<{ readonly code: Schema.String }> = Schema.Struct({ code: Code })

/** The body of `DELETE /api/me/two-factor`: the user's password. */
export const DisableTwoFactorPayload: Schema.Struct<{ readonly password: Schema.String }> = Schema.Struct({
  password: Schema.String.check(Schema.isMaxLength(1024))
})

/**
 * The body of `POST /api/auth/two-factor`: a code of the authenticator app, or one of the
 * recovery codes (one of the two).
 */
export const TwoFactorLoginPayload: Schema.Struct<{
  readonly code: Schema.optionalKey<Schema.String>
  readonly recovery_code: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  code: Schema.optionalKey(Code),
  recovery_code: Schema.optionalKey(Code)
})

/** What `POST /api/auth/login` answers for a user with two-factor on: no session yet. */
export const TwoFactorRequiredAnswer: Schema.Struct<{ readonly two_factor: Schema.Literal<true> }> = Schema.Struct({
  two_factor: Schema.Literal(true)
}).annotate({
  identifier: "TwoFactorRequired",
  description: "The password was right and the user has two-factor on: complete the login with POST /api/auth/two-factor."
})

/** `POST /api/me/two-factor`: a new secret for the caller, not on until confirmed. */
export const BeginTwoFactorEndpoint: WaslEndpoint<"beginTwoFactor", "POST", "/me/two-factor", {
  success: DataAnswer<typeof TwoFactorEnrolmentView>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.post("beginTwoFactor", "/me/two-factor", {
  success: dataAnswer(TwoFactorEnrolmentView),
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Begin two-factor enrolment").annotate(
  OpenApi.Description,
  "A new TOTP secret for the caller, kept sealed, in place of any unconfirmed one: add it to an authenticator app " +
    "(the otpauth URI as a QR code), then confirm with a code. Two-factor is not on until confirmed. 422 on two_factor when it is already on."
)

/** `POST /api/me/two-factor/confirm`: turns two-factor on and answers the recovery codes. */
export const ConfirmTwoFactorEndpoint: WaslEndpoint<"confirmTwoFactor", "POST", "/me/two-factor/confirm", {
  payload: typeof ConfirmTwoFactorPayload; success: DataAnswer<typeof RecoveryCodesView>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.post("confirmTwoFactor", "/me/two-factor/confirm", {
  payload: ConfirmTwoFactorPayload,
  success: dataAnswer(RecoveryCodesView),
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Confirm two-factor (turn it on)").annotate(
  OpenApi.Description,
  "Turns two-factor on with a current code of the enrolled secret and answers 8 recovery codes, shown this once. " +
    "A wrong code, or no enrolment begun, is 422 on code."
)

/** `DELETE /api/me/two-factor`: turns two-factor off, given the password. */
export const DisableTwoFactorEndpoint: WaslEndpoint<"disableTwoFactor", "DELETE", "/me/two-factor", {
  payload: typeof DisableTwoFactorPayload; success: HttpApiSchema.NoContent
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.delete("disableTwoFactor", "/me/two-factor", {
  payload: DisableTwoFactorPayload,
  success: HttpApiSchema.NoContent,
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Turn two-factor off").annotate(
  OpenApi.Description,
  "Turns two-factor off (the secret and the recovery codes are dropped), given the user's password (204); a wrong one is 422 on password."
)

/** `POST /api/auth/two-factor`: completes a login of a user with two-factor on. */
export const TwoFactorLoginEndpoint: WaslEndpoint<"twoFactor", "POST", "/auth/two-factor", {
  payload: typeof TwoFactorLoginPayload; success: DataAnswer<typeof CurrentUser>
  error: typeof Validation422 | typeof TooManyRequests429WithRetryAfter
}> = HttpApiEndpoint.post("twoFactor", "/auth/two-factor", {
  payload: TwoFactorLoginPayload,
  success: dataAnswer(CurrentUser),
  error: [Validation422, TooManyRequests429WithRetryAfter]
}).annotate(OpenApi.Summary, "Complete a login with the second factor").annotate(
  OpenApi.Description,
  `The second step of a login that answered { two_factor: true }, within 5 minutes, sending back its HttpOnly ${TWO_FACTOR_COOKIE} cookie: ` +
    "a code of the authenticator app (code) or an unused recovery code (recovery_code) opens the session as POST /api/auth/login does. " +
    "A code already used, or older than the last one used, is refused, and so is a used recovery code (422 on the field sent); " +
    "after 5 attempts, or 5 minutes, the login must start again (422). Attempts are also limited per client address (429)."
)
