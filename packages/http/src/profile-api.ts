/** The contract of the caller's own profile (`PUT /api/me`) and password (`PUT /api/me/password`). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "effect/http-api"
import { CurrentUser } from "@wasl/core/Accounts"
import { type DataMessageAnswer, DataMessageAnswer as dataMessageAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { Forbidden403, Unauthenticated401, Validation422 } from "./errors.ts"

// Bounded so a long body costs nothing; the use-case checks the real limits with their messages.
const Text: Schema.String = Schema.String.check(Schema.isMaxLength(4096))

/**
 * The body of `PUT /api/me`: the fields to change (each optional; `image` null removes the
 * picture, a `*_view_id` null chooses no view).
 */
export const UpdateProfilePayload: Schema.Struct<{
  readonly firstname: Schema.optionalKey<Schema.String>
  readonly lastname: Schema.optionalKey<Schema.String>
  readonly locale: Schema.optionalKey<Schema.String>
  readonly image: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly contacts_view_id: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly deals_view_id: Schema.optionalKey<Schema.NullOr<Schema.String>>
  readonly tickets_view_id: Schema.optionalKey<Schema.NullOr<Schema.String>>
}> = Schema.Struct({
  firstname: Schema.optionalKey(Text),
  lastname: Schema.optionalKey(Text),
  locale: Schema.optionalKey(Text),
  image: Schema.optionalKey(Schema.NullOr(Text)),
  contacts_view_id: Schema.optionalKey(Schema.NullOr(Text)),
  deals_view_id: Schema.optionalKey(Schema.NullOr(Text)),
  tickets_view_id: Schema.optionalKey(Schema.NullOr(Text))
})

/** The body of `PUT /api/me/password`: the current password and the new one. */
export const ChangePasswordPayload: Schema.Struct<{ readonly current_password: Schema.String; readonly password: Schema.String }> =
  Schema.Struct({ current_password: Text, password: Text })

/** `PUT /api/me`: changes the caller's profile and answers the user as `GET /api/me` does. */
export const UpdateProfileEndpoint: WaslEndpoint<"updateProfile", "PUT", "/me", {
  payload: typeof UpdateProfilePayload; success: DataMessageAnswer<typeof CurrentUser>
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.put("updateProfile", "/me", {
  payload: UpdateProfilePayload,
  success: dataMessageAnswer(CurrentUser),
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Update your profile").annotate(
  OpenApi.Description,
  "Changes the caller's first and last name (not empty, at most 255 characters), locale (a BCP 47 tag, kept in its canonical form) " +
    "and image (an https URL, or null to remove it), and the saved views the console opens contacts, deals and tickets on in " +
    "the current account (contacts_view_id, deals_view_id, tickets_view_id: a view of that kind the caller sees, else a 422 " +
    "on the key; null for none); a field left out keeps its value. Answers the user as GET /api/me shows it."
)

/** `PUT /api/me/password`: changes the caller's password; the user's other sessions end. */
export const ChangePasswordEndpoint: WaslEndpoint<"changePassword", "PUT", "/me/password", {
  payload: typeof ChangePasswordPayload; success: HttpApiSchema.NoContent
  error: typeof Unauthenticated401 | typeof Forbidden403 | typeof Validation422
}> = HttpApiEndpoint.put("changePassword", "/me/password", {
  payload: ChangePasswordPayload,
  success: HttpApiSchema.NoContent,
  error: [Unauthenticated401, Forbidden403, Validation422]
}).annotate(OpenApi.Summary, "Change your password").annotate(
  OpenApi.Description,
  "Changes the caller's password (at least 8 characters) given the current one (422 on current_password when wrong), and answers 204. " +
    "Every other session of the user ends, in every account; the session making the request stays."
)
